import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../support/as-role.ts';
import { attempt } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

type StoreRows = { store_id: string; name: string; month: { daily: Array<{ value: number }>; targets: unknown[] }; last_year: { daily: unknown[] } };

for (const engine of engines) {
  describe(`store_comparison on ${engine}`, () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase(engine);
      await db.query(
        `insert into daily_inputs (store_id, entry_date, year, month, day_of_week_iso, row_identifier, metric_type, value)
         values ($1, '2034-02-06', 2034, 2, 1, 'CP', 'hours', 11), ($2, '2034-02-06', 2034, 2, 1, 'CP', 'hours', 22),
                ($1, '2033-02-07', 2033, 2, 1, 'CP', 'sales', 900)`,
        [demo.storeA, demo.storeB],
      );
    });
    afterAll(() => db?.dispose());

    it("gives an admin every store's rows for the month and the same month last year", async () => {
      const outcome = await attempt<{ stores: StoreRows[] }>(db, { role: 'authenticated', userId: demo.adminId }, `select public.store_comparison('2034-02-15') as stores`);
      const stores = (outcome as { rows: Array<{ stores: StoreRows[] }> }).rows[0]?.stores ?? [];
      expect(stores.map((s) => s.store_id).sort()).toEqual([demo.storeA, demo.storeB].sort());
      const a = stores.find((s) => s.store_id === demo.storeA);
      const b = stores.find((s) => s.store_id === demo.storeB);
      expect(a?.month.daily.map((d) => d.value)).toEqual([11]);
      expect(b?.month.daily.map((d) => d.value)).toEqual([22]);
      expect(a?.last_year.daily).toHaveLength(1);
      expect(JSON.stringify(stores)).not.toContain('sync_xid');
    });

    it('refuses everyone who is not an admin, at the database', async () => {
      for (const actor of [
        { role: 'authenticated', userId: demo.managerId },
        { role: 'authenticated', userId: demo.otherId },
      ] satisfies Actor[]) {
        expect(await attempt(db, actor, `select public.store_comparison('2034-02-01')`)).toMatchObject({ error: '42501' });
      }
      expect(await attempt(db, { role: 'anon' }, `select public.store_comparison('2034-02-01')`)).toMatchObject({ error: '42501' });
      expect(await attempt(db, { role: 'authenticated', userId: demo.managerId }, `select private.store_month_rows('${demo.storeB}', '2034-02-01')`)).toMatchObject({ error: '42501' });
    });
  });
}
