import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceLimits } from '../../../src/domain/limits.ts';
import type { Actor } from '../../support/as-role.ts';
import { asActor, attempt } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

// The batch bounds the migrations enforce are the numbers in src/domain/limits.ts.

const manager: Actor = { role: 'authenticated', userId: demo.managerId };

/** `count` distinct yearly rows of store A, months of the years from 2000 on. */
function yearlyRows(count: number) {
  return Array.from({ length: count }, (_, i) => ({ store_id: demo.storeA, year: 2000 + Math.floor(i / 12), month: (i % 12) + 1, sales: 1 }));
}

for (const engine of engines) {
  describe(`batch limits in the migrations on ${engine}`, () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase(engine);
      // The pushed rows are all new: the store starts without yearly figures.
      await db.query('delete from yearly_financial_inputs where store_id = $1', [demo.storeA]);
    });
    afterAll(() => db?.dispose());
    const storedYearlyRows = async () =>
      Number((await db.query<{ n: string }>('select count(*)::text as n from yearly_financial_inputs where store_id = $1', [demo.storeA])).rows[0]?.n);

    it(`push_changes takes ${serviceLimits.pushBatchRows} rows and refuses one more as a whole, with the limit in the message`, async () => {
      const before = await storedYearlyRows();
      const over = await attempt(db, manager, 'select public.push_changes($1, $2::jsonb) as rows', [
        'yearly_financial_inputs',
        JSON.stringify(yearlyRows(serviceLimits.pushBatchRows + 1)),
      ]);
      expect(over).toMatchObject({ error: '22023' });
      expect('message' in over ? over.message : '').toContain(`at most ${serviceLimits.pushBatchRows}`);
      expect(await storedYearlyRows()).toBe(before);

      const written = await asActor(db, manager, async (tx) => {
        const { rows } = await tx.query<{ rows: unknown[] }>('select public.push_changes($1, $2::jsonb) as rows', [
          'yearly_financial_inputs',
          JSON.stringify(yearlyRows(serviceLimits.pushBatchRows)),
        ]);
        const stored = await tx.query<{ n: string }>('select count(*)::text as n from yearly_financial_inputs where store_id = $1', [demo.storeA]);
        return { answered: rows[0]?.rows.length, stored: Number(stored.rows[0]?.n) };
      });
      expect(written).toEqual({ answered: serviceLimits.pushBatchRows, stored: before + serviceLimits.pushBatchRows });
    });

    it(`pull_changes pages at most ${serviceLimits.pullPageRows} rows`, async () => {
      const pull = (limit: number) =>
        attempt(db, manager, 'select public.pull_changes($1, null, $2) as page', ['daily_inputs', limit]);
      // The demo store has more daily rows than one page holds: a full page, and more to come.
      const full = await pull(serviceLimits.pullPageRows);
      expect(full).toMatchObject({ rows: [{ page: { has_more: true } }] });
      expect('rows' in full && (full.rows[0]?.page as { rows: unknown[] }).rows.length).toBe(serviceLimits.pullPageRows);
      expect(await pull(serviceLimits.pullPageRows + 1)).toMatchObject({ error: '22023' });
    });
  });
}
