import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chosenEncoding, startAppServer } from '../../../scripts/app-server.ts';
import { precompress } from '../../../scripts/precompress.ts';

/** One raw GET (no automatic decompression, unlike fetch): status, headers and body bytes. */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the app server sends the build compressed', () => {
  let dist: string;
  let server: Awaited<ReturnType<typeof startAppServer>>;
  // Text that compresses the way code does: repeated, but not one byte over and over.
  const script = Array.from({ length: 4000 }, (_, i) => `export const value${i} = ${i} * 2;`).join('\n');

  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), 'app-server-'));
    await mkdir(path.join(dist, 'assets'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>t</title>');
    await writeFile(path.join(dist, 'assets', 'index-abc123.js'), script);
    await precompress(dist);
    server = await startAppServer({ distDir: dist, port: 0, config: { supabaseUrl: 'http://localhost:54321', supabaseAnonKey: 'k' } });
  });
  afterAll(async () => {
    await server?.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('writes brotli and gzip copies of text files worth compressing, not of tiny ones', async () => {
    expect((await readdir(path.join(dist, 'assets'))).sort()).toEqual(['index-abc123.js', 'index-abc123.js.br', 'index-abc123.js.gz']);
    expect(await readdir(dist)).not.toContain('index.html.br');
  });

  it('sends brotli to a browser that takes it, smaller, and the same script once decoded', async () => {
    const reply = await rawGet(`${server.url}/assets/index-abc123.js`, { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBe('br');
    expect(reply.headers.vary).toBe('Accept-Encoding');
    expect(reply.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(reply.body.length).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(reply.body).toString()).toBe(script);
  });

  it('sends gzip where brotli is not accepted, and the file as it is where nothing is', async () => {
    const gz = await rawGet(`${server.url}/assets/index-abc123.js`, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);
    const refused = await rawGet(`${server.url}/assets/index-abc123.js`, { 'Accept-Encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.toString()).toBe(script);
    const plain = await rawGet(`${server.url}/assets/index-abc123.js`, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('sends a file replaced after the build as it is now, not its stale compressed copy', async () => {
    const replaced = `${script}\n// patched`;
    await writeFile(path.join(dist, 'assets', 'index-abc123.js'), replaced);
    const reply = await rawGet(`${server.url}/assets/index-abc123.js`, { 'Accept-Encoding': 'br, gzip' });
    expect(reply.headers['content-encoding']).toBeUndefined();
    expect(reply.body.toString()).toBe(replaced);
    await writeFile(path.join(dist, 'assets', 'index-abc123.js'), script);
    await precompress(dist);
  });

  it('reads Accept-Encoding as browsers write it', () => {
    expect(chosenEncoding('gzip, deflate, br')).toBe('br');
    expect(chosenEncoding('GZIP')).toBe('gzip');
    expect(chosenEncoding('br;q=0.0, gzip;q=0.5')).toBe('gzip');
    expect(chosenEncoding('identity')).toBeNull();
    expect(chosenEncoding(undefined)).toBeNull();
  });
});
