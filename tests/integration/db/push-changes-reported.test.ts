import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../support/as-role.ts';
import { attempt } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

const manager: Actor = { role: 'authenticated', userId: demo.managerId };
const push = (rows: unknown, table = 'yearly_financial_inputs') =>
  `select public.push_changes_reported('${table}', '${JSON.stringify(rows).replaceAll("'", "''")}'::jsonb) as answer`;

for (const engine of engines) {
  describe(`push_changes_reported on ${engine}`, () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase(engine);
      await db.query('insert into yearly_financial_inputs (store_id, year, month, sales, gp_net) values ($1, 2032, 1, 100, 70)', [demo.storeA]);
    });
    afterAll(() => db?.dispose());

    it('answers the stored rows and each row as it was before the push, null for a new one', async () => {
      const outcome = await attempt(db, manager, push([
        { store_id: demo.storeA, year: 2032, month: 1, sales: 150 },
        { store_id: demo.storeA, year: 2032, month: 2, sales: 90 },
      ]));
      expect(outcome).toMatchObject({
        rows: [{ answer: { rows: [{ month: 1, sales: 150, gp_net: 70 }, { month: 2, sales: 90 }], before: [{ month: 1, sales: 100, gp_net: 70 }, null] } }],
      });
      const before = (outcome as unknown as { rows: Array<{ answer: { before: Array<Record<string, unknown> | null> } }> }).rows[0]?.answer.before[0];
      expect(before).not.toHaveProperty('sync_xid');
    });

    it("leaves every refusal to push_changes, with push_changes' own codes, and writes nothing", async () => {
      const cases: Array<[unknown, string, string]> = [
        [[{ store_id: demo.storeA, year: 2032, month: 1, nope: 1 }], 'yearly_financial_inputs', '42703'],
        [[{ store_id: demo.storeB, year: 2032, month: 4, sales: 1 }], 'yearly_financial_inputs', '42501'],
        [[1, 2], 'yearly_financial_inputs', '22023'],
        [{ not: 'an array' }, 'yearly_financial_inputs', '22023'],
        [[{ store_id: demo.storeA, year: 2032, month: 1, sales: 1 }], 'pg_authid', '22023'],
      ];
      for (const [rows, table, code] of cases) {
        expect(await attempt(db, manager, push(rows, table)), JSON.stringify(rows)).toMatchObject({ error: code });
      }
      expect(await attempt(db, { role: 'anon' }, push([]))).toMatchObject({ error: '42501' });
      const { rows } = await db.query<{ n: string }>('select count(*)::text as n from yearly_financial_inputs where year = 2032 and month in (3, 4)');
      expect(rows[0]?.n).toBe('0');
    });

    it("does not show a row of another store as it was", async () => {
      await db.query('insert into yearly_financial_inputs (store_id, year, month, sales) values ($1, 2032, 5, 55)', [demo.storeB]);
      const outcome = await attempt(db, manager, push([{ store_id: demo.storeB, year: 2032, month: 5, sales: 1 }]));
      expect(outcome).toMatchObject({ error: '42501' });
      expect(JSON.stringify(outcome)).not.toContain('55');
    });
  });
}
