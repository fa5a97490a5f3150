import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncedTableNames } from '../../../src/data/synced-tables.ts';
import { serviceLimits } from '../../../src/domain/limits.ts';
import type { Queryable } from '../../../supabase/local/db/database.ts';
import type { Actor } from '../../support/as-role.ts';
import { asActor, attempt } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

// A first sync in a handful of requests: pull_changes_many must bring exactly the rows
// pull_changes brings table by table (same row-level security, same cursors, nothing
// twice, nothing skipped), within its row budget; pull_row_counts must say how many.

type Page = { table: string; rows: Array<{ id: string }>; cursor: unknown; has_more: boolean };

const manager: Actor = { role: 'authenticated', userId: demo.managerId };
const other: Actor = { role: 'authenticated', userId: demo.otherId };
const minYear = new Date().getUTCFullYear() - 1;

/** Every table pulled to its end with pull_changes_many calls of `budget` rows; the pages and how many calls it took. */
async function pullAllMany(tx: Queryable, tables: readonly string[], budget: number) {
  const cursors = new Map<string, unknown>(tables.map((table) => [table, null]));
  const pages: Page[] = [];
  let calls = 0;
  while (cursors.size > 0) {
    const requests = [...cursors].map(([table, cursor]) => ({ table, cursor, min_year: minYear }));
    const { rows } = await tx.query<{ answer: { pages: Page[] } }>('select public.pull_changes_many($1::jsonb, $2) as answer', [JSON.stringify(requests), budget]);
    calls += 1;
    const answered = rows[0]?.answer.pages ?? [];
    expect(answered.reduce((sum, page) => sum + page.rows.length, 0)).toBeLessThanOrEqual(budget);
    for (const page of answered) {
      pages.push(page);
      if (page.has_more) cursors.set(page.table, page.cursor);
      else cursors.delete(page.table);
    }
    if (calls > 1000) throw new Error('pull_changes_many made no progress');
  }
  return { pages, calls };
}

/** Every table pulled to its end with pull_changes, a table and a page at a time. */
async function pullAllOneByOne(tx: Queryable, tables: readonly string[]) {
  const ids = new Map<string, string[]>();
  for (const table of tables) {
    let cursor: unknown = null;
    const seen: string[] = [];
    for (;;) {
      const { rows } = await tx.query<{ page: Page }>('select public.pull_changes($1, $2::jsonb, 1000, $3) as page', [table, JSON.stringify(cursor), minYear]);
      const page = rows[0]?.page as Page;
      seen.push(...page.rows.map((row) => row.id));
      if (!page.has_more) break;
      cursor = page.cursor;
    }
    ids.set(table, seen);
  }
  return ids;
}

function idsByTable(pages: Page[]) {
  const ids = new Map<string, string[]>();
  for (const page of pages) ids.set(page.table, [...(ids.get(page.table) ?? []), ...page.rows.map((row) => row.id)]);
  return ids;
}

for (const engine of engines) {
  describe(`pull_changes_many and pull_row_counts on ${engine}`, () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase(engine);
    });
    afterAll(() => db?.dispose());

    it('brings every row pull_changes brings, once each, in a few requests, and the counts say how many', async () => {
      const result = await asActor(db, manager, async (tx) => {
        const many = await pullAllMany(tx, syncedTableNames, serviceLimits.pullRequestRows);
        const oneByOne = await pullAllOneByOne(tx, syncedTableNames);
        const { rows } = await tx.query<{ counts: Record<string, number> }>('select public.pull_row_counts($1::text[], $2) as counts', [syncedTableNames, minYear]);
        return { many, oneByOne, counts: rows[0]?.counts ?? {} };
      });
      const pulled = idsByTable(result.many.pages);
      let total = 0;
      for (const table of syncedTableNames) {
        const ids = pulled.get(table) ?? [];
        expect(ids, table).toEqual(result.oneByOne.get(table));
        expect(new Set(ids).size, `${table} has no row twice`).toBe(ids.length);
        expect(result.counts[table], `${table} counted`).toBe(ids.length);
        total += ids.length;
      }
      // The demo store is thousands of rows: more than one request, far fewer than a table each.
      expect(total).toBeGreaterThan(serviceLimits.pullPageRows);
      expect(result.many.calls).toBe(Math.ceil((total + 1) / serviceLimits.pullRequestRows));
    });

    it('brings each row exactly as pull_changes does, every field of every synced table', async () => {
      const { many, single } = await asActor(db, manager, async (tx) => {
        const pulled = await pullAllMany(tx, syncedTableNames, serviceLimits.pullRequestRows);
        const rows = new Map<string, unknown[]>();
        for (const table of syncedTableNames) {
          const all: unknown[] = [];
          let cursor: unknown = null;
          for (;;) {
            const { rows: answer } = await tx.query<{ page: Page }>('select public.pull_changes($1, $2::jsonb, 1000, $3) as page', [table, JSON.stringify(cursor), minYear]);
            const page = answer[0]?.page as Page;
            all.push(...page.rows);
            if (!page.has_more) break;
            cursor = page.cursor;
          }
          rows.set(table, all);
        }
        return { many: pulled.pages, single: rows };
      });
      let compared = 0;
      for (const table of syncedTableNames) {
        const fromMany = many.filter((page) => page.table === table).flatMap((page) => page.rows);
        expect(fromMany, table).toEqual(single.get(table));
        for (const row of fromMany) expect(row, `${table} leaves sync_xid out`).not.toHaveProperty('sync_xid');
        compared += fromMany.length;
      }
      expect(compared).toBeGreaterThan(serviceLimits.pullPageRows);
    });

    it('keeps to a small budget and carries on from its cursors without gaps or repeats', async () => {
      const tables = ['stores', 'monthly_targets', 'store_settings'];
      const result = await asActor(db, manager, async (tx) => ({
        many: await pullAllMany(tx, tables, 7),
        oneByOne: await pullAllOneByOne(tx, tables),
      }));
      expect(idsByTable(result.many.pages)).toEqual(new Map(tables.map((table) => [table, result.oneByOne.get(table)])));
      expect(result.many.calls).toBeGreaterThan(1);
    });

    it("shows another store's user none of the demo store's rows", async () => {
      const mine = await asActor(db, manager, (tx) => pullAllMany(tx, ['daily_inputs'], serviceLimits.pullRequestRows));
      const theirs = await asActor(db, other, (tx) => pullAllMany(tx, ['daily_inputs'], serviceLimits.pullRequestRows));
      const mineIds = new Set(idsByTable(mine.pages).get('daily_inputs'));
      expect(mineIds.size).toBeGreaterThan(0);
      expect((idsByTable(theirs.pages).get('daily_inputs') ?? []).filter((id) => mineIds.has(id))).toEqual([]);
    });

    it('refuses a budget over the limit, requests that are not a list of tables, an unknown table, and anonymous callers', async () => {
      const call = (actor: Actor, requests: unknown, budget: number) =>
        attempt(db, actor, 'select public.pull_changes_many($1::jsonb, $2) as answer', [JSON.stringify(requests), budget]);
      const valid = [{ table: 'stores', cursor: null }];
      expect(await call(manager, valid, serviceLimits.pullRequestRows + 1)).toMatchObject({ error: '22023' });
      expect(await call(manager, valid, 0)).toMatchObject({ error: '22023' });
      expect(await call(manager, { table: 'stores' }, 10)).toMatchObject({ error: '22023' });
      expect(await call(manager, [{ cursor: null }], 10)).toMatchObject({ error: '22023' });
      expect(await call(manager, [{ table: 'pg_authid' }], 10)).toMatchObject({ error: '22023' });
      expect(await call({ role: 'anon' }, valid, 10)).toMatchObject({ error: '42501' });
      expect(await attempt(db, manager, 'select public.pull_row_counts($1::text[], null) as counts', [['pg_authid']])).toMatchObject({ error: '22023' });
      expect(await attempt(db, { role: 'anon' }, 'select public.pull_row_counts($1::text[], null) as counts', [['stores']])).toMatchObject({ error: '42501' });
    });
  });
}
