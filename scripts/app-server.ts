/**
 * Serves the production build (dist/) the way a static host would, plus
 * /app-config.json telling the app which backend to use. Navigations fall back to
 * index.html so deep links work; the service worker is never cached by the browser.
 *
 * Every response carries the security headers (app-headers.ts); a file's own headers
 * (type, caching) are added per file. Source maps are served only when SOURCE_MAPS=true.
 * A file is sent compressed when the build left a compressed copy of it (precompress.ts)
 * and the browser accepts that encoding.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { AppConfig } from './app-headers.ts';
import { cachingHeaders, securityHeaders } from './app-headers.ts';

export type { AppConfig } from './app-headers.ts';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** The best encoding the browser accepts of those the build writes: brotli, then gzip. */
export function chosenEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param));
    if (name && !refused) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

const encodingSuffix = { br: '.br', gzip: '.gz' } as const;

/**
 * The compressed copy to send for `file`, if the build wrote one and the browser takes
 * it. A copy older than its file is stale (the file was replaced after the build) and is
 * not sent: the file as it is now wins.
 */
async function compressedCopy(file: string, acceptEncoding: string | undefined) {
  const encoding = chosenEncoding(acceptEncoding);
  if (!encoding) return null;
  const copy = `${file}${encodingSuffix[encoding]}`;
  try {
    const [info, original] = await Promise.all([stat(copy), stat(file)]);
    return info.isFile() && info.mtimeMs >= original.mtimeMs ? { encoding, copy, size: info.size } : null;
  } catch {
    return null;
  }
}

async function fileIn(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const file = path.resolve(root, `.${decoded}`);
  if (file !== root && !file.startsWith(`${root}${path.sep}`)) return null;
  try {
    return (await stat(file)).isFile() ? file : null;
  } catch {
    return null;
  }
}

export async function startAppServer(options: {
  distDir: string;
  port: number;
  host?: string;
  config: AppConfig;
  /** Serve *.map files (they show the app's source). Default: SOURCE_MAPS=true. */
  serveSourceMaps?: boolean;
}): Promise<{ url: string; close(): Promise<void>; server: Server }> {
  const root = path.resolve(options.distDir);
  const serveSourceMaps = options.serveSourceMaps ?? process.env.SOURCE_MAPS === 'true';
  const security = securityHeaders(options.config);
  const notFound = (res: ServerResponse) => {
    res.writeHead(404, { ...security, 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Not found');
  };
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://app');
      if (url.pathname === '/app-config.json') {
        res.writeHead(200, { ...security, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
        return res.end(JSON.stringify(options.config));
      }
      if (url.pathname.endsWith('.map') && !serveSourceMaps) return notFound(res);
      let file = await fileIn(root, url.pathname);
      if (!file && !path.extname(url.pathname)) file = path.join(root, 'index.html');
      if (!file) return notFound(res);
      const compressed = await compressedCopy(file, req.headers['accept-encoding']);
      res.writeHead(200, {
        ...security,
        'Content-Type': contentTypes[path.extname(file)] ?? 'application/octet-stream',
        ...cachingHeaders(path.relative(root, file)),
        Vary: 'Accept-Encoding',
        ...(compressed ? { 'Content-Encoding': compressed.encoding, 'Content-Length': String(compressed.size) } : {}),
      });
      if (req.method === 'HEAD') return res.end();
      createReadStream(compressed?.copy ?? file).pipe(res);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500, security);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
