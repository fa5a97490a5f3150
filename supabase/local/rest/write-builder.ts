/**
 * INSERT (and upsert), UPDATE and DELETE as common table expressions ending in
 * `pgrst_w`, the rows written, which the statement then reads like a table (so
 * `insert().select('*, embed(...)')` works). The body travels as one JSON parameter and
 * Postgres converts it to the table's row type (json_populate_record[set]), so values are
 * typed by the columns they land in, once, by the database. Rows come back only when a
 * representation is wanted (`RETURNING 1` otherwise, which needs no SELECT right), as in
 * PostgREST 12's QueryBuilder: an upsert sets every column it was sent, the conflict
 * target included, so a body holding only the key still returns its row; it counts the
 * rows it inserted in `pgrst.inserted`, as PostgREST does, to answer 200 or 201.
 */
import { RestError } from './errors.ts';
import type { Condition, OrderTerm } from './grammar/types.ts';
import type { Table } from './schema-cache.ts';
import type { SqlParams } from './sql-fragments.ts';
import type { FieldScope } from './field-scope.ts';
import { checkColumn, conditionSql, fieldSql, ident, tableRef } from './sql-fragments.ts';

export type InsertPlan = {
  rows: Array<Record<string, unknown>>;
  /** The `columns=` list, when given: only these keys are read from the body. */
  columns?: string[];
  onConflict?: string[];
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missingDefault: boolean;
};

export type WriteCtes = { ctes: string[]; countsInserted: boolean };

const target = 'pgrst_target';

/** The written table as filters see it: PostgREST's statements name it by the table's own name. */
const scopeOn = (table: Table, alias = target): FieldScope => ({ table, alias, shownAs: table.name });
const returning = (all: boolean) => (all ? `RETURNING ${target}.*` : 'RETURNING 1');
const counter = (add: boolean) =>
  `set_config('pgrst.inserted', (coalesce(nullif(current_setting('pgrst.inserted', true), '')::int, 0) ${add ? '+' : '-'} 1)::text, true) <> '${add ? '0' : '-1'}'`;

function checkColumns(table: Table, names: Iterable<string>): void {
  for (const name of names) {
    if (!table.columns.has(name)) {
      throw new RestError(400, 'PGRST204', `Could not find the '${name}' column of '${table.name}' in the schema cache`);
    }
  }
}

/** The conflict target of an upsert: `on_conflict=`, else the primary key; none means a plain insert. */
export function conflictTarget(table: Table, plan: InsertPlan): string[] {
  if (!plan.resolution) return [];
  const columns = plan.onConflict ?? table.primaryKey;
  columns.forEach((name) => checkColumn(scopeOn(table), name));
  return columns;
}

/** A column name as an SQL string literal (a JSON key). */
const keyLiteral = (name: string) => `'${name.replace(/'/g, "''")}'`;

/**
 * Each body row as a JSON object whose missing columns hold their defaults, for
 * `missing=default`, as PostgREST 12's `pgrst_json_defs` builds it: every default of the
 * columns in play is evaluated for every row (an identity's sequence moves on for a row
 * that sent its own value too), then the row's own keys win, so a key sent as null stays
 * null. Null when no column in play has a default (missing then means NULL either way).
 */
function rowsWithDefaults(table: Table, columns: string[]): string | null {
  const filled = columns
    .map((name) => ({ name, expression: table.columns.get(name)?.default }))
    .filter((column): column is { name: string; expression: string } => column.expression !== undefined)
    .map(({ name, expression }) => `${keyLiteral(name)}, ${expression}`);
  if (!filled.length) return null;
  // A function takes at most 100 arguments: 40 columns per jsonb_build_object.
  const objects = Array.from({ length: Math.ceil(filled.length / 40) }, (_, i) => `jsonb_build_object(${filled.slice(i * 40, i * 40 + 40).join(', ')})`);
  return `${objects.join(' || ')} || pgrst_elem.val`;
}

/**
 * One INSERT for the whole body, whatever keys each row carries (one statement per key
 * set would cost a statement per row at worst, which PGlite cannot even prepare), rows
 * written and returned in the order they were sent.
 */
export function insertCtes(table: Table, plan: InsertPlan, params: SqlParams, returnAll: boolean): WriteCtes {
  const columns = plan.columns ?? [...new Set(plan.rows.flatMap((row) => Object.keys(row)))];
  checkColumns(table, columns);
  const conflict = conflictTarget(table, plan);
  const merge = plan.resolution === 'merge-duplicates' && conflict.length > 0;
  const rowsJson = params.add(JSON.stringify(plan.rows));
  const cols = columns.map(ident).join(', ');
  const where = merge ? ` WHERE ${counter(true)}` : '';
  const withDefaults = plan.missingDefault ? rowsWithDefaults(table, columns) : null;
  let insert = `INSERT INTO ${tableRef(table)} AS ${target}`;
  if (columns.length === 0) {
    insert += ` SELECT FROM json_array_elements(${rowsJson}::json)${where}`;
  } else if (withDefaults) {
    insert +=
      ` (${cols}) SELECT ${columns.map((c) => `pgrst_body.${ident(c)}`).join(', ')}` +
      ` FROM jsonb_array_elements(${rowsJson}::jsonb) WITH ORDINALITY AS pgrst_elem(val, ord)` +
      ` CROSS JOIN LATERAL jsonb_populate_record(null::${tableRef(table)}, ${withDefaults}) AS pgrst_body${where} ORDER BY pgrst_elem.ord`;
  } else {
    insert += ` (${cols}) SELECT ${cols} FROM json_populate_recordset(null::${tableRef(table)}, ${rowsJson}::json)${where}`;
  }
  if (conflict.length) {
    insert += ` ON CONFLICT (${conflict.map(ident).join(', ')})`;
    insert += merge && columns.length
      ? ` DO UPDATE SET ${columns.map((c) => `${ident(c)} = EXCLUDED.${ident(c)}`).join(', ')} WHERE ${counter(false)}`
      : ' DO NOTHING';
  }
  return { ctes: [`pgrst_w AS (${insert} ${returning(returnAll)})`], countsInserted: merge };
}

export type Range = { limit?: number; offset?: number; order: OrderTerm[] };

/**
 * The rows a limited UPDATE or DELETE touches (`limit` with an `order` on unique
 * columns), picked as PostgREST does: by the order columns' values.
 */
function limitedRows(table: Table, conditions: Condition[], range: Range, params: SqlParams): { cte: string; match: string } | null {
  if (range.limit === undefined && !range.offset) return null;
  if (range.order.length === 0) {
    throw new RestError(400, 'PGRST109', "A 'limit' was applied without an explicit 'order'", null, "Apply an 'order' using unique column(s)");
  }
  const columns = range.order.map((o) => o.field.name);
  const order = range.order
    .map((o) => `${fieldSql(scopeOn(table, 'pgrst_pick'), o.field, params)}${o.descending ? ' DESC' : o.descending === false ? ' ASC' : ''}${o.nulls ? ` NULLS ${o.nulls.toUpperCase()}` : ''}`)
    .join(', ');
  const pick =
    `SELECT ${columns.map((c) => `pgrst_pick.${ident(c)}`).join(', ')} FROM ${tableRef(table)} AS pgrst_pick` +
    `${whereSql(table, conditions, params, 'pgrst_pick')} ORDER BY ${order}` +
    `${range.limit !== undefined ? ` LIMIT ${params.add(range.limit)}` : ''}${range.offset ? ` OFFSET ${params.add(range.offset)}` : ''}`;
  return {
    cte: `pgrst_affected AS (${pick})`,
    match: columns.map((c) => `${target}.${ident(c)} = pgrst_affected.${ident(c)}`).join(' AND '),
  };
}

function whereSql(table: Table, conditions: Condition[], params: SqlParams, alias = target): string {
  const parts = conditions.map((c) => conditionSql(c, scopeOn(table, alias), params));
  return parts.length ? ` WHERE ${parts.join(' AND ')}` : '';
}

export function updateCtes(
  table: Table,
  change: Record<string, unknown>,
  options: { conditions: Condition[]; columns?: string[]; missingDefault: boolean; range: Range },
  params: SqlParams,
  returnAll: boolean,
): WriteCtes {
  const columns = options.columns ?? Object.keys(change);
  checkColumns(table, columns);
  // An empty change changes nothing and answers no rows, as PostgREST's `WHERE false`.
  if (columns.length === 0) return { ctes: [`pgrst_w AS (SELECT * FROM ${tableRef(table)} WHERE false)`], countsInserted: false };
  const body = params.add(JSON.stringify(change));
  const sets = columns
    .map((c) => (options.missingDefault && !(c in change) ? `${ident(c)} = DEFAULT` : `${ident(c)} = pgrst_body.${ident(c)}`))
    .join(', ');
  const limited = limitedRows(table, options.conditions, options.range, params);
  const from = `json_populate_record(null::${tableRef(table)}, ${body}::json) AS pgrst_body`;
  if (limited) {
    return {
      ctes: [limited.cte, `pgrst_w AS (UPDATE ${tableRef(table)} AS ${target} SET ${sets} FROM ${from}, pgrst_affected WHERE ${limited.match} ${returning(returnAll)})`],
      countsInserted: false,
    };
  }
  const where = whereSql(table, options.conditions, params);
  return {
    ctes: [`pgrst_w AS (UPDATE ${tableRef(table)} AS ${target} SET ${sets} FROM ${from}${where} ${returning(returnAll)})`],
    countsInserted: false,
  };
}

export function deleteCtes(table: Table, conditions: Condition[], range: Range, params: SqlParams, returnAll: boolean): WriteCtes {
  const limited = limitedRows(table, conditions, range, params);
  if (limited) {
    return {
      ctes: [limited.cte, `pgrst_w AS (DELETE FROM ${tableRef(table)} AS ${target} USING pgrst_affected WHERE ${limited.match} ${returning(returnAll)})`],
      countsInserted: false,
    };
  }
  const where = whereSql(table, conditions, params);
  return { ctes: [`pgrst_w AS (DELETE FROM ${tableRef(table)} AS ${target}${where} ${returning(returnAll)})`], countsInserted: false };
}
