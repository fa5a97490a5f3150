/**
 * The change history of every synced table, for statements that insert, update and
 * delete many rows at once with typed times, records exactly what the previous trigger
 * function did (installed from its migration, 20260601000100): the same rows, fields,
 * old and new values, key, person, device and typed time.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncedTableNames, syncedTables } from '../../../src/data/synced-tables.ts';
import type { Row } from '../../../supabase/local/db/database.ts';
import { migrationsDir } from '../../../supabase/local/db/migrate.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';
import { addRowsToEveryTable } from './every-table-rows.ts';

/**
 * The `create function private.record_changes()` statement of a migration, calling the
 * registry's lookup where it lives now (20260710000000 moved it out of public).
 */
function recordChangesFrom(migration: string): string {
  const source = readFileSync(`${migrationsDir}/${migration}`, 'utf8');
  const found = /create or replace function private\.record_changes\(\)[\s\S]*?\n\$\$;/.exec(source);
  if (!found) throw new Error(`${migration} no longer defines private.record_changes()`);
  return found[0].replaceAll('public.synced_table_key(', 'private.synced_table_key(');
}
const previous = recordChangesFrom('20260601000100_change_history_per_statement.sql');
const current = recordChangesFrom('20260601000200_change_history_by_column.sql');

const rolledBack = Symbol('rolled back');

// Stores, people and closures are not figures: their changes are not recorded. The store's
// settings and calendar are (its work pattern and Work Mix target make a month's figures).
const notRecorded = ['stores', 'user_dashboard_preferences', 'front_end_team_advisors', 'month_closures'];
const recordedTables = syncedTableNames.filter((table) => !notRecorded.includes(table));

// The store's daily inputs are some 3,500 rows of two years; every statement here works on
// its last 400 (many rows at once all the same, and the two triggers' histories, compared
// field by field, stay a few thousand rows rather than some fifty thousand).
const rowsAtOnce: Record<string, string> = {
  daily_inputs: ' and id in (select id from public.daily_inputs where store_id = $1 order by entry_date desc, id limit 400)',
};

for (const engine of engines) {
  describe(`change history of every synced table on ${engine}`, () => {
    let db: TestDatabase;

    beforeAll(async () => {
      db = await createTestDatabase(engine);
      await addRowsToEveryTable(db);
    });
    afterAll(() => db?.dispose());

    /**
     * As a request of the manager's, the history written by a statement on every row of
     * the store at once: `edit` (by default, each recorded field that may be empty
     * emptied, then every field set back as stored), then all deleted and inserted again.
     * Rolled back afterwards.
     */
    async function historyOf(table: string, edit?: string): Promise<Row[]> {
      const key: readonly string[] = syncedTables[table as keyof typeof syncedTables].key;
      const scope = `store_id = $1${rowsAtOnce[table] ?? ''}`;
      let recorded: Row[] = [];
      try {
        await db.transaction(async (tx) => {
          const { rows: emptiable } = await tx.query<{ field: string }>(
            `select a.attname::text as field from pg_attribute a
              where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped and not a.attnotnull
                and not private.history_ignores(a.attname) and not (a.attname = any ($2::text[]))`,
            [`public.${table}`, key],
          );
          const { rows: stored } = await tx.query<{ row: Row }>(`select to_jsonb(t) as row from public.${table} t where ${scope} order by id`, [demo.storeA]);
          expect(stored.length, `${table} has rows to work on`).toBeGreaterThan(0);
          const typedAt = stored.map(({ row }, n) => ({ k: Object.fromEntries(key.map((k) => [k, row[k]])), at: `2031-04-0${(n % 9) + 1}T08:00:00Z` }));
          await tx.query(
            "select set_config('request.jwt.claims', $1, true), set_config('app.push_typed_at', $2, true), set_config('app.push_device', 'tablet-3', true)",
            [JSON.stringify({ sub: demo.managerId, role: 'authenticated' }), JSON.stringify(typedAt)],
          );
          const asStored = JSON.stringify(stored.map(({ row }) => row));
          if (edit) {
            await tx.query(edit, [demo.storeA]);
          } else if (emptiable.length > 0) {
            await tx.query(`update public.${table} set ${emptiable.map(({ field }) => `"${field}" = null`).join(', ')} where ${scope}`, [demo.storeA]);
            await tx.query(
              `update public.${table} t set ${emptiable.map(({ field }) => `"${field}" = s."${field}"`).join(', ')}
                 from jsonb_populate_recordset(null::public.${table}, $1::jsonb) s where s.id = t.id`,
              [asStored],
            );
          }
          await tx.query(`delete from public.${table} where ${scope}`, [demo.storeA]);
          await tx.query(`insert into public.${table} select * from jsonb_populate_recordset(null::public.${table}, $1::jsonb)`, [asStored]);
          const { rows } = await tx.query(
            `select store_id, table_name, row_key, field, old_value, new_value, changed_by, changed_by_name, device_id, typed_at
               from audit.change_history where table_name = $1
              order by row_key::text, field, old_value::text nulls first, new_value::text nulls first`,
            [table],
          );
          recorded = rows;
          throw rolledBack;
        });
      } catch (error) {
        if (error !== rolledBack) throw error;
      }
      return recorded;
    }

    it('has a history trigger on the tables of figures, and only on them', async () => {
      const { rows } = await db.query<{ table: string }>(
        "select distinct c.relname::text as table from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.tgname like 'record_change_%' order by 1",
      );
      expect(rows.map((row) => row.table)).toEqual([...recordedTables].sort());
    });

    it.each(recordedTables)('records %s as the previous trigger did', async (table) => {
      const now = await historyOf(table);
      await db.exec(previous);
      try {
        expect(now).toEqual(await historyOf(table));
      } finally {
        await db.exec(current);
      }
      // Deletes and inserts are recorded for every table; the history is not empty by accident.
      expect(now.some((row) => row.old_value === null && row.new_value !== null)).toBe(true);
      expect(now.some((row) => row.old_value !== null && row.new_value === null)).toBe(true);
      expect(now.every((row) => row.changed_by === demo.managerId && row.device_id === 'tablet-3' && row.typed_at !== null)).toBe(true);
    });

    it('records edits that change a value, as the previous trigger did', async () => {
      const halve = `update public.daily_inputs set value = value / 2 where store_id = $1${rowsAtOnce.daily_inputs} and value > 0`;
      const edits = (rows: Row[]) => rows.filter((row) => row.old_value !== null && row.new_value !== null && row.old_value !== 'null' && row.new_value !== 'null');
      const now = edits(await historyOf('daily_inputs', halve));
      expect(now.length).toBeGreaterThan(10);
      await db.exec(previous);
      try {
        expect(now).toEqual(edits(await historyOf('daily_inputs', halve)));
      } finally {
        await db.exec(current);
      }
    });
  });
}
