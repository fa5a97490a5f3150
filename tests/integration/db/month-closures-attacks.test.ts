/**
 * A closed month attacked from outside: every way a member (or the service role) might
 * reopen a closed month without an admin's stamp, close the same month twice under
 * another spelling, forge what a closure kept, or change a closed month's figures through
 * something they are computed from (a row moved in from an open month, a week reaching
 * into it, an advisor whose figures it holds, a push mixing an open and a closed month).
 * Each write runs as the API runs it and is rolled back; the outcome is the SQLSTATE it
 * was refused with, or "taken" and what the closure and the month hold afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../support/as-role.ts';
import { asActor } from '../../support/as-role.ts';
import { isPostgresError } from '../../../supabase/local/db/database.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines, sessionsWaitingOnLocks } from '../../support/test-databases.ts';
import { until } from '../../support/poll.ts';

const manager: Actor = { role: 'authenticated', userId: demo.managerId };
const other: Actor = { role: 'authenticated', userId: demo.otherId };
const serviceRole: Actor = { role: 'service_role' };
const anon: Actor = { role: 'anon' };

const june = `store_id = '${demo.storeA}' and month_start = '2031-06-01'`;
/** What says who closed June and with which settings; it must read the same after every attack. */
const closureSql = `select closed, closed_by::text, closed_by_name, closed_at::text, reopened_by::text, reopened_at::text, work_week,
  mix_target_cp::float8 as cp, deleted_at::text from public.month_closures where ${june}`;
/** June's advisor figures and May's daily value, which a refused batch must leave alone. */
const figuresSql = `select (select count(*)::int from public.front_end_team_daily_performance where entry_date = '2031-06-01' and deleted_at is null) as june_advisor_rows,
  (select value::float8 from public.daily_inputs where store_id = '${demo.storeA}' and entry_date = '2031-05-12' and row_identifier = 'CP' and metric_type = 'hours') as may_value,
  (select count(*)::int from public.front_end_team_advisors where id = '${demo.advisorA}' and deleted_at is null) as advisor_listed`;

const daily = (date: string, value: number) => ({
  store_id: demo.storeA, entry_date: date, year: 2031, month: Number(date.slice(5, 7)), day_of_week_iso: 1,
  week_of_month_display: 3, year_week_actual: '2031-20', row_identifier: 'CP', metric_type: 'hours', value,
});
const json = (value: unknown) => `'${JSON.stringify(value).replaceAll("'", "''")}'::jsonb`;

type Attack = [name: string, actor: Actor, sql: string, expected: string];

const attacks: Attack[] = [
  // Reopening without an admin's stamp.
  ["a member deletes a closed month's closure", manager, `delete from public.month_closures where ${june}`, '42501'],
  ["the service role deletes a closed month's closure (no one would be stamped as reopening it)", serviceRole, `delete from public.month_closures where ${june}`, '42501'],
  ["a member retires a closed month's closure", manager, `update public.month_closures set deleted_at = now() where ${june}`, '42501'],
  ['a member upserts the closure open on its natural key', manager,
    `insert into public.month_closures (store_id, month_start, year, closed) values ('${demo.storeA}', '2031-06-01', 2031, false)
     on conflict (store_id, month_start) do update set closed = excluded.closed`, '42501'],
  ['a member pushes the closure open', manager, `select public.push_changes('month_closures', ${json([{ store_id: demo.storeA, month_start: '2031-06-01', year: 2031, closed: false }])})`, '42501'],
  ['a member pushes the closure retired', manager, `select public.push_changes_reported('month_closures', ${json([{ store_id: demo.storeA, month_start: '2031-06-01', year: 2031, deleted_at: '2031-07-01T00:00:00Z' }])})`, '42501'],
  ["a member moves the closure to another month", manager, `update public.month_closures set month_start = '2031-08-01', year = 2031 where ${june}`, '23I01'],
  ["a member of another store closes or opens this store's month", other, `update public.month_closures set closed = false where ${june}`, 'taken: closure unchanged'],
  ['an anonymous client deletes or reopens', anon, `update public.month_closures set closed = false where ${june}`, '42501'],
  // The same month closed twice under another spelling.
  ['a second closure of June spelled as a timestamp', manager, `insert into public.month_closures (store_id, month_start, year, closed) values ('${demo.storeA}', '2031-06-01 23:59:59+00', 2031, false)`, '23505'],
  ['a second closure of June on the 15th', manager, `insert into public.month_closures (store_id, month_start, year, closed) values ('${demo.storeA}', '2031-06-15', 2031, false)`, '23514'],
  ['a closure whose year is not its month', manager, `insert into public.month_closures (store_id, month_start, year) values ('${demo.storeA}', '2031-09-01', 2030)`, '23514'],
  // Forged stamps and kept settings on an upsert.
  ['a member upserts the closed month with forged stamps and kept settings', manager,
    `insert into public.month_closures (store_id, month_start, year, closed, closed_by, closed_by_name, closed_at, reopened_by, reopened_at, work_week, mix_target_cp, mix_target_w, mix_target_i)
     values ('${demo.storeA}', '2031-06-01', 2031, true, '${demo.otherId}', 'Forged', '2001-01-01', '${demo.otherId}', '2001-01-01', '0000001', 0, 0, 100)
     on conflict (store_id, month_start) do update set closed = true, closed_by = excluded.closed_by, closed_by_name = excluded.closed_by_name, closed_at = excluded.closed_at,
       reopened_by = excluded.reopened_by, reopened_at = excluded.reopened_at, work_week = excluded.work_week, mix_target_cp = excluded.mix_target_cp,
       mix_target_w = excluded.mix_target_w, mix_target_i = excluded.mix_target_i`, 'taken: closure unchanged'],
  ['a member pushes the closed month with forged stamps and kept settings', manager,
    `select public.push_changes('month_closures', ${json([{ store_id: demo.storeA, month_start: '2031-06-01', year: 2031, closed: true, closed_by: demo.otherId, closed_by_name: 'Forged', closed_at: '2001-01-01T00:00:00Z', work_week: '0000001', mix_target_cp: 0, mix_target_w: 0, mix_target_i: 100 }])})`,
    'taken: closure unchanged'],
  ['a member changes the store\'s work week and Work Mix target after closing', manager,
    `update public.store_settings set work_week = '1111111', mix_target_cp = 10, mix_target_w = 10, mix_target_i = 80 where store_id = '${demo.storeA}'`, 'taken: closure unchanged'],
  ['a member retires the store\'s settings after closing', manager, `update public.store_settings set deleted_at = now() where store_id = '${demo.storeA}'`, 'taken: closure unchanged'],
  // A closed month's figures changed through a row of an open month.
  ['a member moves a daily value of open May into June', manager,
    `update public.daily_inputs set entry_date = '2031-06-09', month = 6 where store_id = '${demo.storeA}' and entry_date = '2031-05-12'`, '23M01'],
  ['a member moves a holiday of open May into June', manager,
    `update public.store_calendar_days set calendar_date = '2031-06-09' where store_id = '${demo.storeA}' and calendar_date = '2031-05-26'`, '23M01'],
  ['a member adds a week part from May 25 reaching into June', manager,
    `insert into public.weekly_store_performance (store_id, year, week_start_date, week_end_date, work_days) values ('${demo.storeA}', 2031, '2031-05-25', '2031-06-01', 5)`, '23514'],
  ['a member pushes May and June values in one batch (nothing of it is kept)', manager,
    `select public.push_changes_reported('daily_inputs', ${json([daily('2031-05-12', 7), daily('2031-06-09', 7)])})`, '23M01'],
  // A closed month's advisor figures.
  ['a member retires an advisor who has figures in June', manager, `update public.front_end_team_advisors set deleted_at = now() where id = '${demo.advisorA}'`, '23M01'],
  ['a member pushes that advisor retired', manager,
    `select public.push_changes('front_end_team_advisors', ${json([{ id: demo.advisorA, store_id: demo.storeA, advisor_name: 'Ava', deleted_at: '2031-07-01T00:00:00Z' }])})`, '23M01'],
  ['the service role deletes an advisor who has figures in June', serviceRole, `delete from public.front_end_team_advisors where id = '${demo.advisorA}'`, '23M01'],
  ['a member sets that advisor inactive (how an advisor leaves; the month still lists them)', manager,
    `update public.front_end_team_advisors set is_active = false where id = '${demo.advisorA}'`, 'taken: closure unchanged'],
  ['a member renames that advisor (a name is no figure)', manager,
    `update public.front_end_team_advisors set advisor_name = 'Renamed' where id = '${demo.advisorA}'`, 'taken: closure unchanged'],
  ['a member deletes an advisor', manager, `delete from public.front_end_team_advisors where id = '${demo.advisorA}'`, '42501'],
];

for (const engine of engines) {
  describe(`attacks on a closed month, on ${engine}`, () => {
    let db: TestDatabase;
    let closedJune: unknown;
    let figures: unknown;

    async function commitAs(userId: string, sql: string) {
      await db.transaction(async (tx) => {
        await tx.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [
          JSON.stringify({ sub: userId, role: 'authenticated' }),
        ]);
        await tx.query(sql);
      });
    }

    beforeAll(async () => {
      db = await createTestDatabase(engine);
      // Open May has a daily value and a holiday; June holds an advisor's figures and is closed.
      await db.query(`insert into public.daily_inputs (store_id, entry_date, year, month, day_of_week_iso, week_of_month_display, year_week_actual, row_identifier, metric_type, value)
                      values ('${demo.storeA}', '2031-05-12', 2031, 5, 1, 3, '2031-20', 'CP', 'hours', 4)`);
      await db.query(`insert into public.store_calendar_days (store_id, calendar_date, year, is_work_day) values ('${demo.storeA}', '2031-05-26', 2031, false)`);
      await db.query(`insert into public.front_end_team_daily_performance (store_id, advisor_id, entry_date, year, month, days_worked)
                      values ('${demo.storeA}', '${demo.advisorA}', '2031-06-01', 2031, 6, 20)`);
      await commitAs(demo.managerId, `update public.store_settings set work_week = '1111100', mix_target_cp = 50, mix_target_w = 30, mix_target_i = 20 where store_id = '${demo.storeA}'`);
      await commitAs(demo.managerId, `insert into public.month_closures (store_id, month_start, year) values ('${demo.storeA}', '2031-06-01', 2031)`);
      closedJune = (await db.query(closureSql)).rows[0];
      figures = (await db.query(figuresSql)).rows[0];
    });
    afterAll(() => db?.dispose());

    it('closed June as the manager, with the settings of the day', () => {
      expect(closedJune).toMatchObject({ closed: true, closed_by: demo.managerId, closed_by_name: 'Morgan Manager', work_week: '1111100', cp: 50, deleted_at: null });
      expect(figures).toEqual({ june_advisor_rows: 1, may_value: 4, advisor_listed: 1 });
    });

    it.each(attacks)('%s', async (_name, actor, sql, expected) => {
      let outcome: string;
      try {
        outcome = await asActor(db, actor, async (tx) => {
          await tx.query(sql);
          // Read back as the owner: what is stored, not what this actor may see.
          await tx.query('reset role');
          const closure = (await tx.query(closureSql)).rows[0];
          const after = (await tx.query(figuresSql)).rows[0];
          if (JSON.stringify(after) !== JSON.stringify(figures) && !expected.startsWith('taken: figures')) return `taken: figures now ${JSON.stringify(after)}`;
          return JSON.stringify(closure) === JSON.stringify(closedJune) ? 'taken: closure unchanged' : `taken: closure now ${JSON.stringify(closure)}`;
        });
      } catch (error) {
        if (!isPostgresError(error)) throw error;
        outcome = error.code ?? '';
      }
      expect(outcome).toBe(expected);
    });
  });
}

/**
 * Closing a month while a write to it is in flight (PostgreSQL only: PGlite runs one
 * transaction at a time, so nothing is ever in flight beside another). Without an order
 * between them, a write that began before the closure committed lands after it: the
 * manager closed a month that then held a figure nobody had seen.
 */
if (engines.includes('postgres')) {
  describe('a write in flight and a closing, on postgres', () => {
    let db: TestDatabase;
    const claims = (userId: string) => JSON.stringify({ sub: userId, role: 'authenticated' });
    const asMember = "select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)";
    const close = (month: string) => `insert into public.month_closures (store_id, month_start, year) values ('${demo.storeA}', '${month}', 2031)`;
    /** A holiday: the smallest write to a month (a daily value must also carry its week labels). */
    const write = (date: string) => `insert into public.store_calendar_days (store_id, calendar_date, year, is_work_day) values ('${demo.storeA}', '${date}', 2031, false)`;
    const settle = <T>(promise: Promise<T>) => promise.then(() => 'done', (error: unknown) => (isPostgresError(error) ? (error.code ?? '') : 'error'));

    /** `first` runs and holds its transaction open; meanwhile `second` starts. */
    async function overlap(first: string, second: string) {
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let started = () => {};
      const ready = new Promise<void>((resolve) => (started = resolve));
      const one = settle(db.transaction(async (tx) => {
        await tx.query(asMember, [claims(demo.managerId)]);
        await tx.query(first);
        started();
        await held;
      }));
      await Promise.race([ready, one]);
      let secondEnded: string | null = null;
      const two = settle(db.transaction(async (tx) => {
        await tx.query(asMember, [claims(demo.managerId)]);
        await tx.query(second);
      })).then((result) => (secondEnded = result));
      // While the first holds its transaction open, the second either ends or queues behind
      // its lock: the server says which, however long a busy machine takes to get there.
      const whileHeld = await until(
        async () => secondEnded ?? ((await sessionsWaitingOnLocks(db)) > 0 ? 'still waiting' : null),
        (state) => state !== null,
        60_000,
        'the second transaction ended or queued behind a lock',
        20,
      );
      release();
      return { whileHeld, first: await one, second: await two };
    }

    beforeAll(async () => {
      db = await createTestDatabase('postgres');
    });
    afterAll(() => db?.dispose());

    it('a closing waits for a write to the month that is in flight', async () => {
      expect(await overlap(write('2031-09-10'), close('2031-09-01'))).toEqual({ whileHeld: 'still waiting', first: 'done', second: 'done' });
    });

    it('a write waits for a closing in flight, and is then refused', async () => {
      expect(await overlap(close('2031-10-01'), write('2031-10-10'))).toEqual({ whileHeld: 'still waiting', first: 'done', second: '23M01' });
    });

    it('a write to another month does not wait', async () => {
      expect(await overlap(close('2031-11-01'), write('2031-12-10'))).toEqual({ whileHeld: 'done', first: 'done', second: 'done' });
    });
  });
}
