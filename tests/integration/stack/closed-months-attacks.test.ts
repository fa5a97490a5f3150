/**
 * A closed month attacked through the API with supabase-js, as a member, the service
 * role and an admin, on each engine. Every attack runs against June 2031, closed by the
 * manager; its outcome is the error code (or "ok") and, after it, the closure and the
 * month's figures must read as before unless the attack is an allowed one.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { engines } from '../../support/test-databases.ts';

const june = { store_id: demo.storeA, month_start: '2031-06-01', year: 2031 };
const daily = (date: string, value: number) => ({
  store_id: demo.storeA, entry_date: date, year: 2031, month: Number(date.slice(5, 7)), day_of_week_iso: 1,
  week_of_month_display: 3, year_week_actual: '2031-20', row_identifier: 'CP', metric_type: 'hours', value,
});
const codeOf = (result: { error: { code?: string; status?: number } | null }) =>
  result.error ? (result.error.code ?? `HTTP ${result.error.status}`) : 'ok';

type Clients = { manager: SupabaseClient; service: SupabaseClient; admin: SupabaseClient };
type Attack = [name: string, run: (c: Clients) => Promise<string>, expected: string];

const attacks: Attack[] = [
  ['a member PATCHes the closure open', async ({ manager }) => codeOf(await manager.from('month_closures').update({ closed: false }).match(june).select()), '42501'],
  ['a member DELETEs the closure', async ({ manager }) => codeOf(await manager.from('month_closures').delete().match(june)), '42501'],
  ['the service role DELETEs the closure', async ({ service }) => codeOf(await service.from('month_closures').delete().match(june)), '42501'],
  ['a member upserts the closure open on its natural key', async ({ manager }) =>
    codeOf(await manager.from('month_closures').upsert({ ...june, closed: false }, { onConflict: 'store_id,month_start' })), '42501'],
  ['a member inserts June again as a timestamp', async ({ manager }) =>
    codeOf(await manager.from('month_closures').insert({ ...june, month_start: '2031-06-01T12:00:00Z', closed: false })), '23505'],
  ['a member inserts June again on the 15th', async ({ manager }) =>
    codeOf(await manager.from('month_closures').insert({ ...june, month_start: '2031-06-15', closed: false })), '23514'],
  ['a member upserts June closed with forged stamps and kept settings', async ({ manager }) =>
    codeOf(await manager.from('month_closures').upsert(
      { ...june, closed: true, closed_by: demo.otherId, closed_by_name: 'Forged', closed_at: '2001-01-01T00:00:00Z', reopened_at: '2001-01-01T00:00:00Z', work_week: '0000001', mix_target_cp: 0, mix_target_w: 0, mix_target_i: 100 },
      { onConflict: 'store_id,month_start' })), 'ok'],
  ['a member moves a daily value of open May into June', async ({ manager }) =>
    codeOf(await manager.from('daily_inputs').update({ entry_date: '2031-06-09', month: 6 }).eq('entry_date', '2031-05-12')), '23M01'],
  ['a member pushes May and June in one batch', async ({ manager }) =>
    codeOf(await manager.rpc('push_changes_reported', { p_table: 'daily_inputs', p_rows: [daily('2031-05-12', 7), daily('2031-06-09', 7)] })), '23M01'],
  ['a member retires an advisor with June figures', async ({ manager }) =>
    codeOf(await manager.from('front_end_team_advisors').update({ deleted_at: '2031-07-01T00:00:00Z' }).eq('id', demo.advisorA)), '23M01'],
  ['the service role deletes that advisor', async ({ service }) =>
    codeOf(await service.from('front_end_team_advisors').delete().eq('id', demo.advisorA)), '23M01'],
  ['a member clears their claims through an RPC', async ({ manager }) =>
    codeOf(await manager.rpc('set_config', { setting_name: 'request.jwt.claims', new_value: '', is_local: true })), 'PGRST202'],
  ['a member writes their own app_metadata name', async ({ manager }) =>
    codeOf(await fetchUser(manager, { app_metadata: { displayName: 'Forged Self' } })), 'not_admin'],
  ['a member makes themselves an admin through app_metadata', async ({ manager }) =>
    codeOf(await fetchUser(manager, { app_metadata: { is_admin: true } })), 'not_admin'],
  ['an admin creates a user with a 10,000-character name', async ({ admin }) => {
    const { error } = await admin.functions.invoke('admin-api', {
      body: { action: 'createUser', payload: { email: 'long@example.com', password: 'secret12', user_metadata: { displayName: 'x'.repeat(10_000), store_id: demo.storeA, is_admin: false } } },
    });
    return error ? 'refused' : 'ok';
  }, 'refused'],
];

/** PUT /auth/v1/user as the client's session, with whatever body (supabase-js sends only `data`). */
async function fetchUser(client: SupabaseClient, body: unknown) {
  const { data } = await client.auth.getSession();
  const session = data.session;
  if (!session) throw new Error('no session');
  const url = `${(client as unknown as { supabaseUrl: string }).supabaseUrl}/auth/v1/user`;
  const response = await fetch(url, {
    method: 'PUT',
    headers: { authorization: `Bearer ${session.access_token}`, apikey: (client as unknown as { supabaseKey: string }).supabaseKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { error_code?: string };
  return { error: response.ok ? null : { code: answer.error_code, status: response.status } };
}

for (const engine of engines) {
  describe(`attacks on a closed month through the API, on ${engine}`, () => {
    let stack: TestStack;
    let clients: Clients;
    let closure: unknown;
    let figures: unknown;
    const readClosure = async () =>
      (await stack.database.query(`select closed, closed_by::text, closed_by_name, closed_at::text, reopened_at::text, work_week, deleted_at::text from public.month_closures where store_id = $1 and month_start = '2031-06-01'`, [demo.storeA])).rows;
    const readFigures = async () =>
      (await stack.database.query(`select (select value::float8 from public.daily_inputs where entry_date = '2031-05-12' and store_id = $1) as may,
         (select count(*)::int from public.daily_inputs where entry_date = '2031-06-09' and store_id = $1) as june,
         (select count(*)::int from public.front_end_team_advisors where id = $2 and deleted_at is null) as advisor,
         (select count(*)::int from public.front_end_team_daily_performance where advisor_id = $2 and entry_date = '2031-06-01') as advisor_june`, [demo.storeA, demo.advisorA])).rows;

    beforeAll(async () => {
      stack = await startTestStack({ engine });
      await stack.database.query(`insert into public.daily_inputs (store_id, entry_date, year, month, day_of_week_iso, week_of_month_display, year_week_actual, row_identifier, metric_type, value)
                                  values ('${demo.storeA}', '2031-05-12', 2031, 5, 1, 3, '2031-20', 'CP', 'hours', 4)`);
      await stack.database.query(`insert into public.front_end_team_daily_performance (store_id, advisor_id, entry_date, year, month, days_worked)
                                  values ('${demo.storeA}', '${demo.advisorA}', '2031-06-01', 2031, 6, 20)`);
      clients = { manager: await stack.signIn('manager@example.com'), service: stack.service(), admin: await stack.signIn('admin@example.com') };
      expect((await clients.manager.from('month_closures').insert(june)).error).toBeNull();
      closure = await readClosure();
      figures = await readFigures();
    });
    afterAll(() => stack?.stop());

    it.each(attacks)('%s', async (_name, run, expected) => {
      expect(await run(clients)).toBe(expected);
      expect(await readClosure()).toEqual(closure);
      expect(await readFigures()).toEqual(figures);
    });

    it("keeps the closer's name after an admin deletes their account, and still names them in a refusal", async () => {
      const deleted = await clients.admin.functions.invoke('admin-api', { body: { action: 'deleteUser', payload: { id: demo.managerId } } });
      expect(deleted.error).toBeNull();
      expect(await readClosure()).toEqual(closure);
      const other = await stack.signIn('admin@example.com');
      const { error } = await other.from('daily_inputs').insert(daily('2031-06-09', 5));
      expect(error).toMatchObject({ code: '23M01', message: expect.stringMatching(/^month closed by Morgan Manager on /) });
    });
  });
}
