import type { SupabaseClient } from '@supabase/supabase-js';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';

async function errorBody(error: unknown): Promise<{ status: number; body: unknown }> {
  if (!(error instanceof FunctionsHttpError)) throw new Error(`expected an HTTP error, got ${String(error)}`);
  const response = error.context as Response;
  return { status: response.status, body: await response.json() };
}

describe('the admin-api edge function on the embedded stack', () => {
  let stack: TestStack;
  let admin: SupabaseClient;
  const invoke = (client: SupabaseClient, action: string, payload?: unknown) =>
    client.functions.invoke('admin-api', { body: { action, payload } });

  beforeAll(async () => {
    stack = await startTestStack();
    admin = await stack.signIn('admin@example.com');
  });
  afterAll(() => stack?.stop());

  it('lists users for an admin, with the fields the admin screen reads', async () => {
    const { data, error } = await invoke(admin, 'listUsers');
    expect(error).toBeNull();
    const users = (data as { users: Array<Record<string, unknown>> }).users;
    expect(users.map((u) => u.email).sort()).toEqual(['admin@example.com', 'manager@example.com', 'other@example.com']);
    expect(users.find((u) => u.email === 'manager@example.com')).toMatchObject({
      id: demo.managerId,
      email_confirmed_at: expect.any(String),
      user_metadata: { store_id: demo.storeA, firstName: 'Morgan' },
    });
  });

  it('creates a user who can then sign in and work in the assigned store, edits and deletes them', async () => {
    const created = await invoke(admin, 'createUser', {
      email: 'new.advisor@example.com',
      password: 'secret12',
      email_confirm: true,
      user_metadata: { firstName: 'Nia', lastName: '', store_id: demo.storeB, is_admin: false },
    });
    expect(created.error).toBeNull();
    const user = (created.data as { user: { id: string; app_metadata: unknown; user_metadata: unknown } }).user;
    expect(user.app_metadata).toMatchObject({ store_id: demo.storeB, is_admin: false });
    expect(user.user_metadata).toMatchObject({ firstName: 'Nia', lastName: null, store_id: demo.storeB });

    const advisor = await stack.signIn('new.advisor@example.com', 'secret12');
    expect((await advisor.from('stores').select('name')).data).toEqual([{ name: 'Northside Auto Service' }]);

    const moved = await invoke(admin, 'updateUserById', {
      id: user.id,
      attributes: { user_metadata: { firstName: 'Nia', store_id: demo.storeA, is_admin: false } },
    });
    expect(moved.error).toBeNull();
    expect((await advisor.from('stores').select('name')).data).toEqual([{ name: 'Demo Motors' }]);

    expect((await invoke(admin, 'deleteUser', { id: user.id })).error).toBeNull();
    const gone = await stack.anon().auth.signInWithPassword({ email: 'new.advisor@example.com', password: 'secret12' });
    expect(gone.error?.code).toBe('invalid_credentials');
  });

  it('refuses bad payloads with a message the screen can show, changing nothing', async () => {
    const users = async () => ((await invoke(admin, 'listUsers')).data as { users: unknown[] }).users.length;
    const before = await users();
    for (const [payload, message] of [
      [{ email: 'not-an-email', password: 'secret12' }, 'A valid e-mail address is required.'],
      [{ email: 'x@example.com', password: '12345' }, 'Password must be at least 6 characters.'],
      [{ email: 'x@example.com', password: 'password1' }, 'This password is one of the first an attacker would try: choose another.'],
      [{ email: 'manager\u200B@example.com', password: 'secret12' }, 'The e-mail address contains invisible characters.'],
      [{ email: 'x@example.com', password: 'secret12', user_metadata: { store_id: '99999999-9999-4999-8999-999999999999' } }, 'The selected store does not exist.'],
    ] as const) {
      const { error } = await invoke(admin, 'createUser', payload);
      expect(await errorBody(error)).toEqual({ status: 400, body: { error: message } });
    }
    const self = await invoke(admin, 'deleteUser', { id: demo.adminId });
    expect(await errorBody(self.error)).toEqual({ status: 400, body: { error: 'You cannot delete your own account.' } });
    expect(await users()).toBe(before);
  });

  it('refuses a non-admin, even one who wrote is_admin into their own user_metadata', async () => {
    const manager = await stack.signIn('manager@example.com');
    await manager.auth.updateUser({ data: { is_admin: true } });
    await manager.auth.refreshSession();
    const { error } = await invoke(manager, 'listUsers');
    expect(await errorBody(error)).toEqual({ status: 403, body: { error: 'Unauthorized: Admin access required' } });
  });

  it('refuses a caller with no session: "Not authenticated"', async () => {
    const response = await fetch(`${stack.url}/functions/v1/admin-api`, {
      method: 'POST',
      headers: { apikey: stack.keys.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'listUsers' }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'Not authenticated' });
  });

  it('answers a browser on another origin with one Access-Control-Allow-Origin value', async () => {
    const token = (await admin.auth.getSession()).data.session?.access_token;
    const response = await fetch(`${stack.url}/functions/v1/admin-api`, {
      method: 'POST',
      headers: { apikey: stack.keys.anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Origin: 'http://localhost:4173' },
      body: JSON.stringify({ action: 'listUsers' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});
