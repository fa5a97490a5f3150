/**
 * The powers that can change everything need the second factor, enforced by the server:
 * an admin who has an authenticator app, signed in with the password alone (aal1), is
 * refused by the admin function (managing and changing users, removing authenticators,
 * the group's security setting)
 * and by the database (reopening a month, the store comparison, another store's change
 * history, changing stores) with a message saying what to do; the same admin at aal2 is served.
 * With the group's setting on, an admin without any authenticator is refused until they
 * enrol one. Ordinary work needs no second factor.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import type { Enrolled } from '../../support/mfa.ts';
import { enrolAndVerify, sessionClaims } from '../../support/mfa.ts';
import { engines } from '../../support/test-databases.ts';

type FunctionAnswer = { status: number; body: Record<string, unknown> };

async function invoke(client: SupabaseClient, action: string, payload?: unknown): Promise<FunctionAnswer> {
  const { data, error } = await client.functions.invoke('admin-api', { body: { action, payload } });
  if (!error) return { status: 200, body: data as Record<string, unknown> };
  if (!(error instanceof FunctionsHttpError)) throw error;
  const response = error.context as Response;
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const verifyRefusal = {
  status: 403,
  body: { code: 'insufficient_aal', error: 'Managing users needs the code from your authenticator app: this session was signed in with the password alone.' },
};
const dbRefusal = (action: string) => ({
  code: '42501',
  details: 'insufficient_aal',
  message: `${action} needs the code from your authenticator app: this session was signed in with the password alone.`,
});

for (const engine of engines) {
  describe(`the second factor for admin powers, on ${engine}`, () => {
    let stack: TestStack;
    /** The demo admin after verifying an authenticator (aal2), and signed in again with the password alone (aal1). */
    let strong: SupabaseClient;
    let weak: SupabaseClient;
    let factor: Enrolled;
    let manager: SupabaseClient;

    beforeAll(async () => {
      stack = await startTestStack({ engine });
      strong = await stack.signIn('admin@example.com');
      factor = await enrolAndVerify(strong, 'Admin phone');
      weak = await stack.signIn('admin@example.com');
      manager = await stack.signIn('manager@example.com');
      expect(await sessionClaims(strong)).toMatchObject({ aal: 'aal2' });
      expect(await sessionClaims(weak)).toMatchObject({ aal: 'aal1' });
    });
    afterAll(() => stack?.stop());

    it('the admin function refuses every action at aal1 with a message, and serves the aal2 session', async () => {
      expect(await invoke(weak, 'listUsers')).toMatchObject(verifyRefusal);
      const change = { id: demo.managerId, attributes: { user_metadata: { firstName: 'Changed', store_id: demo.storeB, is_admin: true } } };
      expect(await invoke(weak, 'updateUserById', change)).toMatchObject(verifyRefusal);
      expect(await invoke(weak, 'createUser', { email: 'sneaky@example.com', password: 'secret12', user_metadata: { is_admin: true } })).toMatchObject(verifyRefusal);
      expect(await invoke(weak, 'deleteUserFactors', { id: demo.adminId })).toMatchObject(verifyRefusal);
      const unchanged = await stack.service().auth.admin.getUserById(demo.managerId);
      expect(unchanged.data.user?.app_metadata).toMatchObject({ store_id: demo.storeA, is_admin: false });
      expect((await stack.service().auth.admin.listUsers()).data.users.map((u) => u.email)).not.toContain('sneaky@example.com');

      const listed = await invoke(strong, 'listUsers');
      expect(listed.status).toBe(200);
      const users = listed.body.users as Array<{ email: string; factors: Array<Record<string, unknown>> }>;
      expect(users.find((u) => u.email === 'admin@example.com')?.factors).toEqual([
        { id: factor.factorId, friendly_name: 'Admin phone', factor_type: 'totp', status: 'verified', created_at: expect.any(String) },
      ]);
      expect(users.find((u) => u.email === 'manager@example.com')?.factors).toEqual([]);
      expect(JSON.stringify(listed.body)).not.toContain(factor.secret);
      const moved = await invoke(strong, 'updateUserById', { id: demo.managerId, attributes: { user_metadata: { firstName: 'Morgan', lastName: 'Manager', store_id: demo.storeA, is_admin: false } } });
      expect(moved.status).toBe(200);
    });

    it('reopening a closed month needs aal2, on every write path', async () => {
      expect((await manager.from('month_closures').insert({ store_id: demo.storeA, month_start: '2031-06-01', year: 2031 })).error).toBeNull();
      const reopen = (client: SupabaseClient) => client.from('month_closures').update({ closed: false }).eq('store_id', demo.storeA).eq('month_start', '2031-06-01');
      expect((await reopen(weak)).error).toMatchObject(dbRefusal('Reopening a month'));
      const pushed = await weak.rpc('push_changes_reported', { p_table: 'month_closures', p_rows: [{ store_id: demo.storeA, month_start: '2031-06-01', year: 2031, closed: false }] });
      expect(pushed.error).toMatchObject(dbRefusal('Reopening a month'));
      const retired = await weak.from('month_closures').update({ deleted_at: new Date().toISOString() }).eq('month_start', '2031-06-01');
      expect(retired.error).toMatchObject({ code: '42501', details: 'insufficient_aal' });
      expect((await manager.from('month_closures').select('closed, deleted_at').eq('month_start', '2031-06-01')).data).toEqual([{ closed: true, deleted_at: null }]);

      expect((await reopen(strong)).error).toBeNull();
      expect((await manager.from('month_closures').select('closed, reopened_by').eq('month_start', '2031-06-01')).data).toEqual([{ closed: false, reopened_by: demo.adminId }]);
      // Closing needs no second factor.
      expect((await weak.from('month_closures').update({ closed: true }).eq('month_start', '2031-06-01')).error).toBeNull();
    });

    it('the store comparison needs aal2', async () => {
      const refused = await weak.rpc('store_comparison', { p_month: '2031-06-01' });
      expect(refused.error).toMatchObject(dbRefusal('Comparing stores'));
      expect(refused.status).toBe(403);
      const served = await strong.rpc('store_comparison', { p_month: '2031-06-01' });
      expect(served.error).toBeNull();
      expect((served.data as Array<{ name: string }>).map((s) => s.name)).toEqual(['Demo Motors', 'Northside Auto Service']);
    });

    it('adding, renaming and deleting stores needs aal2', async () => {
      expect((await weak.from('stores').insert({ name: 'Sneaky Motors' })).error).toMatchObject(dbRefusal('Changing stores'));
      expect((await weak.from('stores').update({ name: 'Renamed' }).eq('id', demo.storeB)).error).toMatchObject(dbRefusal('Changing stores'));
      expect((await weak.from('stores').delete().eq('id', demo.storeB)).error).toMatchObject(dbRefusal('Changing stores'));
      expect((await strong.from('stores').select('name').order('name')).data).toEqual([{ name: 'Demo Motors' }, { name: 'Northside Auto Service' }]);
      const added = await strong.from('stores').insert({ name: 'Eastside Service' }).select('id').single();
      expect(added.error).toBeNull();
      expect((await strong.from('stores').delete().eq('id', added.data?.id ?? '')).error).toBeNull();
    });

    it('another store\'s change history needs aal2; the admin\'s own store\'s does not', async () => {
      const other = await stack.signIn('other@example.com');
      const target = (store: string) => ({ store_id: store, year: 2031, month: 10, metric_key: 'cpElr', target_value: 150 });
      expect((await other.from('monthly_targets').upsert(target(demo.storeB), { onConflict: 'store_id,year,month,metric_key' })).error).toBeNull();
      expect((await manager.from('monthly_targets').upsert(target(demo.storeA), { onConflict: 'store_id,year,month,metric_key' })).error).toBeNull();
      const history = (client: SupabaseClient, store: string) =>
        client.from('change_history').select('store_id, field').eq('store_id', store).eq('table_name', 'monthly_targets').eq('row_key->>month', '10');
      expect(await history(weak, demo.storeB)).toMatchObject({ error: null, data: [] });
      expect((await history(strong, demo.storeB)).data).toEqual([expect.objectContaining({ store_id: demo.storeB, field: 'target_value' })]);
      expect((await history(weak, demo.storeA)).data).toEqual([expect.objectContaining({ store_id: demo.storeA, field: 'target_value' })]);
    });

    it('ordinary work needs no second factor, for a person who has one either', async () => {
      await enrolAndVerify(manager, 'Manager phone');
      const passwordOnly = await stack.signIn('manager@example.com');
      const written = await passwordOnly
        .from('monthly_targets')
        .upsert({ store_id: demo.storeA, year: 2031, month: 8, metric_key: 'cpElr', target_value: 190 }, { onConflict: 'store_id,year,month,metric_key' });
      expect(written.error).toBeNull();
      expect((await passwordOnly.from('month_closures').insert({ store_id: demo.storeA, month_start: '2031-09-01', year: 2031 })).error).toBeNull();
    });

    it('an admin at aal2 removes a person\'s authenticators (a lost phone); that person then signs in with the password alone', async () => {
      const lost = await stack.signIn('other@example.com');
      await enrolAndVerify(lost, 'Lost phone');
      expect((await stack.signIn('other@example.com').then((c) => c.auth.mfa.getAuthenticatorAssuranceLevel())).data).toMatchObject({ nextLevel: 'aal2' });
      expect(await invoke(strong, 'deleteUserFactors', { id: demo.otherId })).toMatchObject({ status: 200, body: { removed: 1 } });
      const again = await stack.signIn('other@example.com');
      expect((await again.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
      expect((await again.auth.mfa.listFactors()).data?.all).toEqual([]);
    });

    it('with the group\'s setting on, an admin without an authenticator is refused until they enrol one', async () => {
      expect(await invoke(weak, 'setAdminsNeedMfa', { on: true })).toMatchObject(verifyRefusal);
      expect(await invoke(manager, 'setAdminsNeedMfa', { on: true })).toMatchObject({ status: 403, body: { error: 'Unauthorized: Admin access required' } });
      // No function a signed-in person may call changes it: only the admin function, with the service role.
      expect((await strong.rpc('set_admins_need_mfa', { p_on: true, p_by: demo.adminId })).error).toMatchObject({ code: '42501' });
      expect((await manager.rpc('security_settings')).data).toMatchObject({ admins_need_mfa: false });
      expect(await invoke(strong, 'setAdminsNeedMfa', { on: true })).toMatchObject({ status: 200, body: { settings: { admins_need_mfa: true } } });
      expect((await manager.rpc('security_settings')).data).toMatchObject({ admins_need_mfa: true });

      const created = await stack.service().auth.admin.createUser({
        email: 'second.admin@example.com',
        password: 'secret12',
        email_confirm: true,
        app_metadata: { store_id: demo.storeA, is_admin: true },
      });
      expect(created.error).toBeNull();
      const newcomer = await stack.signIn('second.admin@example.com', 'secret12');
      expect(await invoke(newcomer, 'listUsers')).toMatchObject({
        status: 403,
        body: { code: 'insufficient_aal', error: 'Managing users needs an authenticator app: administrators must set one up first (Settings, Authenticator).' },
      });
      expect((await newcomer.rpc('store_comparison', { p_month: '2031-06-01' })).error).toMatchObject({
        code: '42501',
        details: 'insufficient_aal',
        message: 'Comparing stores needs an authenticator app: administrators must set one up first.',
      });
      // Not an admin: not concerned.
      expect((await stack.signIn('other@example.com').then((c) => c.from('monthly_targets').select('id').limit(1))).error).toBeNull();

      await enrolAndVerify(newcomer);
      expect((await invoke(newcomer, 'listUsers')).status).toBe(200);
      expect((await newcomer.rpc('store_comparison', { p_month: '2031-06-01' })).error).toBeNull();
      expect(await invoke(strong, 'setAdminsNeedMfa', { on: false })).toMatchObject({ status: 200, body: { settings: { admins_need_mfa: false } } });
      const { rows } = await stack.database.query<{ updated_by: string }>('select updated_by::text from private.security_settings');
      expect(rows).toEqual([{ updated_by: demo.adminId }]);
    });
  });
}

describe('the deployment setting LOCAL_SUPABASE_ADMIN_MFA', () => {
  it('writes the group\'s setting at start', async () => {
    const stack = await startTestStack({ adminsNeedMfa: true });
    try {
      const admin = await stack.signIn('admin@example.com');
      expect((await admin.rpc('security_settings')).data).toMatchObject({ admins_need_mfa: true });
      expect((await admin.rpc('store_comparison', { p_month: '2031-06-01' })).error).toMatchObject({ code: '42501', details: 'insufficient_aal' });
    } finally {
      await stack.stop();
    }
  });
});
