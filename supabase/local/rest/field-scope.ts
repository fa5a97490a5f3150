/**
 * What a field name means on one level of a request, as PostgreSQL reads PostgREST's
 * `"alias"."name"`: a column; else a computed field, a function of the schema search
 * path taking the level's row (`blurb_message(messages)`); else, for `count`, the count
 * aggregate over the level's rows (the functional notation `messages.count`, which is
 * how `select=username,messages(count)` counts). Anything else is PostgreSQL's 42703
 * "column alias.name does not exist", with the hint PostgreSQL gives for a name close to
 * one column (parse_relation.c: an edit distance of at most 3 and at most half the
 * name's length, and not shared by a third column). Other functions PostgreSQL would
 * accept in that notation (to_jsonb, json_agg...) are not offered.
 */
import { RestError } from './errors.ts';
import { levenshtein } from './fuzzy-set.ts';
import type { DbFunction, Table } from './schema-cache.ts';

/** The table of a level, the name its rows go by in the statement, and its computed fields. */
export type FieldScope = {
  table: Table;
  alias: string;
  /** The name PostgREST's statement gives these rows, where this one's differs: errors name it. */
  shownAs?: string;
  /** A function of the search path taking this level's row, by name. */
  computed?: (name: string) => DbFunction | undefined;
};

export type ResolvedField = { kind: 'column' | 'computed' | 'count'; sql: string; fn?: DbFunction };

export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
export const tableRef = (table: Pick<Table, 'schema' | 'name'>) => `${ident(table.schema)}.${ident(table.name)}`;

const maxFuzzyDistance = 3;

/** PostgreSQL's hint for a column name that does not exist, or null. */
export function missingColumnHint(alias: string, name: string, columns: string[]): string | null {
  const limit = Math.floor(Buffer.byteLength(name) / 2);
  let best = maxFuzzyDistance + 1;
  let first: string | null = null;
  let second: string | null = null;
  for (const column of columns) {
    const distance = levenshtein(column, name);
    if (distance > limit) continue;
    if (distance < best) {
      best = distance;
      first = column;
      second = null;
    } else if (distance === best && first !== null) {
      if (second !== null) first = second = null;
      else second = column;
    }
  }
  if (first === null) return null;
  const ref = (column: string) => `"${alias}.${column}"`;
  return second === null
    ? `Perhaps you meant to reference the column ${ref(first)}.`
    : `Perhaps you meant to reference the column ${ref(first)} or the column ${ref(second)}.`;
}

export function missingColumn(scope: Pick<FieldScope, 'table' | 'alias' | 'shownAs'>, name: string): RestError {
  const alias = scope.shownAs ?? scope.alias;
  return new RestError(400, '42703', `column ${alias}.${name} does not exist`, null, missingColumnHint(alias, name, scope.table.columnOrder));
}

export function resolveField(scope: FieldScope, name: string): ResolvedField {
  const row = ident(scope.alias);
  if (scope.table.columns.has(name)) return { kind: 'column', sql: `${row}.${ident(name)}` };
  const fn = scope.computed?.(name);
  if (fn) return { kind: 'computed', sql: `${tableRef(fn)}(${row}::${tableRef(scope.table)})`, fn };
  if (name === 'count') return { kind: 'count', sql: `pg_catalog.count(${row})` };
  throw missingColumn(scope, name);
}

/** The column `name`, refusing a computed field or anything else: what writes and conflict targets take. */
export function checkColumn(scope: Pick<FieldScope, 'table' | 'alias' | 'shownAs'>, name: string): void {
  if (!scope.table.columns.has(name)) throw missingColumn(scope, name);
}
