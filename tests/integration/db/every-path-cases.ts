/**
 * What a walk over every audited table, column and write path needs, read from the
 * database's catalog and the shared field limits rather than listed by hand: the tables
 * whose changes the history records, each column's part (identity, server stamp, figure,
 * or a calendar column the row's key decides), and a value each column may be changed to.
 * A new table or column is walked without anyone editing this file.
 */
import { randomUUID } from 'node:crypto';
import type { FieldLimit, NumberLimit } from '../../../src/domain/limits.ts';
import { fieldLimits } from '../../../src/domain/limits.ts';
import type { Queryable, Row } from '../../../supabase/local/db/database.ts';
import { demo } from '../../support/demo.ts';

/** Stamped by the server on every write, whatever a request sends. */
export const serverStamps = ['created_at', 'updated_at', 'sync_xid'] as const;

/**
 * identity: the id or a key column, which never changes in place. stamp: a server stamp.
 * derived: a bookkeeping column the history leaves out, which a CHECK ties to the key (a
 * daily value's year, month and weekday). unchecked: one the history leaves out that no
 * rule ties to the key (none may be). label: a column whose changes are recorded but not
 * its first value (a daily value's week labels, written from the date with the row).
 * figure: everything else, whose every change is recorded, from the insert on;
 * `boundToKey` when a CHECK also ties it to the key (a week's end date), so a change may
 * be refused by that rule instead.
 */
export type ColumnPart = 'identity' | 'stamp' | 'derived' | 'unchecked' | 'label' | 'figure';

export type WalkedColumn = { name: string; type: string; part: ColumnPart; boundToKey: boolean };
export type WalkedTable = { name: string; key: string[]; columns: WalkedColumn[] };

/** The tables with a change-history trigger, each with its key and columns as the catalog has them. */
export async function auditedTables(db: Queryable): Promise<WalkedTable[]> {
  const { rows } = await db.query<{ name: string; key: string[] }>(
    `select c.relname::text as name, private.synced_table_key(c.relname::text) as key
       from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where t.tgname = 'record_change_update' and c.relnamespace = 'public'::regnamespace
      order by 1`,
  );
  const tables: WalkedTable[] = [];
  for (const { name, key } of rows) {
    const identity = ['id', ...key];
    const { rows: columns } = await db.query<{ name: string; type: string; ignored: boolean; ignored_on_insert: boolean; bound: boolean }>(
      `select a.attname::text as name, pg_catalog.format_type(a.atttypid, a.atttypmod) as type,
              private.history_ignores_on(a.attname, 'UPDATE') as ignored,
              private.history_ignores_on(a.attname, 'INSERT') as ignored_on_insert,
              exists (select 1 from pg_constraint k
                       where k.conrelid = a.attrelid and k.contype = 'c' and a.attnum = any (k.conkey)
                         and exists (select 1 from pg_attribute b
                                      where b.attrelid = a.attrelid and b.attnum = any (k.conkey)
                                        and b.attnum <> a.attnum and b.attname::text = any ($2::text[]))) as bound
         from pg_attribute a
        where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped
        order by a.attnum`,
      [`public.${name}`, identity],
    );
    tables.push({
      name,
      key,
      columns: columns.map((column) => ({
        name: column.name,
        type: column.type,
        boundToKey: column.bound,
        part: identity.includes(column.name)
          ? 'identity'
          : (serverStamps as readonly string[]).includes(column.name)
            ? 'stamp'
            : column.ignored
              ? column.bound
                ? 'derived'
                : 'unchecked'
              : column.ignored_on_insert
                ? 'label'
                : 'figure',
      })),
    });
  }
  return tables;
}

/** The functions a signed-in person may call that can write (volatile ones). */
export async function writingRpcs(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `select p.proname::text as name from pg_proc p
      where p.pronamespace = 'public'::regnamespace and p.provolatile = 'v'
        and has_function_privilege('authenticated', p.oid, 'execute')
      order by 1`,
  );
  return rows.map((row) => row.name);
}

function numberLimit(limit: FieldLimit | undefined, row: Row): NumberLimit | undefined {
  if (!limit) return undefined;
  if (limit.kind === 'depends') return limit.cases[String(row[limit.on])] ?? limit.otherwise;
  return 'max' in limit ? limit : undefined;
}

/** Another value than the row's for `column`, one the column's limit and the table's rules accept. */
export function changedValue(table: string, column: WalkedColumn, row: Row): unknown {
  const current = row[column.name];
  const limits = fieldLimits[table as keyof typeof fieldLimits] as Record<string, FieldLimit> | undefined;
  const limit = limits?.[column.name];
  const other = <T>(candidates: T[]): T => candidates.find((candidate) => String(candidate) !== String(current)) as T;
  const numeric = numberLimit(limit, row);
  if (numeric) return other([numeric.min + 1, numeric.min + 2]);
  if (limit?.kind === 'code' && limit.values) return other([...limit.values]);
  if (limit?.kind === 'code') {
    const shape = new RegExp(limit.pattern ?? '');
    return other(['2000-01', 'otherKey', '1111100', '1111110', 'other-name'].filter((value) => shape.test(value) && value.length <= limit.maxLength));
  }
  if (limit?.kind === 'text') return other(['changed', 'changed again']);
  if (column.type === 'uuid') return column.name === 'store_id' ? demo.storeB : randomUUID();
  if (column.type === 'boolean') return !current;
  if (column.type === 'date') {
    // A date inside the row's own month, where the row has one (a date its month's rules accept).
    const year = Number(row.year ?? String(current ?? '2031').slice(0, 4));
    const month = Number(row.month ?? String(current ?? '2031-03').slice(5, 7));
    const day = (n: number) => `${year}-${String(month).padStart(2, '0')}-0${n}`;
    return other([day(1), day(2)]);
  }
  if (column.type.startsWith('timestamp')) return other(['2031-03-05T06:07:08+00:00', '2031-03-06T06:07:08+00:00']);
  if (column.type === 'xid8') return '1';
  if (column.type === 'integer' || column.type.startsWith('numeric')) return Number(current ?? 0) + 1;
  if (column.type === 'text') return other(['changed', 'changed again']);
  throw new Error(`no value to change ${table}.${column.name} (${column.type}) to`);
}
