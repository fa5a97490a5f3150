import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';

// The backend compresses its larger JSON replies for a client that asks for it, as a hosted
// project's gateway does: the raw bytes on the wire are read here with node:http, which
// neither asks for nor undoes compression by itself.

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

describe('compressed replies', () => {
  let stack: TestStack;
  let token: string;

  beforeAll(async () => {
    stack = await startTestStack();
    const manager = await stack.signIn('manager@example.com');
    token = (await manager.auth.getSession()).data.session?.access_token ?? '';
    expect(token).not.toBe('');
  });
  afterAll(() => stack?.stop());

  function raw(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
    return new Promise((resolve, reject) => {
      const sent = request(`${stack.url}${path}`, { method, headers: { apikey: stack.keys.anonKey, authorization: `Bearer ${token}`, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      sent.on('error', reject);
      sent.end();
    });
  }

  const monthOfRows = '/rest/v1/daily_inputs?select=entry_date,row_identifier,metric_type,value&order=entry_date,row_identifier,metric_type&limit=300';

  it('sends a large JSON reply gzip-compressed to a client that takes gzip, and the same rows', async () => {
    const plain = await raw(monthOfRows);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const rows = JSON.parse(plain.body.toString('utf8')) as unknown[];
    expect(rows).toHaveLength(300);

    const compressed = await raw(monthOfRows, { 'accept-encoding': 'gzip, deflate, br' });
    expect(compressed.status).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(String(compressed.headers.vary)).toMatch(/Accept-Encoding/i);
    expect(compressed.body.length).toBeLessThan(plain.body.length / 4);
    expect(JSON.parse(gunzipSync(compressed.body).toString('utf8'))).toEqual(rows);
    // Content-Range still counts rows, not bytes.
    expect(compressed.headers['content-range']).toBe(plain.headers['content-range']);
  });

  it.each([
    ['no Accept-Encoding', {}],
    ['gzip refused with q=0', { 'accept-encoding': 'gzip;q=0, identity' }],
    ['only codings it does not send', { 'accept-encoding': 'br, deflate' }],
    ['everything but gzip refused', { 'accept-encoding': '*;q=0' }],
  ])('sends it as it is for %s', async (_name, headers) => {
    const reply = await raw(monthOfRows, headers);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(reply.body.toString('utf8'))).toHaveLength(300);
  });

  it('compresses for "*", and leaves small replies and HEAD as they are', async () => {
    expect((await raw(monthOfRows, { 'accept-encoding': '*' })).headers['content-encoding']).toBe('gzip');
    const small = await raw('/rest/v1/daily_inputs?select=id&limit=1', { 'accept-encoding': 'gzip' });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8'))).toHaveLength(1);
    const head = await raw(monthOfRows, { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBeUndefined();
    expect(head.body.length).toBe(0);
  });

  it('keeps a refusal\'s status and code, compressed or not', async () => {
    const refused = await raw('/rest/v1/no_such_table?select=*', { 'accept-encoding': 'gzip' });
    expect(refused.status).toBe(404);
    const body = refused.headers['content-encoding'] === 'gzip' ? gunzipSync(refused.body) : refused.body;
    expect((JSON.parse(body.toString('utf8')) as { code: string }).code).toBe('PGRST205');
  });
});
