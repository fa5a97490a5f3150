/**
 * The admin-api edge function on Deno, as Supabase runs it, against the embedded
 * backend: type-checked by `deno check`, its module graph entirely inside
 * supabase/functions (what Supabase's deploy bundles), served by `deno run` with only the
 * permissions it needs, and called over HTTP for every action, by an admin and by others,
 * with bad payloads and a browser's CORS preflight. The embedded backend serves the same
 * file on Node; the answers must agree.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { DenoFunction } from '../../support/deno-function.ts';
import { denoCheck, denoEnvironment, denoModuleGraph, functionPaths, serveWithDeno } from '../../support/deno-function.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';

type Answer = { status: number; body: unknown; headers: Headers };

describe('the admin-api edge function on Deno', () => {
  let stack: TestStack;
  let served: DenoFunction;
  let denoEnv: Awaited<ReturnType<typeof denoEnvironment>>;
  const tokens: Record<string, string> = {};

  async function tokenOf(email: string, password?: string): Promise<string> {
    const client = await stack.signIn(email, password);
    const token = (await client.auth.getSession()).data.session?.access_token;
    if (!token) throw new Error(`no session for ${email}`);
    return token;
  }

  async function call(base: string, token: string | null, body: unknown, init: RequestInit = {}): Promise<Answer> {
    const response = await fetch(base, {
      method: 'POST',
      headers: {
        apikey: stack.keys.anonKey,
        'Content-Type': 'application/json',
        Origin: 'http://localhost:4173',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      ...init,
    });
    const text = await response.text();
    return { status: response.status, body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text, headers: response.headers };
  }
  /** Through Deno. */
  const viaDeno = (token: string | null, body: unknown, init?: RequestInit) => call(served.url, token, body, init);
  /** Through the embedded backend, which serves the same file on Node. */
  const viaBackend = (token: string | null, body: unknown) => call(`${stack.url}/functions/v1/admin-api`, token, body);
  const emails = async () =>
    (await stack.database.query<{ email: string }>('select email from auth.users order by email')).rows.map((row) => row.email);

  beforeAll(async () => {
    denoEnv = await denoEnvironment();
    stack = await startTestStack();
    served = await serveWithDeno('admin-api', {
      env: denoEnv.env,
      // What the embedded backend (and hosted Supabase) give the function.
      functionEnv: { SUPABASE_URL: stack.url, SUPABASE_SERVICE_ROLE_KEY: stack.keys.serviceRoleKey },
    });
    tokens.admin = await tokenOf('admin@example.com');
    tokens.manager = await tokenOf('manager@example.com');
  });
  afterAll(async () => {
    await served?.stop();
    await stack?.stop();
    await denoEnv?.dispose();
  });

  it('type-checks with deno check, from files inside supabase/functions alone', async () => {
    const checked = await denoCheck('admin-api', denoEnv.env);
    expect(checked, checked.stderr).toMatchObject({ code: 0 });
    const modules = await denoModuleGraph('admin-api', denoEnv.env);
    const inside = pathToFileURL(functionPaths('admin-api').functionsDir + path.sep).href;
    expect(modules.length).toBeGreaterThan(4);
    expect(modules.filter((specifier) => !specifier.startsWith(inside))).toEqual([]);
  });

  it('answers a browser preflight with the CORS headers, and every answer with its origin header', async () => {
    const preflight = await fetch(served.url, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:4173', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, apikey, content-type, x-client-info' },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').split(',').map((h) => h.trim().toLowerCase());
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'apikey', 'content-type', 'x-client-info']));
    for (const answer of [await viaDeno(tokens.admin ?? '', { action: 'listUsers' }), await viaDeno(null, { action: 'listUsers' })]) {
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(answer.headers.get('content-type')).toBe('application/json');
    }
  });

  it('lists users for an admin, with the fields the admin screen reads, as the backend does', async () => {
    const listed = await viaDeno(tokens.admin ?? '', { action: 'listUsers' });
    expect(listed.status).toBe(200);
    const users = (listed.body as { users: Array<Record<string, unknown>> }).users;
    expect(users.map((u) => u.email).sort()).toEqual(['admin@example.com', 'manager@example.com', 'other@example.com']);
    expect(users.find((u) => u.email === 'manager@example.com')).toMatchObject({
      id: demo.managerId,
      email_confirmed_at: expect.any(String),
      user_metadata: { store_id: demo.storeA, firstName: 'Morgan' },
      app_metadata: { store_id: demo.storeA },
    });
    expect(listed.body).toEqual((await viaBackend(tokens.admin ?? '', { action: 'listUsers' })).body);
  });

  it('creates a user who can sign in to the assigned store, moves them to another store, and deletes them', async () => {
    const created = await viaDeno(tokens.admin ?? '', {
      action: 'createUser',
      payload: { email: 'Deno.Advisor@Example.com', password: 'secret12', email_confirm: true, user_metadata: { firstName: 'Dee', store_id: demo.storeB, is_admin: false } },
    });
    expect(created.status).toBe(200);
    const user = (created.body as { user: { id: string; email: string; app_metadata: unknown; user_metadata: unknown } }).user;
    expect(user).toMatchObject({ email: 'deno.advisor@example.com', app_metadata: { store_id: demo.storeB, is_admin: false }, user_metadata: { firstName: 'Dee', store_id: demo.storeB } });
    const advisor = await stack.signIn('deno.advisor@example.com', 'secret12');
    expect((await advisor.from('stores').select('name')).data).toEqual([{ name: 'Northside Auto Service' }]);

    const moved = await viaDeno(tokens.admin ?? '', {
      action: 'updateUserById',
      payload: { id: user.id, attributes: { password: 'another12', user_metadata: { firstName: 'Dee', lastName: 'Lane', store_id: demo.storeA, is_admin: false } } },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ user: { id: user.id, app_metadata: { store_id: demo.storeA, lastName: 'Lane' } } });
    const again = await stack.signIn('deno.advisor@example.com', 'another12');
    expect((await again.from('stores').select('name')).data).toEqual([{ name: 'Demo Motors' }]);

    expect(await viaDeno(tokens.admin ?? '', { action: 'deleteUser', payload: { id: user.id } })).toMatchObject({ status: 200, body: { success: true } });
    expect(await emails()).not.toContain('deno.advisor@example.com');
  });

  it('refuses bad payloads with the message the screen shows, changing nothing, as the backend does', async () => {
    const before = await emails();
    const cases: Array<[unknown, number, string]> = [
      ['{"action": "listUsers"', 400, 'The request body must be JSON: {"action": ..., "payload": ...}.'],
      ['null', 400, 'The request body must be JSON: {"action": ..., "payload": ...}.'],
      [{ action: 'dropEverything' }, 400, 'Unknown action: dropEverything'],
      [{ action: 42 }, 400, 'Unknown action: number'],
      [{ action: 'createUser' }, 400, 'The request needs a payload.'],
      [{ action: 'createUser', payload: { email: 'not-an-email', password: 'secret12' } }, 400, 'A valid e-mail address is required.'],
      [{ action: 'createUser', payload: { email: 'x@example.com', password: '12345' } }, 400, 'Password must be at least 6 characters.'],
      [{ action: 'createUser', payload: { email: 'x@example.com', password: 'password1' } }, 400, 'This password is one of the first an attacker would try: choose another.'],
      [{ action: 'createUser', payload: { email: 'manager\u200B@example.com', password: 'secret12' } }, 400, 'The e-mail address contains invisible characters.'],
      [{ action: 'createUser', payload: { email: 'manager@example.com', password: 'secret12' } }, 422, 'A user with this email address has already been registered'],
      [{ action: 'createUser', payload: { email: 'x@example.com', password: 'secret12', user_metadata: { store_id: '99999999-9999-4999-8999-999999999999' } } }, 400, 'The selected store does not exist.'],
      [{ action: 'createUser', payload: { email: 'x@example.com', password: 'secret12', user_metadata: { is_admin: 'yes' } } }, 400, 'The admin flag must be true or false.'],
      [{ action: 'updateUserById', payload: { id: 'not-a-uuid', attributes: {} } }, 400, 'A valid user id is required.'],
      [{ action: 'updateUserById', payload: { id: demo.managerId, attributes: { email: 'new@example.com' } } }, 400, 'The e-mail address cannot be changed.'],
      [{ action: 'updateUserById', payload: { id: demo.adminId, attributes: { user_metadata: { is_admin: false } } } }, 400, 'You cannot remove your own admin access.'],
      [{ action: 'deleteUser', payload: {} }, 400, 'A valid user id is required.'],
      [{ action: 'deleteUser', payload: { id: demo.adminId } }, 400, 'You cannot delete your own account.'],
    ];
    for (const [body, status, message] of cases) {
      const answer = await viaDeno(tokens.admin ?? '', body);
      expect({ status: answer.status, body: answer.body }, JSON.stringify(body)).toEqual({ status, body: { error: message } });
      const backend = await viaBackend(tokens.admin ?? '', body);
      expect({ status: backend.status, body: backend.body }, `the backend, ${JSON.stringify(body)}`).toEqual({ status, body: { error: message } });
    }
    expect(await viaDeno(tokens.admin ?? '', 'x'.repeat(70 * 1024))).toMatchObject({ status: 413, body: { error: 'The request is too large.' } });
    expect(await viaDeno(tokens.admin ?? '', null, { method: 'GET', body: undefined })).toMatchObject({ status: 405, body: { error: 'Use POST.' } });
    expect(await emails()).toEqual(before);
  });

  it('refuses every action to a member who is not an admin, even one who wrote is_admin into their own user_metadata', async () => {
    const manager = await stack.signIn('manager@example.com');
    await manager.auth.updateUser({ data: { is_admin: true } });
    await manager.auth.refreshSession();
    const selfPromoted = (await manager.auth.getSession()).data.session?.access_token ?? '';
    const before = await emails();
    for (const token of [tokens.manager ?? '', selfPromoted]) {
      for (const body of [
        { action: 'listUsers' },
        { action: 'createUser', payload: { email: 'sneaky@example.com', password: 'secret12', user_metadata: { is_admin: true } } },
        { action: 'updateUserById', payload: { id: demo.managerId, attributes: { user_metadata: { is_admin: true, store_id: demo.storeA } } } },
        { action: 'deleteUser', payload: { id: demo.otherId } },
      ]) {
        const answer = await viaDeno(token, body);
        expect({ status: answer.status, body: answer.body }, body.action).toEqual({ status: 403, body: { error: 'Unauthorized: Admin access required' } });
      }
    }
    expect(await emails()).toEqual(before);
    const { rows } = await stack.database.query<{ admin: string | null }>(`select raw_app_meta_data ->> 'is_admin' as admin from auth.users where id = $1`, [demo.managerId]);
    expect(rows[0]?.admin).not.toBe('true');
  });

  it('refuses a caller without a session, or with a token that is not one: "Not authenticated"', async () => {
    for (const token of [null, 'not-a-token', `${tokens.admin ?? ''}x`, stack.keys.anonKey]) {
      const answer = await viaDeno(token, { action: 'listUsers' });
      expect({ status: answer.status, body: answer.body }, String(token)).toEqual({ status: 401, body: { error: 'Not authenticated' } });
    }
  });

  it('keeps serving after all of that, with only the permissions it was given', async () => {
    expect((await viaDeno(tokens.admin ?? '', { action: 'listUsers' })).status).toBe(200);
    expect(served.output()).not.toMatch(/PermissionDenied|Requires (net|env|read) access/i);
  });
});
