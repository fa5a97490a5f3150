/**
 * Serves the production build (dist/) the way a static host would, plus
 * /app-config.json telling the app which backend to use. Navigations fall back to
 * index.html so deep links work; the service worker is never cached by the browser.
 *
 * Every response carries the security headers (app-headers.ts); a file's own headers
 * (type, caching) are added per file. Source maps are served only when SOURCE_MAPS=true.
 * A request's path is decoded once and checked segment by segment before anything is
 * decided (pathSegments), and a file is served only if it resolves inside the build.
 * A file is sent compressed when the build left a compressed copy of it (precompress.ts)
 * and the browser accepts that encoding.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
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
async function compressedCopy(realRoot: string, file: string, acceptEncoding: string | undefined) {
  const encoding = chosenEncoding(acceptEncoding);
  if (!encoding) return null;
  const copy = await insideRoot(realRoot, `${file}${encodingSuffix[encoding]}`);
  if (!copy) return null;
  try {
    const [info, original] = await Promise.all([stat(copy), stat(file)]);
    return info.isFile() && info.mtimeMs >= original.mtimeMs ? { encoding, copy, size: info.size } : null;
  } catch {
    return null;
  }
}

/**
 * The path segments a request target names, each decoded exactly once, or null when the
 * target cannot name a file of the build. Every decision (source map or not, inside the
 * build or not, which file) is taken on these segments, never on the target as spelled.
 * Refused: malformed or overlong percent-encoding, encoded or literal backslashes and
 * encoded slashes (a segment holding a separator), dot segments however encoded,
 * control characters and NUL, something still percent-encoded after decoding (double
 * encoding), and segments ending in a dot or space or holding a colon (names Windows
 * would read as another file). No file of the build has such a name.
 */
export function pathSegments(target: string): string[] | null {
  if (!target.startsWith('/')) return null;
  const rawPath = target.split(/[?#]/, 1)[0] as string;
  const segments: string[] = [];
  for (const raw of rawPath.split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    const controls = [...segment].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
    const unsafe =
      controls || segment === '.' || segment === '..' || /[/\\:]/.test(segment) || /%[0-9a-f]{2}/i.test(segment) || /[. ]$/.test(segment);
    if (unsafe) return null;
    segments.push(segment);
  }
  return segments;
}

/** A source map, also under another letter case or as a compressed copy (`x.js.map.br`). */
export function isSourceMap(name: string): boolean {
  return /\.map(\.br|\.gz)?$/i.test(name);
}

/** `file` as the disk resolves it (links followed), when that is a file inside `realRoot`. */
async function insideRoot(realRoot: string, file: string): Promise<string | null> {
  try {
    const real = await realpath(file);
    if (!real.startsWith(`${realRoot}${path.sep}`)) return null;
    return (await stat(real)).isFile() ? real : null;
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
  // The build folder may itself be a link (a release folder): files must resolve inside its target.
  const realRoot = await realpath(root);
  const serveSourceMaps = options.serveSourceMaps ?? process.env.SOURCE_MAPS === 'true';
  const security = securityHeaders(options.config);
  const notFound = (res: ServerResponse) => {
    res.writeHead(404, { ...security, 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Not found');
  };
  const server = createServer((req, res) => {
    void (async () => {
      // Files to read, nothing to change: any other method is a client's mistake, said so.
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { ...security, Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
        return res.end('Method not allowed: this server only serves the app (GET, HEAD).');
      }
      const segments = pathSegments(req.url ?? '/');
      if (!segments) {
        res.writeHead(400, { ...security, 'Content-Type': 'text/plain; charset=utf-8' });
        return res.end('Bad request path');
      }
      const name = segments.at(-1) ?? '';
      if (segments.length === 1 && name === 'app-config.json') {
        res.writeHead(200, { ...security, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
        return res.end(JSON.stringify(options.config));
      }
      if (isSourceMap(name) && !serveSourceMaps) return notFound(res);
      let file = segments.length ? await insideRoot(realRoot, path.join(root, ...segments)) : null;
      // A link inside the build may point at a map under another name: the file opened decides too.
      if (file && isSourceMap(file) && !serveSourceMaps) return notFound(res);
      if (!file && !path.extname(name)) file = await insideRoot(realRoot, path.join(root, 'index.html'));
      if (!file) return notFound(res);
      const compressed = await compressedCopy(realRoot, file, req.headers['accept-encoding']);
      res.writeHead(200, {
        ...security,
        'Content-Type': contentTypes[path.extname(file)] ?? 'application/octet-stream',
        ...cachingHeaders(path.relative(realRoot, file)),
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
