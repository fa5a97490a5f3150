import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../support/as-role.ts';
import { attempt } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

/** A store of its own, so the counts are the rows this test wrote and nothing of the demo data. */
const storeC = '33333333-3333-4333-8333-333333333333';
const advisorC = 'cccccccc-3333-4333-8333-333333333333';

type Impact = { exists: boolean; users: number; rows: Record<string, number> };

for (const engine of engines) {
  describe(`store_deletion_impact on ${engine}`, () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase(engine);
      await db.query(`insert into stores (id, name) values ($1, 'Closing Store')`, [storeC]);
      await db.query(
        `insert into auth.users (id, email, raw_app_meta_data) values
           ('aaaaaaaa-3333-4000-8000-000000000001', 'c1@example.com', jsonb_build_object('store_id', $1::text)),
           ('aaaaaaaa-3333-4000-8000-000000000002', 'c2@example.com', jsonb_build_object('store_id', $1::text)),
           -- Only the authoritative app_metadata assigns a store: this one merely claims it.
           ('aaaaaaaa-3333-4000-8000-000000000003', 'c3@example.com', '{}'::jsonb)`,
        [storeC],
      );
      await db.query(`update auth.users set raw_user_meta_data = jsonb_build_object('store_id', $1::text) where email = 'c3@example.com'`, [storeC]);
      await db.query(
        `insert into daily_inputs (store_id, entry_date, year, month, day_of_week_iso, row_identifier, metric_type, value)
         values ($1, '2034-02-06', 2034, 2, 1, 'CP', 'hours', 11), ($1, '2034-02-06', 2034, 2, 1, 'CP', 'sales', 900),
                ($1, '2034-02-07', 2034, 2, 2, 'CP', 'hours', 12)`,
        [storeC],
      );
      // A figure already retired is not one the deletion takes away.
      await db.query(
        `insert into daily_inputs (store_id, entry_date, year, month, day_of_week_iso, row_identifier, metric_type, value, deleted_at)
         values ($1, '2034-02-08', 2034, 2, 3, 'CP', 'hours', 13, now())`,
        [storeC],
      );
      await db.query(
        `insert into weekly_store_performance (store_id, year, week_start_date, week_end_date, days_complete, work_days)
         values ($1, 2034, '2034-02-05', '2034-02-11', 2, 6)`,
        [storeC],
      );
      await db.query(`insert into front_end_team_advisors (id, store_id, advisor_name) values ($1, $2, 'Casey')`, [advisorC, storeC]);
    });
    afterAll(() => db?.dispose());

    const impact = async (store: string | null) => {
      const outcome = await attempt<{ impact: Impact }>(db, { role: 'authenticated', userId: demo.adminId }, `select public.store_deletion_impact($1) as impact`, [store]);
      if ('error' in outcome) throw new Error(`${outcome.error}: ${outcome.message}`);
      return outcome.rows[0]?.impact;
    };

    it("tells an admin how many accounts and live rows of each table go with a store", async () => {
      expect(await impact(storeC)).toEqual({
        exists: true,
        users: 2,
        rows: { daily_inputs: 3, weekly_store_performance: 1, front_end_team_advisors: 1 },
      });
    });

    it('answers nothing to lose for a store that does not exist', async () => {
      expect(await impact('44444444-4444-4444-8444-444444444444')).toEqual({ exists: false, users: 0, rows: {} });
    });

    it('refuses a missing store id with a clear message', async () => {
      const outcome = await attempt(db, { role: 'authenticated', userId: demo.adminId }, `select public.store_deletion_impact(null)`);
      expect(outcome).toMatchObject({ error: '22023' });
    });

    it('refuses everyone who is not an admin, at the database', async () => {
      for (const actor of [
        { role: 'authenticated', userId: demo.managerId },
        { role: 'authenticated', userId: demo.otherId },
        { role: 'anon' },
      ] satisfies Actor[]) {
        expect(await attempt(db, actor, `select public.store_deletion_impact('${storeC}')`)).toMatchObject({ error: '42501' });
      }
    });
  });
}
