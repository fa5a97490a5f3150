import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../../supabase/local/jwt.ts';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';

describe('Auth through supabase-js', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.stop());

  it('signs in with the right password and issues the claims hosted Auth puts in a token', async () => {
    const client = stack.anon();
    const { data, error } = await client.auth.signInWithPassword({ email: 'admin@example.com', password: demo.password });
    expect(error).toBeNull();
    expect(data.session).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    const claims = JSON.parse(Buffer.from(data.session?.access_token.split('.')[1] ?? '', 'base64url').toString());
    expect(claims).toMatchObject({
      sub: demo.adminId,
      role: 'authenticated',
      aud: 'authenticated',
      email: 'admin@example.com',
      aal: 'aal1',
      app_metadata: { store_id: demo.storeA, is_admin: true },
      user_metadata: { firstName: 'Alex' },
      session_id: expect.any(String),
      amr: [{ method: 'password', timestamp: expect.any(Number) }],
    });
  });

  it('refuses a wrong password with invalid_credentials and the hosted message', async () => {
    const { data, error } = await stack.anon().auth.signInWithPassword({ email: 'manager@example.com', password: 'wrong-one' });
    expect(data.session).toBeNull();
    expect(error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' });
  });

  it('rotates refresh tokens: each refresh issues a new one in the same session', async () => {
    const client = await stack.signIn('manager@example.com');
    const first = (await client.auth.getSession()).data.session;
    const { data, error } = await client.auth.refreshSession();
    expect(error).toBeNull();
    expect(data.session?.refresh_token).toBeTruthy();
    expect(data.session?.refresh_token).not.toBe(first?.refresh_token);
    const claims = (token = '') => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { session_id: string };
    expect(claims(data.session?.access_token).session_id).toBe(claims(first?.access_token).session_id);
  });

  it('answers REST with 401 PGRST303 for an expired token and 401 PGRST301 for a tampered one', async () => {
    const expired = await signJwt(
      { sub: demo.managerId, role: 'authenticated', aud: 'authenticated', exp: Math.floor(Date.now() / 1000) - 10 },
      stack.keys.jwtSecret,
    );
    const headers = (token: string) => ({ apikey: stack.keys.anonKey, Authorization: `Bearer ${token}` });
    const late = await fetch(`${stack.url}/rest/v1/stores?select=name`, { headers: headers(expired) });
    expect(late.status).toBe(401);
    expect(late.headers.get('www-authenticate')).toContain('invalid_token');
    expect(await late.json()).toMatchObject({ code: 'PGRST303', message: 'JWT expired' });

    const valid = await signJwt({ sub: demo.managerId, role: 'authenticated', exp: 4102444800 }, stack.keys.jwtSecret);
    const [head, , sig] = valid.split('.');
    const forgedBody = Buffer.from(JSON.stringify({ sub: demo.managerId, role: 'service_role', exp: 4102444800 })).toString('base64url');
    const tampered = await fetch(`${stack.url}/rest/v1/stores?select=name`, { headers: headers(`${head}.${forgedBody}.${sig}`) });
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toMatchObject({ code: 'PGRST301' });
  });

  it('reads and updates the signed-in user; user_metadata merges and grants nothing', async () => {
    const client = await stack.signIn('manager@example.com');
    const { data, error } = await client.auth.updateUser({ data: { displayName: 'Mo', is_admin: true, store_id: demo.storeB } });
    expect(error).toBeNull();
    expect(data.user?.user_metadata).toMatchObject({ displayName: 'Mo', firstName: 'Morgan', is_admin: true });
    expect(data.user?.app_metadata).toMatchObject({ store_id: demo.storeA, is_admin: false });
    await client.auth.refreshSession();
    expect(await client.rpc('is_user_admin')).toMatchObject({ data: false });
    expect(await client.rpc('get_user_store_id')).toMatchObject({ data: demo.storeA });
  });

  it('ends the session on sign-out, after which the old access token no longer reads the user', async () => {
    const client = await stack.signIn('admin@example.com');
    const token = (await client.auth.getSession()).data.session?.access_token ?? '';
    await client.auth.signOut();
    const { error } = await stack.anon().auth.getUser(token);
    expect(error?.name).toBe('AuthSessionMissingError');
  });

  it('keeps sign-up off: admins create users', async () => {
    const { error } = await stack.anon().auth.signUp({ email: 'walk-in@example.com', password: 'secret12' });
    expect(error).toMatchObject({ status: 422, code: 'signup_disabled' });
  });

  it('manages users through the admin API with the service role only', async () => {
    const admin = stack.service().auth.admin;
    const listed = await admin.listUsers();
    expect(listed.data.users.map((u) => u.email).sort()).toEqual(['admin@example.com', 'manager@example.com', 'other@example.com']);

    const created = await admin.createUser({
      email: 'tech@example.com',
      password: 'secret12',
      email_confirm: true,
      app_metadata: { store_id: demo.storeB },
      user_metadata: { firstName: 'Tess' },
    });
    expect(created.error).toBeNull();
    const id = created.data.user?.id ?? '';
    expect(await admin.createUser({ email: 'tech@example.com', password: 'secret12' })).toMatchObject({
      error: { status: 422, code: 'email_exists' },
    });
    expect(await admin.createUser({ email: 'short@example.com', password: '123' })).toMatchObject({
      error: { status: 422, code: 'weak_password' },
    });

    const updated = await admin.updateUserById(id, { app_metadata: { is_admin: true }, user_metadata: { firstName: null } });
    expect(updated.data.user?.app_metadata).toMatchObject({ store_id: demo.storeB, is_admin: true, provider: 'email' });
    expect(updated.data.user?.user_metadata).toEqual({});

    const tech = await stack.signIn('tech@example.com', 'secret12');
    expect(await tech.rpc('get_user_store_id')).toMatchObject({ data: demo.storeB });
    expect((await admin.deleteUser(id)).error).toBeNull();
    expect((await stack.anon().auth.signInWithPassword({ email: 'tech@example.com', password: 'secret12' })).error).toMatchObject({
      code: 'invalid_credentials',
    });

    const manager = await stack.signIn('manager@example.com');
    const refused = await fetch(`${stack.url}/auth/v1/admin/users`, {
      headers: { apikey: stack.keys.anonKey, Authorization: `Bearer ${(await manager.auth.getSession()).data.session?.access_token}` },
    });
    expect(refused.status).toBe(403);
  });

  it('serves an empty key set for HS256 projects', async () => {
    const response = await fetch(`${stack.url}/auth/v1/.well-known/jwks.json`);
    expect(await response.json()).toEqual({ keys: [] });
  });
});

describe('Auth with sign-up enabled', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ allowSignup: true });
  });
  afterAll(() => stack?.stop());

  it('creates the account with no store and no admin flag, whatever the sign-up sent', async () => {
    const client = stack.anon();
    const { data, error } = await client.auth.signUp({
      email: 'walk-in@example.com',
      password: 'secret12',
      options: { data: { firstName: 'Wal', is_admin: true, store_id: demo.storeA } },
    });
    expect(error).toBeNull();
    expect(data.session?.user.app_metadata).toEqual({ provider: 'email', providers: ['email'] });
    expect(await client.rpc('get_user_store_id')).toMatchObject({ data: null });
    expect(await client.from('stores').select('name')).toMatchObject({ data: [] });
  });
});
