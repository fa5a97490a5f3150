import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../support/as-role.ts';
import { asActor, attempt } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { untilTrue } from '../../support/poll.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

const manager: Actor = { role: 'authenticated', userId: demo.managerId };

type PullPage = { rows: Array<Record<string, unknown>>; has_more: boolean; cursor: Record<string, unknown> };

async function pullPage(db: TestDatabase, table: string, cursor: unknown, limit = 500): Promise<PullPage> {
  return asActor(db, manager, async (tx) => {
    const { rows } = await tx.query<{ page: PullPage }>('select public.pull_changes($1, $2, $3) as page', [
      table,
      cursor === null ? null : JSON.stringify(cursor),
      limit,
    ]);
    const page = rows[0]?.page;
    if (!page) throw new Error('pull_changes returned nothing');
    return typeof page === 'string' ? (JSON.parse(page) as PullPage) : page;
  });
}

/** Pulls until has_more is false; returns every row received and the resting cursor. */
async function pullAll(db: TestDatabase, table: string, cursor: unknown, limit = 500) {
  const rows: Array<Record<string, unknown>> = [];
  let pages = 0;
  for (;;) {
    const page = await pullPage(db, table, cursor, limit);
    rows.push(...page.rows);
    cursor = page.cursor;
    pages += 1;
    if (!page.has_more) return { rows, cursor, pages };
  }
}

for (const engine of engines) {
  describe(`pull_changes on ${engine}`, () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase(engine);
    });
    afterAll(() => db?.dispose());

    it("brings every row of the caller's store once, in pages, then nothing until something changes", async () => {
      const expected = await db.query<{ n: number }>(
        'select count(*)::int as n from public.daily_inputs where store_id = $1',
        [demo.storeA],
      );
      const first = await pullAll(db, 'daily_inputs', null, 100);
      const ids = first.rows.map((row) => row.id);
      expect(ids.length).toBe(expected.rows[0]?.n);
      expect(new Set(ids).size).toBe(ids.length);
      expect(first.pages).toBeGreaterThan(1);
      expect(first.rows.every((row) => row.store_id === demo.storeA)).toBe(true);
      expect(first.rows[0]).not.toHaveProperty('sync_xid');

      const idle = await pullAll(db, 'daily_inputs', first.cursor);
      expect(idle.rows).toEqual([]);

      const target = first.rows[5];
      await db.query('update public.daily_inputs set value = 999 where id = $1', [target?.id]);
      const next = await pullAll(db, 'daily_inputs', idle.cursor);
      expect(next.rows.map((row) => [row.id, Number(row.value)])).toEqual([[target?.id, 999]]);
    });

    it('pages through one large transaction without losing or repeating rows', async () => {
      const start = await pullAll(db, 'monthly_targets', null);
      await db.query(
        `insert into public.monthly_targets (store_id, year, month, metric_key, target_value)
         select $1, y, m, k, 1 from generate_series(2040, 2049) y, generate_series(1, 12) m,
           unnest(array['hoursPerDay','salesPerDay','cpElr','warrantyElr','internalElr','totalElr',
                        'daysComplete','rosOver45Days','weOweOver30Days','grossPerEmployee']) k`,
        [demo.storeA],
      );
      const after = await pullAll(db, 'monthly_targets', start.cursor, 250);
      const ids = after.rows.map((row) => row.id);
      expect(ids.length).toBe(1200);
      expect(new Set(ids).size).toBe(1200);
      expect(after.pages).toBe(5);
    });

    it('shows retired rows (deleted_at) so clients can remove them', async () => {
      const start = await pullAll(db, 'front_end_team_advisors', null);
      await db.query('update public.front_end_team_advisors set deleted_at = now() where id = $1', [demo.advisorA]);
      const after = await pullAll(db, 'front_end_team_advisors', start.cursor);
      expect(after.rows).toMatchObject([{ id: demo.advisorA, deleted_at: expect.any(String) }]);
    });

    it('keeps rows from a minimum year on, for tables with a year or month_year', async () => {
      const since = async (table: string, minYear: number | null) => {
        const rows = await asActor(db, manager, async (tx) =>
          (await tx.query<{ page: PullPage | string }>('select public.pull_changes($1, null, 1000, $2) as page', [table, minYear])).rows,
        );
        const page = rows[0]?.page;
        return (typeof page === 'string' ? (JSON.parse(page) as PullPage) : (page as PullPage)).rows;
      };
      const thisYear = new Date().getUTCFullYear();
      await db.query(`insert into public.yearly_financial_inputs (store_id, year, month, sales) values ($1, 2020, 1, 1)`, [demo.storeA]);
      const recent = await since('yearly_financial_inputs', thisYear - 1);
      expect(recent.length).toBeGreaterThan(0);
      expect(recent.every((row) => Number(row.year) >= thisYear - 1)).toBe(true);
      const all = await since('yearly_financial_inputs', null);
      expect(all.some((row) => Number(row.year) === 2020)).toBe(true);
      expect(all.length).toBe(recent.length + 1);
      const gross = await since('monthly_labor_gross_inputs', thisYear + 1);
      expect(gross).toEqual([]);
      expect((await since('stores', thisYear + 5)).map((row) => row.name)).toEqual(['Demo Motors']);
    });

    it('refuses unknown tables, silly limits and anonymous callers', async () => {
      expect(await attempt(db, manager, "select public.pull_changes('pg_authid')")).toMatchObject({ error: '22023' });
      expect(await attempt(db, manager, "select public.pull_changes('daily_inputs', null, 0)")).toMatchObject({
        error: '22023',
      });
      expect(await attempt(db, { role: 'anon' }, "select public.pull_changes('daily_inputs')")).toMatchObject({
        error: '42501',
      });
    });
  });
}

// Two writers whose transactions commit out of order need two connections at once,
// which only a real server has (PGlite serialises every transaction).
describe.runIf(engines.includes('postgres'))('pull_changes with transactions committing out of order', () => {
  let db: TestDatabase;
  const writers: pg.Client[] = [];
  beforeAll(async () => {
    db = await createTestDatabase('postgres', { seed: true });
  });
  afterAll(async () => {
    await Promise.all(writers.map((client) => client.end()));
    await db?.dispose();
  });

  it('still delivers the row of the transaction that started first but committed last', async () => {
    const url = await db.query<{ db: string }>('select current_database() as db');
    const connection = new URL(process.env.TEST_DATABASE_URL ?? '');
    connection.pathname = `/${url.rows[0]?.db}`;
    for (let i = 0; i < 2; i += 1) {
      const client = new pg.Client({ connectionString: connection.toString() });
      await client.connect();
      writers.push(client);
    }
    const [early, late] = writers as [pg.Client, pg.Client];
    const start = await pullAll(db, 'yearly_financial_inputs', null);

    // The early transaction takes its xid first, and also its now(): with an updated_at
    // cursor its row would look older than the pull in between and be skipped forever.
    await early.query('begin');
    await early.query(
      `insert into public.yearly_financial_inputs (store_id, year, month, sales) values ($1, 2035, 1, 111)`,
      [demo.storeA],
    );
    await late.query('begin');
    await late.query(
      `insert into public.yearly_financial_inputs (store_id, year, month, sales) values ($1, 2035, 2, 222)`,
      [demo.storeA],
    );
    await late.query('commit');

    const between = await pullAll(db, 'yearly_financial_inputs', start.cursor);
    expect(between.rows.map((row) => Number(row.sales))).toEqual([222]);

    await early.query('commit');
    const after = await pullAll(db, 'yearly_financial_inputs', between.cursor);
    const seen = new Set([...between.rows, ...after.rows].map((row) => Number(row.sales)));
    expect(seen).toEqual(new Set([111, 222]));

    // Once every transaction that was open has ended, a pull brings nothing new. A
    // transaction still open anywhere on the server (a neighbouring test's, in another
    // database) holds the pull's horizon back, and rows committed after that horizon come
    // again: at least once, never lost. So later pulls may repeat these rows, and only
    // these, until the server is quiet.
    let cursor = after.cursor;
    const repeated: number[] = [];
    await untilTrue(
      async () => {
        const next = await pullAll(db, 'yearly_financial_inputs', cursor);
        cursor = next.cursor;
        repeated.push(...next.rows.map((row) => Number(row.sales)));
        return next.rows.length === 0;
      },
      30_000,
      'a pull that brings nothing',
      200,
    );
    expect(repeated.filter((sales) => !seen.has(sales))).toEqual([]);
  });
});
