/**
 * Every change to a figure is in the history, by any path: each table the history
 * audits, each of its columns, each way a signed-in person can write (REST's insert,
 * update, upsert on the key or on the id, delete; push_changes and push_changes_reported,
 * the only writing functions), on each engine. A figure's identity (its id and natural
 * key) cannot change in place: that is refused. Server stamps (created_at, updated_at,
 * sync_xid) are the server's whatever a request sends. Tables, columns and values come
 * from the catalog and the shared field limits (every-path-cases.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Row } from '../../../supabase/local/db/database.ts';
import { isPostgresError } from '../../../supabase/local/db/database.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';
import type { WalkedColumn, WalkedTable } from './every-path-cases.ts';
import { auditedTables, changedValue, writingRpcs } from './every-path-cases.ts';
import { addRowsToEveryTable } from './every-table-rows.ts';

const identityRefused = '23I01';
const device = 'walk-device';
const forgedTime = '2000-01-01T00:00:00+00:00';
const rolledBack = Symbol('rolled back');

type History = { field: string; old_value: unknown; new_value: unknown; changed_by: string; changed_by_name: string; device_id: string; arrived_now: boolean };
type Written = { before: Row | null; after: Row | null; now: unknown; history: History[] };
type Outcome = { ok: true; written: Written } | { ok: false; code: string; message: string };

const updatePaths = ['PATCH', 'upsert on key', 'upsert on id', 'push_changes', 'push_changes_reported'] as const;
const insertPaths = ['POST', 'upsert on key', 'push_changes', 'push_changes_reported'] as const;
type Path = (typeof updatePaths)[number] | (typeof insertPaths)[number];

/** The statement a path runs for `row` (what it sends: the whole row, or the key and one field; PATCH the field of row `id`). */
function write(table: WalkedTable, path: Path, row: Row, id?: unknown): [string, unknown[]] {
  const t = `public.${table.name}`;
  const columns = Object.keys(row).map((c) => `"${c}"`);
  const sets = (skip: string[]) => columns.filter((c) => !skip.includes(c)).map((c) => `${c} = excluded.${c}`).join(', ');
  const insert = `insert into ${t} (${columns.join(', ')}) select ${columns.join(', ')} from jsonb_populate_record(null::${t}, $1)`;
  switch (path) {
    case 'PATCH': {
      const [column] = columns;
      return [`update ${t} set ${column} = (jsonb_populate_record(null::${t}, $1)).${column} where id = $2`, [row, id]];
    }
    case 'POST':
      return [insert, [row]];
    case 'upsert on key':
      return [`${insert} on conflict (${table.key.map((k) => `"${k}"`).join(', ')}) do update set ${sets([])}`, [row]];
    case 'upsert on id':
      return [`${insert} on conflict (id) do update set ${sets(['"id"'])}`, [row]];
    case 'push_changes':
      return ['select public.push_changes($1, $2::jsonb)', [table.name, JSON.stringify([row])]];
    case 'push_changes_reported':
      return ['select public.push_changes_reported($1, $2::jsonb, null, $3)', [table.name, JSON.stringify([row]), device]];
  }
}

for (const engine of engines) {
  describe(`every change to a figure, by any path, on ${engine}`, () => {
    let db: TestDatabase;
    let tables: WalkedTable[];
    let personName: string;

    beforeAll(async () => {
      db = await createTestDatabase(engine);
      await addRowsToEveryTable(db);
      tables = await auditedTables(db);
      const { rows } = await db.query<{ name: string }>('select private.person_name($1) as name', [demo.managerId]);
      personName = rows[0]!.name;
    });
    afterAll(() => db?.dispose());

    /** A row of the manager's store, read as stored. */
    async function sample(table: WalkedTable): Promise<Row> {
      const { rows } = await db.query<{ row: Row }>(`select to_jsonb(t) as row from public.${table.name} t where store_id = $1 order by id limit 1`, [demo.storeA]);
      if (!rows[0]) throw new Error(`${table.name} has no row of the demo store`);
      return rows[0].row;
    }

    /**
     * As the store's manager (a request's role, claims and device header), after the
     * database owner's `prelude`: the statement, then the row by `id` before and after and
     * the history it wrote. Rolled back.
     */
    async function asManager(prelude: string, id: unknown, [sql, params]: [string, unknown[]], table: string): Promise<Outcome> {
      let written: Written | undefined;
      try {
        await db.transaction(async (tx) => {
          // No month of the store is closed while walking: closing is tested on its own.
          await tx.query('delete from public.month_closures where store_id = $1', [demo.storeA]);
          if (prelude) await tx.query(prelude);
          const read = async () => (await tx.query<{ row: Row }>(`select to_jsonb(t) as row from public.${table} t where id = $1`, [id])).rows[0]?.row ?? null;
          const before = await read();
          const { rows: last } = await tx.query<{ last: number }>('select coalesce(max(id), 0)::int as last from audit.change_history');
          await tx.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true), set_config('request.headers', $2, true)", [
            JSON.stringify({ sub: demo.managerId, role: 'authenticated', aud: 'authenticated' }),
            JSON.stringify({ 'x-device-id': device }),
          ]);
          await tx.query(sql, params);
          const { rows: history } = await tx.query<History>(
            `select field, old_value, new_value, changed_by, changed_by_name, device_id, arrived_at = now() as arrived_now
               from audit.change_history where id > $1 order by id`,
            [last[0]!.last],
          );
          const { rows: now } = await tx.query<{ now: unknown }>('select to_jsonb(now()) as now');
          written = { before, after: await read(), now: now[0]!.now, history };
          throw rolledBack;
        });
      } catch (error) {
        if (isPostgresError(error)) return { ok: false, code: error.code ?? '', message: error.message };
        if (error !== rolledBack) throw error;
      }
      return { ok: true, written: written! };
    }

    /** What is wrong with one change's outcome, or null. */
    function judge(column: WalkedColumn, path: Path, sent: unknown, outcome: Outcome): string | null {
      const pushed = path.startsWith('push');
      if (column.part === 'identity') {
        if (pushed) {
          // A push finds the row by its key: the id it sends does not replace the row's own.
          if (!outcome.ok) return `refused ${outcome.code} ${outcome.message}`;
          const { before, after, history } = outcome.written;
          return after?.id === before?.id && history.length === 0 ? null : `id became ${String(after?.id)}, history ${JSON.stringify(history)}`;
        }
        if (outcome.ok) return `not refused: ${JSON.stringify(outcome)}`;
        // An upsert's proposed row meets the table's rules and row-level security before its
        // conflict is found, so another key may be refused as a row before as a change of identity.
        // A move to another store is refused as the store's policies refuse another store's row.
        const refusal = column.name === 'store_id' ? '42501' : identityRefused;
        return path === 'PATCH' && outcome.code !== refusal ? `not refused with ${refusal}: ${outcome.code} ${outcome.message}` : null;
      }
      if (column.part === 'derived') {
        return !outcome.ok && outcome.code === '23514' ? null : `a column the history leaves out changed: ${JSON.stringify(outcome)}`;
      }
      if (column.part === 'unchecked') return null;
      if (column.part === 'stamp') {
        if (pushed && column.name !== 'created_at') return !outcome.ok && outcome.code === '42703' ? null : `push wrote ${column.name}: ${JSON.stringify(outcome)}`;
        if (!outcome.ok) return `refused ${outcome.code} ${outcome.message}`;
        const { before, after, now, history } = outcome.written;
        const expected = column.name === 'created_at' ? before?.created_at : column.name === 'updated_at' ? now : undefined;
        if (after?.[column.name] === sent) return `stored as sent: ${String(sent)}`;
        if (expected !== undefined && after?.[column.name] !== expected) return `stored ${String(after?.[column.name])}, not ${String(expected)}`;
        return history.length === 0 ? null : `history for a stamp: ${JSON.stringify(history)}`;
      }
      if (!outcome.ok) return column.boundToKey && outcome.code === '23514' ? null : `refused ${outcome.code} ${outcome.message}`;
      const { before, after, history } = outcome.written;
      if (JSON.stringify(after?.[column.name]) === JSON.stringify(before?.[column.name])) return `not changed (sent ${JSON.stringify(sent)})`;
      const expected = [{ field: column.name, old_value: before?.[column.name] ?? null, new_value: after?.[column.name] ?? null, changed_by: demo.managerId, changed_by_name: personName, device_id: device, arrived_now: true }];
      return JSON.stringify(history) === JSON.stringify(expected) ? null : `history ${JSON.stringify(history)}, expected ${JSON.stringify(expected)}`;
    }

    it('walks every table the history audits, and every function a person may call that writes', async () => {
      expect(tables.length).toBeGreaterThanOrEqual(14);
      expect(tables.every((table) => table.columns.some((column) => column.part === 'figure'))).toBe(true);
      expect(await writingRpcs(db)).toEqual(['push_changes', 'push_changes_reported']);
    });

    it('leaves out of the history no column that the key does not decide', () => {
      const unchecked = tables.flatMap((table) => table.columns.filter((column) => column.part === 'unchecked').map((column) => `${table.name}.${column.name}`));
      expect(unchecked).toEqual([]);
      // Written by the app from the date with the row: their changes are recorded, their first value is not.
      const labels = tables.flatMap((table) => table.columns.filter((column) => column.part === 'label').map((column) => `${table.name}.${column.name}`));
      expect(labels).toEqual(['daily_inputs.week_of_month_display', 'daily_inputs.year_week_actual']);
    });

    it('finds every change of every column of every audited table in the history, or refused, on every update path', async () => {
      const problems: string[] = [];
      let cases = 0;
      for (const table of tables) {
        const row = await sample(table);
        for (const column of table.columns) {
          const value = changedValue(table.name, column, row);
          for (const path of updatePaths) {
            // A push or an upsert on the key that names another key is another row, not this one changed.
            if (table.key.includes(column.name) && (path.startsWith('push') || path === 'upsert on key')) continue;
            // An upsert on the id that names another id is another row too.
            if (column.name === 'id' && path === 'upsert on id') continue;
            const keyValues = Object.fromEntries(table.key.map((k) => [k, row[k]]));
            const sent =
              path === 'PATCH' ? { [column.name]: value } : path.startsWith('push') ? { ...keyValues, [column.name]: value } : { ...row, [column.name]: value };
            const problem = judge(column, path, value, await asManager('', row.id, write(table, path, sent, row.id), table.name));
            cases += 1;
            if (problem) problems.push(`${table.name}.${column.name} by ${path}: ${problem}`);
          }
        }
      }
      expect(problems).toEqual([]);
      expect(cases).toBeGreaterThan(500);
    }, 180_000);

    it('records every figure of a row added on every insert path, with the server stamps, not the sent ones', async () => {
      const problems: string[] = [];
      for (const table of tables) {
        const stored = await sample(table);
        // The row as stored (its figures agree with each other's rules), with forged stamps.
        const row: Row = { ...stored };
        for (const column of table.columns) {
          if (column.part === 'stamp') row[column.name] = column.name === 'sync_xid' ? '1' : forgedTime;
        }
        const figures = table.columns.filter((column) => column.part === 'figure').map((column) => column.name);
        for (const path of insertPaths) {
          // The push refuses the stamps it cannot write; it is sent the created_at the app may send.
          const sent = path.startsWith('push') ? Object.fromEntries(Object.entries(row).filter(([k]) => k !== 'updated_at' && k !== 'sync_xid')) : row;
          const outcome = await asManager(`delete from public.${table.name} where id = '${String(stored.id)}'`, stored.id, write(table, path, sent), table.name);
          if (!outcome.ok) {
            problems.push(`${table.name} by ${path}: refused ${outcome.code} ${outcome.message}`);
            continue;
          }
          const { after, now, history } = outcome.written;
          const expected = figures
            .filter((field) => after?.[field] !== null && after?.[field] !== undefined)
            .map((field) => ({ field, old_value: null, new_value: after?.[field], changed_by: demo.managerId, changed_by_name: personName, device_id: device, arrived_now: true }));
          const sortByField = (list: Array<{ field: string }>) => [...list].sort((a, b) => a.field.localeCompare(b.field));
          if (JSON.stringify(sortByField(history)) !== JSON.stringify(sortByField(expected))) problems.push(`${table.name} by ${path}: history ${JSON.stringify(history)}`);
          if (history.length === 0) problems.push(`${table.name} by ${path}: nothing recorded`);
          for (const stamp of ['created_at', 'updated_at'].filter((c) => after && c in after)) {
            if (after?.[stamp] !== now) problems.push(`${table.name} by ${path}: ${stamp} ${String(after?.[stamp])}, not the server's ${String(now)}`);
          }
        }
      }
      expect(problems).toEqual([]);
    });

    it('refuses a signed-in person the delete of any figure, and keeps it', async () => {
      for (const table of tables) {
        const row = await sample(table);
        const outcome = await asManager('', row.id, [`delete from public.${table.name} where id = $1`, [row.id]], table.name);
        expect(outcome, table.name).toMatchObject({ ok: false, code: '42501' });
      }
    });
  });
}
