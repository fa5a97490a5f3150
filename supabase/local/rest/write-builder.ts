/**
 * INSERT (and upsert), UPDATE and DELETE statements. The request body travels as one
 * JSON parameter and Postgres converts it to the table's row type
 * (json_populate_recordset), so values are typed by the columns they land in, exactly
 * once, by the database. The written rows come back through the same select list as a
 * read, so `insert().select('*, embed(...)')` works.
 */
import { RestError } from './errors.ts';
import type { Condition, SelectItem } from './grammar.ts';
import type { SchemaCache, Table } from './schema-cache.ts';
import type { EmbedOptions } from './sql-builder.ts';
import { columnOf, ident, SqlBuilder, SqlParams, tableRef } from './sql-builder.ts';

export type InsertPlan = {
  rows: Array<Record<string, unknown>>;
  /** The `columns=` list, when given: only these keys are read from the body. */
  columns?: string[];
  onConflict?: string[];
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missingDefault: boolean;
};

export type Returning = { select: SelectItem[]; embeds: Map<string, EmbedOptions>; embeddedRowBudget?: number };

function returningSql(builder: SqlBuilder, table: Table, returning: Returning): string {
  const alias = builder.nextAlias();
  const list = builder.selectList(returning.select, table, alias, []);
  return `select coalesce(json_agg(r), '[]'::json)::text as body, count(*)::text as n from (select ${list} from w ${alias}) r`;
}

function checkColumns(table: Table, names: Iterable<string>): void {
  for (const name of names) {
    if (!table.columns.has(name)) {
      throw new RestError(400, 'PGRST204', `Could not find the '${name}' column of '${table.name}' in the schema cache`);
    }
  }
}

export function buildInsert(cache: SchemaCache, table: Table, plan: InsertPlan, returning: Returning) {
  const params = new SqlParams();
  const builder = new SqlBuilder(cache, params, returning.embeds, returning.embeddedRowBudget);
  const union = plan.columns ?? [...new Set(plan.rows.flatMap((row) => Object.keys(row)))];
  checkColumns(table, union);

  // With missing=default a column absent from a row takes its default, so rows are
  // grouped by the keys they carry and each group inserts only those columns.
  const groups = new Map<string, { columns: string[]; rows: Array<Record<string, unknown>> }>();
  for (const row of plan.rows) {
    const columns = plan.missingDefault ? union.filter((c) => c in row) : union;
    const key = columns.join(',');
    const group = groups.get(key) ?? { columns, rows: [] };
    group.rows.push(row);
    groups.set(key, group);
  }

  let conflict = '';
  if (plan.resolution) {
    const target = plan.onConflict ?? table.primaryKey;
    if (target.length === 0) throw new RestError(400, 'PGRST100', `'${table.name}' has no key to resolve conflicts on`);
    target.forEach((name) => columnOf(table, name));
    conflict = ` on conflict (${target.map(ident).join(', ')})`;
  }

  const ctes = [...groups.values()].map((group, i) => {
    let onConflict = conflict;
    if (plan.resolution) {
      const updates = group.columns.filter((c) => !(plan.onConflict ?? table.primaryKey).includes(c));
      onConflict +=
        plan.resolution === 'merge-duplicates' && updates.length
          ? ` do update set ${updates.map((c) => `${ident(c)} = excluded.${ident(c)}`).join(', ')}`
          : ' do nothing';
    }
    const rowsJson = params.add(JSON.stringify(group.rows));
    // A group with no columns ({} rows) inserts rows of defaults only.
    const insert = group.columns.length
      ? `insert into ${tableRef(table)} (${group.columns.map(ident).join(', ')}) ` +
        `select ${group.columns.map(ident).join(', ')} from json_populate_recordset(null::${tableRef(table)}, ${rowsJson}::json)`
      : `insert into ${tableRef(table)} select from json_array_elements(${rowsJson}::json)`;
    return `w${i} as (${insert}${onConflict} returning *)`;
  });
  if (ctes.length === 0) return null;
  const written = ctes.map((_, i) => `select * from w${i}`).join(' union all ');
  const sql = `with ${ctes.join(', ')}, w as (${written}) ${returningSql(builder, table, returning)}`;
  return { sql, params: params.values };
}

export function buildUpdate(
  cache: SchemaCache,
  table: Table,
  change: Record<string, unknown>,
  conditions: Condition[],
  returning: Returning,
) {
  const columns = Object.keys(change);
  checkColumns(table, columns);
  const params = new SqlParams();
  const builder = new SqlBuilder(cache, params, returning.embeds, returning.embeddedRowBudget);
  const alias = builder.nextAlias();
  let write: string;
  if (columns.length) {
    const body = params.add(JSON.stringify(change));
    const sets = columns.map((c) => `${ident(c)} = s.${ident(c)}`).join(', ');
    write =
      `update ${tableRef(table)} ${alias} set ${sets} ` +
      `from json_populate_record(null::${tableRef(table)}, ${body}::json) s` +
      `${builder.where(conditions, table, alias)} returning ${alias}.*`;
  } else {
    // An empty change changes nothing; answer with the rows it would have touched.
    write = `select ${alias}.* from ${tableRef(table)} ${alias}${builder.where(conditions, table, alias)}`;
  }
  return { sql: `with w as (${write}) ${returningSql(builder, table, returning)}`, params: params.values };
}

export function buildDelete(cache: SchemaCache, table: Table, conditions: Condition[], returning: Returning) {
  const params = new SqlParams();
  const builder = new SqlBuilder(cache, params, returning.embeds, returning.embeddedRowBudget);
  const alias = builder.nextAlias();
  const where = builder.where(conditions, table, alias);
  const sql = `with w as (delete from ${tableRef(table)} ${alias}${where} returning ${alias}.*) ${returningSql(builder, table, returning)}`;
  return { sql, params: params.values };
}
