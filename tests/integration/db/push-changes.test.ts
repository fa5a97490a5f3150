import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncedTableNames, syncedTables } from '../../../src/data/synced-tables.ts';
import type { Actor } from '../../support/as-role.ts';
import { attempt } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

const manager: Actor = { role: 'authenticated', userId: demo.managerId };
const push = (table: string, rows: unknown) =>
  `select public.push_changes('${table}', '${JSON.stringify(rows).replaceAll("'", "''")}'::jsonb) as rows`;

for (const engine of engines) {
  describe(`push_changes on ${engine}`, () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase(engine);
      await db.query(
        'insert into yearly_financial_inputs (store_id, year, month, sales, gp_net, fixed_exp) values ($1, 2031, 1, 100, 70, 5)',
        [demo.storeA],
      );
    });
    afterAll(() => db?.dispose());
    const yearly = async () =>
      (await db.query('select month, sales::text, gp_net::text, fixed_exp::text from yearly_financial_inputs where year = 2031 order by month')).rows;

    it('updates only the sent fields of an existing row, inserts a missing one, and answers both rows', async () => {
      const outcome = await attempt(db, manager, push('yearly_financial_inputs', [
        { store_id: demo.storeA, year: 2031, month: 1, sales: 150 },
        { store_id: demo.storeA, year: 2031, month: 2, sales: 90, gp_net: 60 },
      ]));
      expect(outcome).toMatchObject({ rows: [{ rows: [{ month: 1, sales: 150, gp_net: 70 }, { month: 2, sales: 90 }] }] });
    });

    it('writes the same batch twice with the same result (idempotent)', async () => {
      const batch = [{ store_id: demo.storeA, year: 2031, month: 3, sales: 10, fixed_exp: 1 }];
      for (let i = 0; i < 2; i += 1) {
        await db.transaction(async (tx) => {
          await tx.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [
            JSON.stringify({ sub: demo.managerId, role: 'authenticated' }),
          ]);
          await tx.query(push('yearly_financial_inputs', batch));
        });
      }
      expect((await yearly()).filter((row) => row.month === 3)).toEqual([{ month: 3, sales: '10.00', gp_net: null, fixed_exp: '1.00' }]);
    });

    it('refuses unknown or server-owned columns, rows without their key, other stores, and unknown tables', async () => {
      const cases: Array<[unknown, string, string]> = [
        [[{ store_id: demo.storeA, year: 2031, month: 1, nope: 1 }], 'yearly_financial_inputs', '42703'],
        [[{ store_id: demo.storeA, year: 2031, month: 1, sync_xid: '1' }], 'yearly_financial_inputs', '42703'],
        [[{ store_id: demo.storeA, year: 2031, sales: 1 }], 'yearly_financial_inputs', '22023'],
        [[{ store_id: demo.storeB, year: 2031, month: 4, sales: 1 }], 'yearly_financial_inputs', '42501'],
        [{ not: 'an array' }, 'yearly_financial_inputs', '22023'],
        [[], 'pg_authid', '22023'],
      ];
      for (const [rows, table, code] of cases) {
        expect(await attempt(db, manager, push(table, rows)), JSON.stringify(rows)).toMatchObject({ error: code });
      }
      expect(await attempt(db, { role: 'anon' }, push('yearly_financial_inputs', []))).toMatchObject({ error: '42501' });
    });
  });
}

describe('the natural keys the client pushes by', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('pglite', { seed: false });
  });
  afterAll(() => db?.dispose());

  it('are exactly a primary key or unique constraint of each server table', async () => {
    const { rows } = await db.query<{ table: string; columns: string[] | string }>(
      `select c.relname as table,
              (select array_agg(a.attname::text order by k.ord) from unnest(con.conkey) with ordinality k(attnum, ord)
               join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum) as columns
       from pg_constraint con join pg_class c on c.oid = con.conrelid
       join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and con.contype in ('p', 'u')`,
    );
    const constraints = rows.map((row) => `${row.table}:${(Array.isArray(row.columns) ? row.columns : String(row.columns).replace(/[{}]/g, '').split(',')).join(',')}`);
    for (const table of syncedTableNames) {
      expect(constraints, table).toContain(`${table}:${syncedTables[table].key.join(',')}`);
    }
  });
});
