/**
 * The app server decides on the path it will open, never on a spelling of it: generated
 * spellings of a source map's path, of files beside dist/ and of a link out of it
 * (percent-encoding of each character in both hex cases, double encoding, backslashes,
 * dot segments plain and encoded, encoded slashes, NUL, overlong UTF-8, trailing dots and
 * spaces, `;` parameters, query strings, letter case) are sent as raw bytes; none may
 * answer a map's or an outside file's content, while every spelling of a real asset
 * that decodes to its own name still serves it.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer } from '../../../scripts/app-server.ts';

const mapText = '{"version":3,"sources":["SECRET-SOURCE-OF-THE-APP"]}';
const outsideText = 'OUTSIDE-DIST-DO-NOT-SERVE';
const assetText = 'export const asset = "the real asset";';
const indexText = '<!doctype html><title>app</title>';
const markers = ['SECRET-SOURCE-OF-THE-APP', 'OUTSIDE-DIST-DO-NOT-SERVE'];

/** One request with the target exactly as given (no client-side normalisation): status and body. */
function rawGet(port: number, target: string, headers = '', method = 'GET'): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      const head = all.subarray(0, split === -1 ? all.length : split).toString('latin1');
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), body: split === -1 ? Buffer.alloc(0) : all.subarray(split + 4) });
    });
    socket.write(Buffer.concat([Buffer.from(`${method} `), Buffer.from(target, 'latin1'), Buffer.from(` HTTP/1.0\r\nHost: app\r\n${headers}Connection: close\r\n\r\n`)]));
  });
}

const hex = (char: string, upper: boolean) => {
  const bytes = [...Buffer.from(char, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  return upper ? bytes.toUpperCase() : bytes;
};

/** Every single-character percent-encoding of `target`, in lower and upper hex, and the whole path encoded. */
function percentSpellings(target: string): string[] {
  const out: string[] = [];
  for (let i = 1; i < target.length; i += 1) {
    for (const upper of [false, true]) out.push(`${target.slice(0, i)}${hex(target[i] as string, upper)}${target.slice(i + 1)}`);
  }
  out.push(`/${[...target.slice(1)].map((c) => (c === '/' ? c : hex(c, true))).join('')}`);
  return out;
}

/** Spellings that decode, once or twice, or normalise on some system, to `target`. */
function trickSpellings(target: string): string[] {
  const dir = path.posix.dirname(target);
  const name = path.posix.basename(target);
  const out = [
    target,
    target.toUpperCase(),
    target.replace(/\.map$/, '.MAP'),
    target.replace(/\.map$/, '.Map'),
    // Double encoding of each character of the name, and of the dot before "map".
    ...[...name].map((_, i) => `${dir}/${name.slice(0, i)}%25${hex(name[i] as string, false).slice(1)}${name.slice(i + 1)}`),
    target.replace(/\.map$/, '%252emap'),
    target.replace(/\.map$/, '%25252emap'),
    // Backslashes, encoded slashes, doubled slashes.
    target.replaceAll('/', '\\'),
    target.replace(/\/([^/]*)$/, '\\$1'),
    target.replace(/\/([^/]*)$/, '%5c$1'),
    target.replace(/\/([^/]*)$/, '%5C$1'),
    target.replace(/\/([^/]*)$/, '%2f$1'),
    target.replace(/\/([^/]*)$/, '%2F$1'),
    target.replaceAll('/', '//'),
    `/${target}`,
    // Dot segments, plain and encoded.
    `${dir}/./${name}`,
    `${dir}/%2e/${name}`,
    `/nowhere/..${target}`,
    `/nowhere/%2e%2e${target}`,
    `/nowhere/%2E%2E${target}`,
    `/nowhere/.%2e${target}`,
    `/nowhere/%2e.${target}`,
    `/nowhere/%2e%2e%2f..${target}`,
    `/nowhere%2f..${target}`,
    `/nowhere%2f%2e%2e${target}`,
    `/nowhere\\..${target}`,
    `/nowhere%5c..${target}`,
    // NUL, and NUL before a harmless extension.
    `${target}%00`,
    `${target}%00.js`,
    `${target}\u0000`,
    // Overlong UTF-8 for "." and "/".
    target.replace(/\.map$/, '%c0%aemap'),
    target.replace(/\.map$/, '%e0%80%aemap'),
    target.replace(/\/([^/]*)$/, '%c0%af$1'),
    `/nowhere/%c0%ae%c0%ae${target}`,
    // Trailing dots and spaces (Windows drops them), alternate streams.
    `${target}.`,
    `${target}..`,
    `${target}%20`,
    `${target}%20.`,
    `${target}.%20`,
    `${target}::$DATA`,
    `${target}%3a%3a$DATA`,
    // Path parameters, query strings and fragments.
    `${target};`,
    `${target};x=1`,
    `${target};.js`,
    `${target}%3b.js`,
    `${target}?`,
    `${target}?x=1`,
    `${target}?.js`,
    `${target}%3f.js`,
    `${target}#`,
    `${target}%23.js`,
    // Its compressed copies.
    `${target}.br`,
    `${target}.gz`,
    `${target}%2ebr`,
  ];
  return out;
}

describe('the app server decodes and normalises a path before it decides', () => {
  let base: string;
  let server: Awaited<ReturnType<typeof startAppServer>>;
  let port: number;

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'app-paths-'));
    const dist = path.join(base, 'dist');
    await mkdir(path.join(dist, 'assets'), { recursive: true });
    await writeFile(path.join(dist, 'index.html'), indexText);
    await writeFile(path.join(dist, 'assets', 'app-abc.js'), assetText);
    await writeFile(path.join(dist, 'assets', 'app-abc.js.map'), mapText);
    await writeFile(path.join(dist, 'assets', 'app-abc.js.map.br'), brotliCompressSync(mapText));
    await writeFile(path.join(dist, 'assets', 'app-abc.js.map.gz'), gzipSync(mapText));
    await writeFile(path.join(dist, 'top.map'), mapText);
    await writeFile(path.join(base, 'secret.txt'), outsideText);
    await writeFile(path.join(base, 'secret.js'), outsideText);
    await mkdir(path.join(base, 'outside'));
    await writeFile(path.join(base, 'outside', 'leak.js'), outsideText);
    // A link out of dist/ (an operator's copy, a careless deploy): what it points at stays outside.
    await symlink(path.join(base, 'outside'), path.join(dist, 'linked'));
    await symlink(path.join(base, 'secret.js'), path.join(dist, 'assets', 'linked.js'));
    server = await startAppServer({ distDir: dist, port: 0, config: { supabaseUrl: 'http://localhost:54321', supabaseAnonKey: 'k' }, serveSourceMaps: false });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server?.close();
    await rm(base, { recursive: true, force: true });
  });

  it('serves no source map and nothing outside dist/, however the path is spelled', async () => {
    const targets = ['/assets/app-abc.js.map', '/top.map', '/../secret.txt', '/assets/../../secret.js', '/linked/leak.js', '/assets/linked.js'];
    const spellings = [...new Set(targets.flatMap((t) => [...trickSpellings(t), ...percentSpellings(t)]))];
    expect(spellings.length).toBeGreaterThan(400);
    const leaks: string[] = [];
    for (const spelling of spellings) {
      for (const encoding of ['', 'Accept-Encoding: br, gzip\r\n']) {
        const reply = await rawGet(port, spelling, encoding);
        const text = reply.body.toString('latin1');
        // A marker in any answer is a leak; so is a 200 that is neither the app nor the asset (a compressed copy of a map).
        const leaked = markers.some((m) => text.includes(m)) || (reply.status === 200 && text !== indexText && text !== assetText);
        if (leaked) leaks.push(`${reply.status} ${JSON.stringify(spelling)}${encoding ? ' (br, gzip)' : ''}`);
      }
    }
    expect(leaks).toEqual([]);
  }, 60_000);

  it('still serves a real asset under every spelling that decodes to its own name, and deep links get the app', async () => {
    const target = '/assets/app-abc.js';
    const spellings = [target, `${target}?v=1`, `${target}?x=..%2f..%2fsecret.txt`, ...percentSpellings(target).filter((s) => !/%2f/i.test(s))];
    for (const spelling of spellings) {
      const reply = await rawGet(port, spelling);
      expect({ spelling, status: reply.status, body: reply.body.toString() }).toEqual({ spelling, status: 200, body: assetText });
    }
    for (const deepLink of ['/', '/month/2031-06', '/stores/11111111-1111-4111-8111-111111111111/settings']) {
      const reply = await rawGet(port, deepLink);
      expect({ deepLink, status: reply.status, body: reply.body.toString() }).toEqual({ deepLink, status: 200, body: indexText });
    }
  });

  it('answers malformed and double-encoded paths without serving anything and keeps serving', async () => {
    for (const target of ['/assets/%zz.js', '/assets/%', '/assets/%e0%80.js', '/%c0%ae%c0%ae/secret.txt', '/assets/app-abc.js%252emap']) {
      const reply = await rawGet(port, target);
      expect({ target, status: reply.status }).toMatchObject({ target, status: expect.any(Number) as number });
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(reply.status).toBeLessThan(500);
    }
    expect((await rawGet(port, '/assets/app-abc.js')).status).toBe(200);
  });

  it('answers only GET and HEAD; any other method gets 405 and names the two, whatever the path', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND']) {
      for (const target of ['/', '/daily', '/assets/app-abc.js', '/app-config.json', '/no-such-file.js']) {
        const response = await fetch(`http://127.0.0.1:${port}${target}`, { method, ...(method === 'POST' || method === 'PUT' ? { body: 'x' } : {}) });
        expect({ method, target, status: response.status, allow: response.headers.get('allow') }).toEqual({ method, target, status: 405, allow: 'GET, HEAD' });
        expect(await response.text()).not.toContain('<title>app</title>');
      }
    }
    // TRACE, which fetch will not send, as raw bytes.
    expect((await rawGet(port, '/', '', 'TRACE')).status).toBe(405);
    const head = await fetch(`http://127.0.0.1:${port}/assets/app-abc.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });
});
