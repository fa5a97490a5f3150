/**
 * Who closed or reopened a month, and when, is the server's word on every path (insert
 * and update, closed or open, SQL as the API runs it and the device's push); the names it
 * writes, on closures and in the change history, are the admin-managed ones
 * (app_metadata), never what a person wrote into their own user_metadata. A closure keeps
 * the work pattern and Work Mix target the month was closed with, so changing them later
 * changes no closed month; calendar days and the work pattern are in the change history.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../../supabase/local/db/database.ts';
import type { Actor } from '../../support/as-role.ts';
import { asActor } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

const manager: Actor = { role: 'authenticated', userId: demo.managerId };
const admin: Actor = { role: 'authenticated', userId: demo.adminId };
/** The names the demo data's admin gave these accounts (supabase/seed.sql). */
const managerName = 'Morgan Manager';
const adminName = 'Alex';

/** Everything a client might claim about who closed or reopened a month, all of it false. */
const forged = {
  closed_by: demo.otherId,
  closed_by_name: 'Forged Closer',
  closed_at: '2001-01-01T00:00:00Z',
  reopened_by: demo.otherId,
  reopened_by_name: 'Forged Reopener',
  reopened_at: '2001-01-01T00:00:00Z',
};
const forgedSet = Object.entries(forged).map(([column, value]) => `${column} = '${value}'`).join(', ');
const forgedColumns = Object.keys(forged).join(', ');
const forgedValues = Object.values(forged).map((value) => `'${value}'`).join(', ');
const pushClosure = (row: Record<string, unknown>) =>
  `select public.push_changes('month_closures', '${JSON.stringify([{ store_id: demo.storeA, ...row, ...forged }])}'::jsonb)`;

type Stamp = { closed_by: string | null; closed_by_name: string | null; closed_at: string | null; reopened_by: string | null; reopened_by_name: string | null; reopened_at: string | null };
const none: Stamp = { closed_by: null, closed_by_name: null, closed_at: null, reopened_by: null, reopened_by_name: null, reopened_at: null };
const closedNow = { closed_by: demo.managerId, closed_by_name: managerName, closed_at: 'now' };
const reopenedNow = { reopened_by: demo.adminId, reopened_by_name: adminName, reopened_at: 'now' };

/** A closure's stamps, a time shown as 'now' when it is this transaction's. */
const readStamp = async (db: Queryable, month: string) =>
  (
    await db.query<Stamp>(
      `select closed_by::text, closed_by_name, case when closed_at = now() then 'now' else closed_at::text end as closed_at,
              reopened_by::text, reopened_by_name, case when reopened_at = now() then 'now' else reopened_at::text end as reopened_at
       from public.month_closures where store_id = $1 and month_start = $2`,
      [demo.storeA, month],
    )
  ).rows[0];

for (const engine of engines) {
  describe(`who closed or reopened a month is stamped by the server, on ${engine}`, () => {
    let db: TestDatabase;
    const before: Record<string, Stamp> = {};

    async function commitAs(userId: string, sql: string) {
      await db.transaction(async (tx) => {
        await tx.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [
          JSON.stringify({ sub: userId, role: 'authenticated' }),
        ]);
        await tx.query(sql);
      });
    }
    /** The stamps after one write as `actor`, rolled back. */
    const stampAfter = (actor: Actor, sql: string, month: string) =>
      asActor(db, actor, async (tx) => {
        await tx.query(sql);
        return readStamp(tx, month);
      });

    beforeAll(async () => {
      db = await createTestDatabase(engine);
      // The manager writes names of their own choosing into their user_metadata, as any user may.
      await db.query(
        `update auth.users set raw_user_meta_data = raw_user_meta_data || '{"displayName": "Forged Self", "display_name": "Forged Self", "first_name": "Forged", "firstName": "Forged"}'
         where id = $1`,
        [demo.managerId],
      );
      // March: closed. April: a row, never closed. May: closed, then reopened by an admin.
      await commitAs(demo.managerId, `insert into month_closures (store_id, month_start, year) values ('${demo.storeA}', '2031-03-01', 2031), ('${demo.storeA}', '2031-05-01', 2031)`);
      await commitAs(demo.managerId, `insert into month_closures (store_id, month_start, year, closed) values ('${demo.storeA}', '2031-04-01', 2031, false)`);
      await commitAs(demo.adminId, `update month_closures set closed = false where month_start = '2031-05-01'`);
      for (const month of ['2031-03-01', '2031-04-01', '2031-05-01']) before[month] = (await readStamp(db, month)) as Stamp;
    });
    afterAll(() => db?.dispose());

    it('names people as their admin did, whatever they wrote into their own user_metadata', async () => {
      const { rows } = await db.query<{ manager: string; admin: string }>('select private.person_name($1) as manager, private.person_name($2) as admin', [demo.managerId, demo.adminId]);
      expect(rows).toEqual([{ manager: managerName, admin: adminName }]);
      expect(before['2031-03-01']).toMatchObject({ closed_by: demo.managerId, closed_by_name: managerName });
    });

    it('names a person without an admin-given name by their e-mail address', async () => {
      await db.query(
        `insert into auth.users (id, aud, role, email, raw_app_meta_data, raw_user_meta_data)
         values ('aaaaaaaa-0000-4000-8000-0000000000ff', 'authenticated', 'authenticated', 'self.named@example.com',
                 '{"provider": "email", "store_id": "${demo.storeA}"}', '{"displayName": "Self Named", "display_name": "Self Named"}')`,
      );
      const { rows } = await db.query<{ name: string }>(`select private.person_name('aaaaaaaa-0000-4000-8000-0000000000ff') as name`);
      expect(rows).toEqual([{ name: 'self.named@example.com' }]);
    });

    const cases: Array<[string, Actor, string, string, (m: string) => Stamp]> = [
      ['inserting a closed month', manager, `insert into month_closures (store_id, month_start, year, ${forgedColumns}) values ('${demo.storeA}', '2031-06-01', 2031, ${forgedValues})`, '2031-06-01', () => ({ ...none, ...closedNow })],
      ['inserting an open month', manager, `insert into month_closures (store_id, month_start, year, closed, ${forgedColumns}) values ('${demo.storeA}', '2031-06-01', 2031, false, ${forgedValues})`, '2031-06-01', () => none],
      ['pushing a closed month', manager, pushClosure({ month_start: '2031-06-01', year: 2031, closed: true }), '2031-06-01', () => ({ ...none, ...closedNow })],
      ['changing a closed month that stays closed', manager, `update month_closures set ${forgedSet} where month_start = '2031-03-01'`, '2031-03-01', (m) => before[m] as Stamp],
      ['pushing a closed month again', manager, pushClosure({ month_start: '2031-03-01', year: 2031, closed: true }), '2031-03-01', (m) => before[m] as Stamp],
      ['changing a month never closed', manager, `update month_closures set ${forgedSet} where month_start = '2031-04-01'`, '2031-04-01', () => none],
      ['changing a reopened month that stays open', manager, `update month_closures set ${forgedSet} where month_start = '2031-05-01'`, '2031-05-01', (m) => before[m] as Stamp],
      ['closing a reopened month', manager, `update month_closures set closed = true, ${forgedSet} where month_start = '2031-05-01'`, '2031-05-01', (m) => ({ ...(before[m] as Stamp), ...closedNow })],
      ['reopening a closed month (an admin)', admin, `update month_closures set closed = false, ${forgedSet} where month_start = '2031-03-01'`, '2031-03-01', (m) => ({ ...(before[m] as Stamp), ...reopenedNow })],
    ];

    it.each(cases)('%s: the stamps are the server\'s', async (_name, actor, sql, month, expected) => {
      expect(await stampAfter(actor, sql, month)).toEqual(expected(month));
    });

    it('keeps what the earlier steps stamped', () => {
      expect(before['2031-05-01']).toMatchObject({ ...closedNow, closed_at: expect.any(String), ...reopenedNow, reopened_at: expect.any(String) });
    });

    it('records calendar days and the store settings in the change history, with the admin-given name', async () => {
      const mark = (await db.query<{ id: string }>('select coalesce(max(id), 0)::text as id from change_history')).rows[0]?.id;
      await commitAs(demo.managerId, `insert into store_calendar_days (store_id, calendar_date, year, is_work_day, note) values ('${demo.storeA}', '2031-08-15', 2031, false, 'Stocktake')`);
      await commitAs(demo.managerId, `update store_settings set work_week = '1111100' where store_id = '${demo.storeA}'`);
      const { rows } = await db.query(
        `select table_name, row_key, field, old_value, new_value, changed_by::text, changed_by_name from change_history where id > $1 order by id`,
        [mark],
      );
      const history = (table: string, key: Record<string, string>, field: string, from: unknown, to: unknown) => ({
        table_name: table, row_key: key, field, old_value: from, new_value: to, changed_by: demo.managerId, changed_by_name: managerName,
      });
      const day = { store_id: demo.storeA, calendar_date: '2031-08-15' };
      expect(rows).toEqual([
        history('store_calendar_days', day, 'note', null, 'Stocktake'),
        history('store_calendar_days', day, 'is_work_day', null, false),
        history('store_settings', { store_id: demo.storeA }, 'work_week', null, '1111100'),
      ]);
    });
  });

  describe(`a closed month keeps the work pattern and Work Mix target it was closed with, on ${engine}`, () => {
    let db: TestDatabase;
    type Snapshot = { work_week: string | null; mix: string | null };
    const snapshot = async (storeId: string, month: string) =>
      (
        await db.query<Snapshot>(
          `select work_week, concat_ws('/', mix_target_cp::int, mix_target_w::int, mix_target_i::int) as mix from month_closures where store_id = $1 and month_start = $2`,
          [storeId, month],
        )
      ).rows[0];
    async function commitAs(userId: string, sql: string) {
      await db.transaction(async (tx) => {
        await tx.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [
          JSON.stringify({ sub: userId, role: 'authenticated' }),
        ]);
        await tx.query(sql);
      });
    }
    const setPattern = (week: string, mix: [number, number, number]) =>
      commitAs(demo.managerId, `update store_settings set work_week = '${week}', mix_target_cp = ${mix[0]}, mix_target_w = ${mix[1]}, mix_target_i = ${mix[2]} where store_id = '${demo.storeA}'`);

    beforeAll(async () => {
      db = await createTestDatabase(engine);
      await setPattern('1111100', [50, 30, 20]);
      // A client's claim about the pattern is ignored, as its claims about who closed.
      await commitAs(demo.managerId, `insert into month_closures (store_id, month_start, year, work_week, mix_target_cp, mix_target_w, mix_target_i) values ('${demo.storeA}', '2031-06-01', 2031, '0000001', 0, 0, 100)`);
      await commitAs(demo.otherId, `insert into month_closures (store_id, month_start, year) values ('${demo.storeB}', '2031-06-01', 2031)`);
    });
    afterAll(() => db?.dispose());

    it('takes the store\'s pattern at closing; a store that never set one gets the defaults', async () => {
      expect(await snapshot(demo.storeA, '2031-06-01')).toEqual({ work_week: '1111100', mix: '50/30/20' });
      expect(await snapshot(demo.storeB, '2031-06-01')).toEqual({ work_week: '1111110', mix: '40/30/30' });
    });

    it("reaches a device's first sync and later pulls with the closure", async () => {
      const pulled = await asActor(db, manager, async (tx) => {
        const many = await tx.query<{ answer: { pages: Array<{ rows: Array<Record<string, unknown>> }> } }>(
          'select public.pull_changes_many($1::jsonb, 100) as answer',
          [JSON.stringify([{ table: 'month_closures', cursor: null, min_year: 2031 }])],
        );
        const one = await tx.query<{ page: { rows: Array<Record<string, unknown>> } }>("select public.pull_changes('month_closures', null, 100) as page");
        return [many.rows[0]?.answer.pages[0]?.rows, one.rows[0]?.page.rows];
      });
      for (const rows of pulled) {
        expect(rows).toEqual([expect.objectContaining({ month_start: '2031-06-01', work_week: '1111100', mix_target_cp: 50, mix_target_w: 30, mix_target_i: 20 })]);
      }
    });

    it('keeps it when the store changes its pattern later, and refuses a client\'s change to it', async () => {
      await setPattern('1111111', [40, 40, 20]);
      await commitAs(demo.managerId, `update month_closures set work_week = '0000001', mix_target_cp = 0, mix_target_w = 0, mix_target_i = 100 where store_id = '${demo.storeA}'`);
      expect(await snapshot(demo.storeA, '2031-06-01')).toEqual({ work_week: '1111100', mix: '50/30/20' });
    });

    it('gives the store comparison the closed month\'s pattern, and an open month the store\'s', async () => {
      await commitAs(demo.managerId, `insert into month_closures (store_id, month_start, year, closed) values ('${demo.storeA}', '2031-07-01', 2031, false)`);
      const settingsOf = async (month: string) =>
        asActor(db, admin, async (tx) => {
          const { rows } = await tx.query<{ week: string; mix: string }>(
            `select s -> 'month' -> 'settings' ->> 'work_week' as week,
                    concat_ws('/', (s -> 'month' -> 'settings' ->> 'mix_target_cp')::numeric::int, (s -> 'month' -> 'settings' ->> 'mix_target_w')::numeric::int, (s -> 'month' -> 'settings' ->> 'mix_target_i')::numeric::int) as mix
             from jsonb_array_elements(public.store_comparison($1)) s where s ->> 'store_id' = $2`,
            [month, demo.storeA],
          );
          return rows[0];
        });
      expect(await settingsOf('2031-06-01')).toEqual({ week: '1111100', mix: '50/30/20' });
      expect(await settingsOf('2031-07-01')).toEqual({ week: '1111111', mix: '40/40/20' });
    });

    it('keeps the pattern it was first closed with when reopened and closed again', async () => {
      await commitAs(demo.adminId, `update month_closures set closed = false where store_id = '${demo.storeA}' and month_start = '2031-06-01'`);
      expect(await snapshot(demo.storeA, '2031-06-01')).toEqual({ work_week: '1111100', mix: '50/30/20' });
      await commitAs(demo.managerId, `update month_closures set closed = true where store_id = '${demo.storeA}' and month_start = '2031-06-01'`);
      expect(await snapshot(demo.storeA, '2031-06-01')).toEqual({ work_week: '1111100', mix: '50/30/20' });
    });

    it('gives the store comparison a reopened month\'s kept pattern', async () => {
      await commitAs(demo.adminId, `update month_closures set closed = false where store_id = '${demo.storeA}' and month_start = '2031-06-01'`);
      const week = await asActor(db, admin, async (tx) => {
        const { rows } = await tx.query<{ week: string }>(
          `select s -> 'month' -> 'settings' ->> 'work_week' as week from jsonb_array_elements(public.store_comparison($1)) s where s ->> 'store_id' = $2`,
          ['2031-06-01', demo.storeA],
        );
        return rows[0]?.week;
      });
      expect(week).toBe('1111100');
    });

  });
}
