/**
 * The gateway's API key, as a hosted project asks for it: every request to Auth, the REST
 * API and Realtime names one of the project's keys (header or `apikey` query parameter)
 * whatever session token it also carries; a missing or unknown key is refused with 401
 * before any service sees the request. Auth's e-mail link and its public keys need none,
 * nor does a browser's CORS preflight.
 */
import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';

const noKey = { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' };
const badKey = { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' };

/** How a websocket upgrade was answered: 101 when it opened, else the refusal's status. */
function upgradeStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      socket.terminate();
    });
    socket.once('error', reject);
  });
}

describe('the API key every request names', () => {
  let stack: TestStack;
  let session: string;

  beforeAll(async () => {
    stack = await startTestStack();
    const manager = await stack.signIn('manager@example.com');
    session = (await manager.auth.getSession()).data.session?.access_token ?? '';
  });
  afterAll(() => stack?.stop());

  const call = async (path: string, headers: Record<string, string>, init: RequestInit = {}) => {
    const response = await fetch(`${stack.url}${path}`, { ...init, headers });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
  };

  it('refuses a signed-in request without a key, or with a key of no project, on the REST API and Auth', async () => {
    const bearer = { Authorization: `Bearer ${session}` };
    for (const path of ['/rest/v1/stores?select=name', '/auth/v1/user', '/auth/v1/settings']) {
      expect(await call(path, bearer), path).toEqual({ status: 401, body: noKey });
      expect(await call(path, { ...bearer, apikey: '' }), path).toEqual({ status: 401, body: noKey });
      expect(await call(path, { ...bearer, apikey: 'xyz' }), path).toEqual({ status: 401, body: badKey });
      // A key this project never issued, though a well-formed one (of the right secret's shape).
      expect(await call(path, { ...bearer, apikey: session }), path).toEqual({ status: 401, body: badKey });
    }
    const write = await call('/rest/v1/rpc/push_changes', { ...bearer, 'content-type': 'application/json' }, { method: 'POST', body: '{"changes":[]}' });
    expect(write).toEqual({ status: 401, body: noKey });
  });

  it('takes the key from the header or the query, and the key alone acts as its role', async () => {
    const anonKey = stack.keys.anonKey;
    const asManager = await call(`/rest/v1/stores?select=name&apikey=${anonKey}`, { Authorization: `Bearer ${session}` });
    expect(asManager.status).toBe(200);
    expect((asManager.body as unknown[]).length).toBeGreaterThan(0);
    // The anon key alone acts as anon, which may not read stores at all; the service key
    // alone, as the service role, which reads every store.
    expect(await call(`/rest/v1/stores?select=name&apikey=${anonKey}`, {})).toMatchObject({ status: 401, body: { code: '42501', message: 'permission denied for table stores' } });
    const asService = await call('/rest/v1/stores?select=name', { apikey: stack.keys.serviceRoleKey });
    const { rows } = await stack.database.query<{ n: number }>('select count(*)::int as n from public.stores');
    expect((asService.body as unknown[]).length).toBe(rows[0]?.n);
  });

  it('lets through what a browser sends without one: the preflight, the e-mail link, the public signing keys', async () => {
    const preflight = await fetch(`${stack.url}/rest/v1/stores`, { method: 'OPTIONS', headers: { Origin: 'http://localhost:4173', 'Access-Control-Request-Method': 'GET' } });
    expect(preflight.status).toBe(204);
    const link = await fetch(`${stack.url}/auth/v1/verify?token=unknown&type=recovery`, { redirect: 'manual' });
    expect(link.status).toBe(303);
    expect((await call('/auth/v1/.well-known/jwks.json', {})).status).toBe(200);
  });

  it('refuses a realtime websocket without a key or with an unknown one, and opens one with the key', async () => {
    const base = `${stack.url.replace('http', 'ws')}/realtime/v1/websocket?vsn=2.0.0`;
    expect(await upgradeStatus(base)).toBe(401);
    expect(await upgradeStatus(`${base}&apikey=xyz`)).toBe(401);
    expect(await upgradeStatus(`${base}&apikey=${stack.keys.anonKey}`)).toBe(101);
  });

  it('gives supabase-js made with a wrong key the gateway\'s message, and no data', async () => {
    const wrong = createClient(stack.url, 'not-this-project', {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    });
    const { data, error } = await wrong.from('stores').select('name');
    expect(data).toBeNull();
    expect(error?.message).toBe('Invalid API key');
    const signIn = await wrong.auth.signInWithPassword({ email: 'manager@example.com', password: 'irrelevant' });
    expect(signIn.error?.status).toBe(401);
    expect(signIn.error?.message).toBe('Invalid API key');
  });
});
