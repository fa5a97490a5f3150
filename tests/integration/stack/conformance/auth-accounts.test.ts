import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../../support/demo.ts';
import { engines } from '../../../support/test-databases.ts';
import { hs256 } from '../hostile/tokens.ts';
import type { ConformanceStack } from './conformance-stack.ts';
import { startConformanceStack } from './conformance-stack.ts';

// GoTrue's answers about accounts (signup.go, mail.go validateEmail, pagination.go,
// auth.go requireAdmin): duplicate sign-up, e-mail format, identities, list pages, and
// tokens of role supabase_admin where GoTrue and PostgREST accept them.
for (const engine of engines) {
  describe(`GoTrue accounts on ${engine}`, () => {
    let stack: ConformanceStack;
    let admin: SupabaseClient;
    const auth = (path: string, token: string, init: RequestInit = {}) =>
      fetch(`${stack.url}/auth/v1/${path}`, { ...init, headers: { apikey: stack.keys.anonKey, Authorization: `Bearer ${token}`, 'X-Supabase-Api-Version': '2024-01-01', ...init.headers } });

    beforeAll(async () => {
      stack = await startConformanceStack(engine, { allowSignup: true });
      admin = stack.service();
    });
    afterAll(() => stack?.stop());

    it('answers a sign-up with a taken address "User already registered" (422 user_already_exists)', async () => {
      const { error } = await stack.anon().auth.signUp({ email: 'manager@example.com', password: 'a-fine-password-1' });
      expect(error).toMatchObject({ status: 422, code: 'user_already_exists', message: 'User already registered' });
      const fresh = await stack.anon().auth.signUp({ email: 'fresh@example.com', password: 'a-fine-password-1' });
      expect(fresh.error).toBeNull();
      expect(fresh.data.user?.identities?.map((i) => i.provider)).toEqual(['email']);
    });

    it('validates addresses as GoTrue does', async () => {
      for (const email of ['xx:;x@x.x', 'name@exa_mple.com', 'ünïcode@example.com', 'two@@example.com']) {
        const { error } = await admin.auth.admin.createUser({ email, password: 'a-fine-password-1' });
        expect(error, email).toMatchObject({ status: 400, code: 'validation_failed', message: 'Unable to validate email address: invalid format' });
      }
      const missing = await stack.anon().auth.resetPasswordForEmail('');
      expect(missing.error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Password recovery requires an email' });
      const created = await admin.auth.admin.createUser({ email: "o'neil+tag@example.com", password: 'a-fine-password-1' });
      expect(created.error).toBeNull();
    });

    it('shows each e-mail user its identity, so getUserIdentities works', async () => {
      const client = await stack.signIn('manager@example.com');
      const { data, error } = await client.auth.getUserIdentities();
      expect(error).toBeNull();
      expect(data?.identities).toMatchObject([{ provider: 'email', user_id: demo.managerId, id: demo.managerId, identity_data: { email: 'manager@example.com' } }]);
    });

    it('validates list pages as GoTrue does, and links the next and last pages', async () => {
      const negative = await admin.auth.admin.listUsers({ page: -1, perPage: 10 });
      expect(negative.error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Bad Pagination Parameters: strconv.ParseUint: parsing "-1": invalid syntax' });
      const words = await auth('admin/users?per_page=ten', stack.keys.serviceRoleKey);
      expect(words.status).toBe(400);
      const [{ n } = { n: 0 }] = await stack.sql<{ n: number }>('select count(*)::int as n from auth.users where deleted_at is null');
      const page = await auth('admin/users?page=1&per_page=2', stack.keys.serviceRoleKey);
      expect(page.headers.get('x-total-count')).toBe(String(n));
      expect(page.headers.get('link')).toBe(`</admin/users?page=2&per_page=2>; rel="next", </admin/users?page=${Math.ceil(n / 2)}&per_page=2>; rel="last"`);
      const listed = await admin.auth.admin.listUsers({ page: 1, perPage: 2 });
      expect(listed.data.users).toHaveLength(2);
      // Newest first, GoTrue's default order.
      const [newest] = await stack.sql<{ email: string }>('select email from auth.users order by created_at desc, id limit 1');
      expect(listed.data.users[0]?.email).toBe(newest?.email);
    });

    it('accepts a token of role supabase_admin for the admin API and the REST API, and still no database role', async () => {
      const now = Math.floor(Date.now() / 1000);
      const supabaseAdmin = hs256({ role: 'supabase_admin', iss: 'supabase', exp: now + 600 }, stack.keys.jwtSecret);
      const users = await auth('admin/users?per_page=1', supabaseAdmin);
      expect(users.status).toBe(200);
      const rest = await fetch(`${stack.url}/rest/v1/stores?select=name&order=name`, { headers: { apikey: stack.keys.anonKey, Authorization: `Bearer ${supabaseAdmin}` } });
      expect(await rest.json()).toEqual([{ name: 'Demo Motors' }, { name: 'Northside Auto Service' }]);
      const postgres = hs256({ role: 'postgres', exp: now + 600 }, stack.keys.jwtSecret);
      expect((await fetch(`${stack.url}/rest/v1/stores`, { headers: { apikey: stack.keys.anonKey, Authorization: `Bearer ${postgres}` } })).status).toBe(401);
      expect((await auth('admin/users', postgres)).status).toBe(403);
    });
  });
}
