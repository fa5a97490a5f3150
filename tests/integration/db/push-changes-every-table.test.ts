/**
 * Every synced table through push_changes: the store's rows sent again, whole (every
 * column type goes through the batch path) or as their key only, answer and store exactly
 * as the previous, row-by-row function did (installed from its migration), on each engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncedTableNames, syncedTables } from '../../../src/data/synced-tables.ts';
import { serviceLimits } from '../../../src/domain/limits.ts';
import type { Row } from '../../../supabase/local/db/database.ts';
import { isPostgresError } from '../../../supabase/local/db/database.ts';
import type { Actor } from '../../support/as-role.ts';
import { asActor } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';
import type { PushFunction } from './previous-push-changes.ts';
import { comparable, installPreviousPushChanges } from './previous-push-changes.ts';
import { addRowsToEveryTable } from './every-table-rows.ts';

const manager: Actor = { role: 'authenticated', userId: demo.managerId };

for (const engine of engines) {
  describe(`push_changes on every synced table on ${engine}`, () => {
    let db: TestDatabase;

    beforeAll(async () => {
      db = await createTestDatabase(engine);
      await installPreviousPushChanges(db);
      await addRowsToEveryTable(db);
    });
    afterAll(() => db?.dispose());

    it.each(syncedTableNames)('answers and stores as before when %s rows are sent again, whole or as their key only', async (table) => {
      // The manager's own rows of the seed, every writable column as stored: all column types go through the batch path.
      const sendAgain = async (fn: PushFunction, keyOnly: boolean) => {
        try {
          return await asActor(db, manager, async (tx) => {
            const stored = `select to_jsonb(t) - 'sync_xid' - 'updated_at' as row from public.${table} t order by t.id limit ${serviceLimits.pushBatchRows}`;
            const { rows: before } = await tx.query<{ row: Row }>(stored);
            const keyColumns: readonly string[] = syncedTables[table].key;
            const rows = before.map(({ row }) => (keyOnly ? Object.fromEntries(keyColumns.map((k) => [k, row[k]])) : row));
            const { rows: answer } = await tx.query<{ rows: Row[] }>(`select public.${fn}($1, $2::jsonb) as rows`, [table, JSON.stringify(rows)]);
            const { rows: after } = await tx.query<{ row: Row }>(stored);
            return { ok: true, sent: rows.length, answer: (answer[0]?.rows ?? []).map(comparable), after: after.map(({ row }) => comparable(row)) };
          });
        } catch (error) {
          if (isPostgresError(error)) return { ok: false, code: error.code, message: error.message };
          throw error;
        }
      };
      for (const keyOnly of [false, true]) {
        const now = await sendAgain('push_changes', keyOnly);
        expect(now).toEqual(await sendAgain('push_changes_before', keyOnly));
        if (table !== 'stores') expect(now).toMatchObject({ ok: true, sent: expect.any(Number) });
        if ('sent' in now) expect(now.sent, table).toBeGreaterThan(0);
      }
    });

  });
}
