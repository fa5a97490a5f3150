/**
 * What the REST service knows of the exposed schemas: tables and views with their
 * columns, primary and unique keys, foreign keys (for embedding) and functions (for
 * /rpc). Every identifier in a request is checked against this before it reaches SQL,
 * quoted. Loaded at start, after migrations. `tables` keeps the public schema's tables
 * by bare name for Realtime, which serves that schema only.
 */
import type { Queryable } from '../db/database.ts';

/** `type` as format_type prints it; `udt` the type's name (int4, _text), as Realtime reports columns. */
export type Column = {
  name: string;
  type: string;
  udt: string;
  isArray: boolean;
  /** A composite type: JSON paths reach into it through to_jsonb, as into arrays. */
  isComposite: boolean;
  /** The column's default expression, as PostgREST's schema cache keeps it for `Prefer: missing=default`. */
  default?: string;
};

export type Table = {
  schema: string;
  name: string;
  columns: Map<string, Column>;
  columnOrder: string[];
  primaryKey: string[];
  /** Primary key and unique constraints, each a column list: a foreign key over one of them is one-to-one. */
  uniqueKeys: string[][];
  isView: boolean;
};

export type ForeignKey = {
  name: string;
  schema: string;
  table: string;
  columns: string[];
  refSchema: string;
  refTable: string;
  refColumns: string[];
};

export type FunctionArg = { name: string; type: string; hasDefault: boolean; variadic: boolean };

export type DbFunction = {
  schema: string;
  name: string;
  args: FunctionArg[];
  returnsSet: boolean;
  /** Returns rows (a table type, a record or TABLE(...)) rather than one scalar value. */
  returnsRows: boolean;
  returnsVoid: boolean;
  /** The table whose row type it returns, when it returns one of the exposed schemas' tables. */
  returnsTable?: { schema: string; name: string };
  /** The columns of TABLE(...) or OUT parameters, in order. */
  outColumns: Column[];
  volatility: 'i' | 's' | 'v';
};

export type SchemaObjects = { tables: Map<string, Table>; functions: Map<string, DbFunction[]> };

export type SchemaCache = {
  /** The exposed schemas, the first being the default. */
  schemas: string[];
  bySchema: Map<string, SchemaObjects>;
  foreignKeys: ForeignKey[];
  /** The public schema's tables by name (Realtime). */
  tables: Map<string, Table>;
};

type RawColumn = { schema: string; table: string; name: string; type: string; udt: string; is_array: boolean; is_composite: boolean; default?: string | null };
type RawFunction = {
  schema: string;
  name: string;
  arg_names: string[] | null;
  arg_types: string[] | null;
  variadic: boolean;
  defaults: number;
  returns_set: boolean;
  returns_rows: boolean;
  returns_void: boolean;
  ret_schema: string | null;
  ret_table: string | null;
  out_columns: Array<{ name: string; type: string; udt: string; is_array: boolean; is_composite: boolean }> | null;
  volatility: 'i' | 's' | 'v';
};
type RawCatalog = {
  relations: Array<{ schema: string; table: string; kind: string }> | null;
  columns: RawColumn[] | null;
  keys: Array<{ schema: string; table: string; kind: string; columns: string[] }> | null;
  fks: ForeignKey[] | null;
  fns: RawFunction[] | null;
};

const catalogQuery = `
with tbl as (
  select c.oid, n.nspname, c.relname, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = any($1::text[]) and c.relkind in ('r', 'v', 'm', 'p', 'f')
),
cols as (
  select con.oid, (select jsonb_agg(a.attname order by k.ord) from unnest(con.conkey) with ordinality k(attnum, ord)
                   join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum) as names
  from pg_constraint con join tbl t on t.oid = con.conrelid
)
select jsonb_build_object(
  'relations', (select jsonb_agg(jsonb_build_object('schema', t.nspname, 'table', t.relname, 'kind', t.relkind)) from tbl t),
  'columns', (select jsonb_agg(jsonb_build_object('schema', t.nspname, 'table', t.relname, 'name', a.attname,
                'type', format_type(a.atttypid, a.atttypmod), 'udt', ty.typname, 'is_array', ty.typcategory = 'A',
                'is_composite', ty.typtype = 'c',
                'default', case when a.attgenerated = '' then pg_get_expr(d.adbin, d.adrelid) end) order by t.nspname, t.relname, a.attnum)
              from tbl t join pg_attribute a on a.attrelid = t.oid
              join pg_type ty on ty.oid = a.atttypid
              left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
              where a.attnum > 0 and not a.attisdropped),
  'keys', (select jsonb_agg(jsonb_build_object('schema', t.nspname, 'table', t.relname, 'kind', con.contype, 'columns', k.names))
           from tbl t join pg_constraint con on con.conrelid = t.oid and con.contype in ('p', 'u')
           join cols k on k.oid = con.oid),
  'fks', (select jsonb_agg(jsonb_build_object('name', con.conname, 'schema', t.nspname, 'table', t.relname,
             'columns', k.names, 'refSchema', rt.nspname, 'refTable', rt.relname,
             'refColumns', (select jsonb_agg(a.attname order by r.ord) from unnest(con.confkey) with ordinality r(attnum, ord)
                            join pg_attribute a on a.attrelid = con.confrelid and a.attnum = r.attnum)))
          from tbl t join pg_constraint con on con.conrelid = t.oid and con.contype = 'f'
          join cols k on k.oid = con.oid
          join tbl rt on rt.oid = con.confrelid),
  'fns', (select jsonb_agg(jsonb_build_object('schema', n.nspname, 'name', p.proname,
             'arg_names', to_jsonb(p.proargnames[1:p.pronargs]),
             'arg_types', (select jsonb_agg(format_type(x.t, null) order by x.ord)
                           from unnest(p.proargtypes::oid[]) with ordinality x(t, ord)),
             'variadic', p.provariadic <> 0,
             'defaults', p.pronargdefaults, 'returns_set', p.proretset,
             'returns_rows', rt.typtype = 'c' or p.prorettype = 'record'::regtype,
             'returns_void', p.prorettype = 'void'::regtype,
             'ret_schema', rn.nspname, 'ret_table', rc.relname,
             'out_columns', (select jsonb_agg(jsonb_build_object('name', o.name, 'type', format_type(o.t, null), 'udt', ot.typname,
                                'is_array', ot.typcategory = 'A', 'is_composite', ot.typtype = 'c') order by o.ord)
                             from unnest(p.proallargtypes, p.proargmodes, p.proargnames) with ordinality o(t, mode, name, ord)
                             join pg_type ot on ot.oid = o.t
                             where o.mode in ('o', 'b', 't')),
             'volatility', p.provolatile))
          from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          join pg_type rt on rt.oid = p.prorettype
          left join pg_class rc on rc.oid = rt.typrelid and rt.typtype = 'c'
          left join pg_namespace rn on rn.oid = rc.relnamespace
          where n.nspname = any($1::text[]) and p.prokind = 'f')
) as catalog`;

function columnOf(raw: Omit<RawColumn, 'schema' | 'table'>): Column {
  const column: Column = { name: raw.name, type: raw.type, udt: raw.udt, isArray: raw.is_array, isComposite: raw.is_composite };
  if (raw.default) column.default = raw.default;
  return column;
}

function functionOf(raw: RawFunction, schemas: string[]): DbFunction {
  const types = raw.arg_types ?? [];
  const names = raw.arg_names ?? [];
  return {
    schema: raw.schema,
    name: raw.name,
    args: types.map((type, i) => ({
      name: names[i] ?? '',
      type,
      hasDefault: i >= types.length - raw.defaults,
      variadic: raw.variadic && i === types.length - 1,
    })),
    returnsSet: raw.returns_set,
    returnsRows: raw.returns_rows,
    returnsVoid: raw.returns_void,
    returnsTable:
      raw.ret_schema && raw.ret_table && schemas.includes(raw.ret_schema) ? { schema: raw.ret_schema, name: raw.ret_table } : undefined,
    outColumns: (raw.out_columns ?? []).map(columnOf),
    volatility: raw.volatility,
  };
}

export async function loadSchemaCache(db: Queryable, schemas: string[] = ['public']): Promise<SchemaCache> {
  const { rows } = await db.query<{ catalog: RawCatalog | string }>(catalogQuery, [schemas]);
  const raw = rows[0]?.catalog;
  const catalog = (typeof raw === 'string' ? JSON.parse(raw) : raw) as RawCatalog;
  const bySchema = new Map<string, SchemaObjects>(schemas.map((s) => [s, { tables: new Map(), functions: new Map() }]));
  const tableOf = (schema: string, name: string) => bySchema.get(schema)?.tables.get(name);
  for (const relation of catalog.relations ?? []) {
    bySchema.get(relation.schema)?.tables.set(relation.table, {
      schema: relation.schema,
      name: relation.table,
      columns: new Map(),
      columnOrder: [],
      primaryKey: [],
      uniqueKeys: [],
      isView: relation.kind === 'v' || relation.kind === 'm',
    });
  }
  for (const column of catalog.columns ?? []) {
    const table = tableOf(column.schema, column.table);
    if (!table) continue;
    table.columns.set(column.name, columnOf(column));
    table.columnOrder.push(column.name);
  }
  for (const key of catalog.keys ?? []) {
    const table = tableOf(key.schema, key.table);
    if (!table) continue;
    if (key.kind === 'p') table.primaryKey = key.columns;
    table.uniqueKeys.push(key.columns);
  }
  for (const fn of catalog.fns ?? []) {
    const functions = bySchema.get(fn.schema)?.functions;
    if (!functions) continue;
    functions.set(fn.name, [...(functions.get(fn.name) ?? []), functionOf(fn, schemas)]);
  }
  return {
    schemas,
    bySchema,
    foreignKeys: catalog.fks ?? [],
    tables: bySchema.get('public')?.tables ?? new Map(),
  };
}
