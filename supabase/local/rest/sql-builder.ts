/**
 * Turns a parsed request into SQL. Identifiers reach SQL only after they are found in
 * the schema cache, and then quoted; values reach it only as bind parameters. Rows come
 * back as one JSON text built by Postgres (json_agg), as PostgREST builds them.
 */
import { RestError } from './errors.ts';
import type { Condition, OrderTerm, SelectItem } from './grammar.ts';
import type { SchemaCache, Table } from './schema-cache.ts';

export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
export const tableRef = (table: Table) => `"public".${ident(table.name)}`;

/** Limits, order and filters that apply to one embedded resource, keyed by its path. */
export type EmbedOptions = { conditions: Condition[]; order: OrderTerm[]; limit?: number; offset?: number };

export type ReadShape = {
  select: SelectItem[];
  conditions: Condition[];
  order: OrderTerm[];
  limit?: number;
  offset?: number;
  embeds: Map<string, EmbedOptions>;
  /** Rows all embedded lists of the statement may hold together (embed-budget.sql); none when absent. */
  embeddedRowBudget?: number;
};

const allowedCasts = new Set([
  'text', 'int', 'int4', 'integer', 'int8', 'bigint', 'numeric', 'float8', 'real', 'boolean', 'bool',
  'date', 'json', 'jsonb', 'uuid', 'timestamptz', 'timestamp',
]);

export function findTable(cache: SchemaCache, name: string): Table {
  const table = cache.tables.get(name);
  if (!table) {
    throw new RestError(404, 'PGRST205', `Could not find the table 'public.${name}' in the schema cache`);
  }
  return table;
}

export function columnOf(table: Table, name: string): string {
  if (!table.columns.has(name)) {
    throw new RestError(400, '42703', `column ${table.name}.${name} does not exist`);
  }
  return ident(name);
}

export class SqlBuilder {
  private aliasCount = 0;
  constructor(
    readonly cache: SchemaCache,
    readonly params: SqlParams,
    readonly embeds: Map<string, EmbedOptions>,
    readonly embeddedRowBudget?: number,
  ) {}

  nextAlias(): string {
    const alias = `t${this.aliasCount}`;
    this.aliasCount += 1;
    return alias;
  }

  condition(cond: Condition, table: Table, alias: string): string {
    if (cond.kind === 'logic') {
      const joined = cond.conditions.map((c) => this.condition(c, table, alias)).join(` ${cond.op} `);
      return `${cond.negate ? 'not ' : ''}(${joined})`;
    }
    const column = `${alias}.${columnOf(table, cond.column)}`;
    let sql: string;
    switch (cond.op) {
      case 'eq': sql = `${column} = ${this.params.add(cond.value)}`; break;
      case 'neq': sql = `${column} <> ${this.params.add(cond.value)}`; break;
      case 'gt': sql = `${column} > ${this.params.add(cond.value)}`; break;
      case 'gte': sql = `${column} >= ${this.params.add(cond.value)}`; break;
      case 'lt': sql = `${column} < ${this.params.add(cond.value)}`; break;
      case 'lte': sql = `${column} <= ${this.params.add(cond.value)}`; break;
      case 'cs': sql = `${column} @> ${this.params.add(cond.value)}`; break;
      case 'cd': sql = `${column} <@ ${this.params.add(cond.value)}`; break;
      case 'like':
      case 'ilike': {
        const pattern = String(cond.value).replace(/\*/g, '%');
        sql = `${column}::text ${cond.op} ${this.params.add(pattern)}`;
        break;
      }
      case 'is': {
        const word = String(cond.value).toLowerCase();
        sql = `${column} is ${word === 'not_null' ? 'not null' : word}`;
        break;
      }
      case 'in': {
        const values = cond.value as string[];
        sql = values.length === 0 ? 'false' : `${column} in (${values.map((v) => this.params.add(v)).join(', ')})`;
        break;
      }
    }
    return cond.negate ? `not (${sql})` : sql;
  }

  where(conditions: Condition[], table: Table, alias: string, extra: string[] = []): string {
    const parts = [...conditions.map((c) => this.condition(c, table, alias)), ...extra];
    return parts.length ? ` where ${parts.join(' and ')}` : '';
  }

  orderBy(order: OrderTerm[], table: Table, alias: string): string {
    if (order.length === 0) return '';
    const terms = order.map(
      (o) =>
        `${alias}.${columnOf(table, o.column)} ${o.descending ? 'desc' : 'asc'}${o.nulls ? ` nulls ${o.nulls}` : ''}`,
    );
    return ` order by ${terms.join(', ')}`;
  }

  limitOffset(limit: number | undefined, offset: number | undefined): string {
    return `${limit !== undefined ? ` limit ${this.params.add(limit)}` : ''}${offset ? ` offset ${this.params.add(offset)}` : ''}`;
  }

  /** The select list over `alias`, a row of `table`. */
  selectList(items: SelectItem[], table: Table, alias: string, path: string[]): string {
    const list: string[] = [];
    for (const item of items) {
      if (item.kind === 'star') {
        for (const name of table.columnOrder) list.push(`${alias}.${ident(name)}`);
      } else if (item.kind === 'column') {
        let expression = `${alias}.${columnOf(table, item.name)}`;
        if (item.cast) {
          if (!allowedCasts.has(item.cast.toLowerCase())) {
            throw new RestError(400, 'PGRST100', `"${item.cast}" is not a cast this API allows`);
          }
          expression = `${expression}::${item.cast.toLowerCase()}`;
        }
        list.push(`${expression} as ${ident(item.alias ?? item.name)}`);
      } else {
        list.push(`${this.embed(item, table, alias, path)} as ${ident(item.alias ?? item.relation)}`);
      }
    }
    if (list.length === 0) throw new RestError(400, 'PGRST100', 'The select list is empty');
    return list.join(', ');
  }

  /** `exists (...)` conditions for the !inner embeds among `items`: parents without a match drop out. */
  innerExists(items: SelectItem[], table: Table, alias: string, path: string[]): string[] {
    const conditions: string[] = [];
    for (const item of items) {
      if (item.kind !== 'embed' || !item.inner) continue;
      const scope = this.embedScope(item, table, alias, path);
      conditions.push(`exists (select 1 ${scope.from} where ${scope.where.join(' and ')})`);
    }
    return conditions;
  }

  /** What an embed's subquery and its exists condition share: source, join and filters. */
  private embedScope(item: Extract<SelectItem, { kind: 'embed' }>, parent: Table, parentAlias: string, path: string[]) {
    const { target, pairs, toOne } = this.relationship(parent, item);
    const embedPath = [...path, item.alias ?? item.relation];
    const options = this.embeds.get(embedPath.join('.')) ?? this.embeds.get([...path, item.relation].join('.'));
    const alias = this.nextAlias();
    const where = [
      ...pairs.map(([targetColumn, parentColumn]) => `${alias}.${ident(targetColumn)} = ${parentAlias}.${ident(parentColumn)}`),
      ...(options?.conditions ?? []).map((c) => this.condition(c, target, alias)),
      ...this.innerExists(item.select, target, alias, embedPath),
    ];
    return { target, toOne, options, alias, embedPath, from: `from ${tableRef(target)} ${alias}`, where };
  }

  private relationship(parent: Table, item: Extract<SelectItem, { kind: 'embed' }>) {
    const target = this.cache.tables.get(item.relation);
    const notFound = new RestError(
      400,
      'PGRST200',
      `Could not find a relationship between '${parent.name}' and '${item.relation}' in the schema cache`,
    );
    if (!target) throw notFound;
    const matchesHint = (fk: { name: string; columns: string[] }) =>
      !item.hint || fk.name === item.hint || (fk.columns.length === 1 && fk.columns[0] === item.hint);
    const candidates: Array<{ pairs: Array<[string, string]>; toOne: boolean }> = [];
    for (const fk of this.cache.foreignKeys) {
      if (!matchesHint(fk)) continue;
      if (fk.table === parent.name && fk.refTable === target.name) {
        candidates.push({ pairs: fk.columns.map((c, i) => [fk.refColumns[i] as string, c]), toOne: true });
      } else if (fk.table === target.name && fk.refTable === parent.name) {
        candidates.push({ pairs: fk.columns.map((c, i) => [c, fk.refColumns[i] as string]), toOne: false });
      }
    }
    if (candidates.length === 0) throw notFound;
    if (candidates.length > 1) {
      throw new RestError(
        300,
        'PGRST201',
        `Could not embed because more than one relationship was found for '${parent.name}' and '${target.name}'`,
        null,
        `Try changing '${target.name}' to one of the foreign keys, e.g. '${target.name}!<constraint name>'`,
      );
    }
    return { target, ...(candidates[0] as { pairs: Array<[string, string]>; toOne: boolean }) };
  }

  private embed(item: Extract<SelectItem, { kind: 'embed' }>, parent: Table, parentAlias: string, path: string[]): string {
    const scope = this.embedScope(item, parent, parentAlias, path);
    const select = item.select.length ? item.select : [{ kind: 'star' } as const];
    const columns = this.selectList(select, scope.target, scope.alias, scope.embedPath);
    const body = `select ${columns} ${scope.from} where ${scope.where.join(' and ')}`;
    const tail = scope.toOne
      ? ' limit 1'
      : this.orderBy(scope.options?.order ?? [], scope.target, scope.alias) +
        this.limitOffset(scope.options?.limit, scope.options?.offset);
    const value = scope.toOne ? 'json_agg(e) -> 0' : `coalesce(json_agg(e), '[]'::json)`;
    if (this.embeddedRowBudget === undefined) return `(select ${value} from (${body}${tail}) e)`;
    // Every embed spends its rows, and at least one for the lookup itself, from the
    // statement's budget, so wide and deep selects alike stop once it is used up.
    const budget = this.params.add(this.embeddedRowBudget);
    const spend = `rest_local.spend_embedded_rows(greatest(count(*), 1), ${budget})`;
    return `(select case when ${spend} then ${value} else rest_local.embedded_rows_exceeded(${budget}) end from (${body}${tail}) e)`;
  }
}

/** SELECT for a read: the rows as one JSON array text, and the matching-row count. */
export function buildRead(cache: SchemaCache, table: Table, shape: ReadShape) {
  const rows = new SqlBuilder(cache, new SqlParams(), shape.embeds, shape.embeddedRowBudget);
  const alias = rows.nextAlias();
  const list = rows.selectList(shape.select, table, alias, []);
  const where = rows.where(shape.conditions, table, alias, rows.innerExists(shape.select, table, alias, []));
  const rowsSql =
    `select coalesce(json_agg(r), '[]'::json)::text as body from (select ${list} from ${tableRef(table)} ${alias}` +
    `${where}${rows.orderBy(shape.order, table, alias)}${rows.limitOffset(shape.limit, shape.offset)}) r`;

  // The count has its own parameters: a statement must use every parameter it is given.
  const count = new SqlBuilder(cache, new SqlParams(), shape.embeds);
  const countAlias = count.nextAlias();
  const countWhere = count.where(shape.conditions, table, countAlias, count.innerExists(shape.select, table, countAlias, []));
  return {
    rows: { sql: rowsSql, params: rows.params.values },
    count: { sql: `select count(*)::text as n from ${tableRef(table)} ${countAlias}${countWhere}`, params: count.params.values },
  };
}
