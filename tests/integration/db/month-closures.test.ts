import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../support/as-role.ts';
import { attempt } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

const manager: Actor = { role: 'authenticated', userId: demo.managerId };
const admin: Actor = { role: 'authenticated', userId: demo.adminId };
const pushDaily = (rows: unknown) => `select public.push_changes('daily_inputs', '${JSON.stringify(rows).replaceAll("'", "''")}'::jsonb)`;
const isoDay = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay() || 7;
const day = (entry_date: string, value: number) => ({
  store_id: demo.storeA,
  entry_date,
  year: 2032,
  month: Number(entry_date.slice(5, 7)),
  day_of_week_iso: isoDay(entry_date),
  row_identifier: 'CP',
  metric_type: 'hours',
  value,
});

for (const engine of engines) {
  describe(`closed months on ${engine}`, () => {
    let db: TestDatabase;
    let managerName = '';

    /** Runs and commits as a signed-in person (attempt rolls back). */
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
      await db.query(
        `insert into daily_inputs (store_id, entry_date, year, month, day_of_week_iso, row_identifier, metric_type, value) values ($1, '2032-03-10', 2032, 3, 3, 'CP', 'hours', 5), ($1, '2032-04-10', 2032, 4, 6, 'CP', 'hours', 6)`,
        [demo.storeA],
      );
      managerName = (await db.query<{ name: string }>('select private.person_name($1) as name', [demo.managerId])).rows[0]?.name ?? '';
      // Closed by the manager; what the client says about who closed it is ignored.
      await commitAs(
        demo.managerId,
        `insert into month_closures (store_id, month_start, year, closed, closed_by_name, closed_at)
         values ('${demo.storeA}', '2032-03-01', 2032, true, 'Someone Else', '2000-01-01')`,
      );
    });
    afterAll(() => db?.dispose());

    it('stamps who closed the month and when, from the session', async () => {
      const { rows } = await db.query<{ by: string; name: string; today: boolean }>(
        `select closed_by::text as by, closed_by_name as name, closed_at::date = current_date as today from month_closures where month_start = '2032-03-01'`,
      );
      expect(rows).toEqual([{ by: demo.managerId, name: managerName, today: true }]);
      expect(managerName).not.toBe('');
    });

    it("refuses inserts, updates and deletes of the month's figures by push, REST and SQL, with who closed it and when", async () => {
      const reason = new RegExp(`^month closed by ${managerName} on \\d{4}-\\d{2}-\\d{2}$`);
      const attempts: Array<[Actor, string]> = [
        [manager, pushDaily([day('2032-03-11', 1)])],
        [manager, pushDaily([day('2032-03-10', 9)])],
        [manager, pushDaily([day('2032-04-11', 1), day('2032-03-12', 2)])],
        [manager, `insert into daily_inputs (store_id, entry_date, year, month, day_of_week_iso, row_identifier, metric_type, value) values ('${demo.storeA}', '2032-03-13', 2032, 3, 6, 'W', 'hours', 1)`],
        [manager, `update daily_inputs set value = 7 where entry_date = '2032-03-10'`],
        [manager, `update daily_inputs set deleted_at = now() where entry_date = '2032-03-10'`],
        [manager, `update daily_inputs set entry_date = '2032-03-20' where entry_date = '2032-04-10'`],
        [{ role: 'service_role' }, `delete from daily_inputs where entry_date = '2032-03-10'`],
      ];
      for (const [actor, sql] of attempts) {
        const outcome = await attempt(db, actor, sql);
        expect(outcome, sql).toMatchObject({ error: '23M01' });
        expect((outcome as { message: string }).message, sql).toMatch(reason);
      }
      const { rows } = await db.query<{ value: string }>(`select value::text from daily_inputs where entry_date = '2032-03-10'`);
      expect(rows).toEqual([{ value: '5.00' }]);
    });

    it('leaves other months open', async () => {
      expect(await attempt(db, manager, pushDaily([day('2032-04-12', 3)]))).not.toHaveProperty('error');
      expect(await attempt(db, manager, `update daily_inputs set value = 8 where entry_date = '2032-04-10'`)).toMatchObject({ affected: 1 });
    });

    it('lets only an admin reopen the month, then takes edits again', async () => {
      const reopen = `update month_closures set closed = false where month_start = '2032-03-01'`;
      expect(await attempt(db, manager, reopen)).toMatchObject({ error: '42501' });
      expect(await attempt(db, manager, `update month_closures set deleted_at = now() where month_start = '2032-03-01'`)).toMatchObject({ error: '42501' });
      expect(await attempt(db, { role: 'authenticated', userId: demo.otherId }, reopen)).toMatchObject({ affected: 0 });
      await commitAs(demo.adminId, reopen);
      const { rows } = await db.query<{ closed: boolean; by: string }>(`select closed, reopened_by::text as by from month_closures where month_start = '2032-03-01'`);
      expect(rows).toEqual([{ closed: false, by: demo.adminId }]);
      expect(await attempt(db, manager, pushDaily([day('2032-03-11', 1)]))).not.toHaveProperty('error');
      expect(await attempt(db, admin, `update month_closures set closed = true where month_start = '2032-03-01'`)).toMatchObject({ affected: 1 });
    });
  });
}
