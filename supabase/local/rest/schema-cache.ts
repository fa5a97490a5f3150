/**
 * What the REST service knows of the public schema: tables and their columns, keys,
 * foreign keys (for embedding) and functions (for /rpc). Every identifier in a request
 * is checked against this before it reaches SQL, quoted. Reloaded after migrations.
 */
import type { Queryable } from '../db/database.ts';

/** `type` as format_type prints it; `udt` the type's name (int4, _text), as Realtime reports columns. */
export type Column = { name: string; type: string; udt: string; isArray: boolean };
export type ForeignKey = { name: string; table: string; columns: string[]; refTable: string; refColumns: string[] };
export type Table = { name: string; columns: Map<string, Column>; columnOrder: string[]; primaryKey: string[] };
export type FunctionArg = { name: string; type: string; hasDefault: boolean };
export type DbFunction = {
  name: string;
  args: FunctionArg[];
  returnsSet: boolean;
  /** Returns rows (a table type, a record or TABLE(...)) rather than one scalar value. */
  returnsRows: boolean;
  returnsVoid: boolean;
};
export type SchemaCache = {
  tables: Map<string, Table>;
  foreignKeys: ForeignKey[];
  functions: Map<string, DbFunction[]>;
};

type RawCatalog = {
  columns: Array<{ table: string; name: string; type: string; udt: string; is_array: boolean }> | null;
  keys: Array<{ table: string; columns: string[] }> | null;
  fks: ForeignKey[] | null;
  fns: Array<{
    name: string;
    arg_names: string[] | null;
    arg_types: string[] | null;
    defaults: number;
    returns_set: boolean;
    returns_rows: boolean;
    returns_void: boolean;
  }> | null;
};

const catalogQuery = `
with tbl as (
  select c.oid, c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'p')
)
select jsonb_build_object(
  'columns', (select jsonb_agg(jsonb_build_object('table', t.relname, 'name', a.attname,
                'type', format_type(a.atttypid, a.atttypmod), 'udt', ty.typname, 'is_array', ty.typcategory = 'A')
                order by t.relname, a.attnum)
              from tbl t join pg_attribute a on a.attrelid = t.oid
              join pg_type ty on ty.oid = a.atttypid
              where a.attnum > 0 and not a.attisdropped),
  'keys', (select jsonb_agg(jsonb_build_object('table', t.relname, 'columns',
              (select jsonb_agg(a.attname order by k.ord) from unnest(con.conkey) with ordinality k(attnum, ord)
               join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum)))
           from tbl t join pg_constraint con on con.conrelid = t.oid and con.contype = 'p'),
  'fks', (select jsonb_agg(jsonb_build_object('name', con.conname, 'table', t.relname,
             'columns', (select jsonb_agg(a.attname order by k.ord) from unnest(con.conkey) with ordinality k(attnum, ord)
                         join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum),
             'refTable', rt.relname,
             'refColumns', (select jsonb_agg(a.attname order by k.ord) from unnest(con.confkey) with ordinality k(attnum, ord)
                            join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.attnum)))
          from tbl t join pg_constraint con on con.conrelid = t.oid and con.contype = 'f'
          join tbl rt on rt.oid = con.confrelid),
  'fns', (select jsonb_agg(jsonb_build_object('name', p.proname,
             'arg_names', to_jsonb(p.proargnames[1:p.pronargs]),
             'arg_types', (select jsonb_agg(format_type(x.t, null) order by x.ord)
                           from unnest(p.proargtypes::oid[]) with ordinality x(t, ord)),
             'defaults', p.pronargdefaults, 'returns_set', p.proretset,
             'returns_rows', rt.typtype = 'c' or p.prorettype = 'record'::regtype,
             'returns_void', p.prorettype = 'void'::regtype))
          from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          join pg_type rt on rt.oid = p.prorettype
          where n.nspname = 'public' and p.prokind = 'f')
) as catalog`;

export async function loadSchemaCache(db: Queryable): Promise<SchemaCache> {
  const { rows } = await db.query<{ catalog: RawCatalog | string }>(catalogQuery);
  const raw = rows[0]?.catalog;
  const catalog = (typeof raw === 'string' ? JSON.parse(raw) : raw) as RawCatalog;
  const tables = new Map<string, Table>();
  for (const column of catalog.columns ?? []) {
    let table = tables.get(column.table);
    if (!table) {
      table = { name: column.table, columns: new Map(), columnOrder: [], primaryKey: [] };
      tables.set(column.table, table);
    }
    table.columns.set(column.name, { name: column.name, type: column.type, udt: column.udt, isArray: column.is_array });
    table.columnOrder.push(column.name);
  }
  for (const key of catalog.keys ?? []) {
    const table = tables.get(key.table);
    if (table) table.primaryKey = key.columns;
  }
  const functions = new Map<string, DbFunction[]>();
  for (const fn of catalog.fns ?? []) {
    const types = fn.arg_types ?? [];
    const names = fn.arg_names ?? [];
    const args = types.map((type, i) => ({
      name: names[i] ?? '',
      type,
      hasDefault: i >= types.length - fn.defaults,
    }));
    const list = functions.get(fn.name) ?? [];
    list.push({
      name: fn.name,
      args,
      returnsSet: fn.returns_set,
      returnsRows: fn.returns_rows,
      returnsVoid: fn.returns_void,
    });
    functions.set(fn.name, list);
  }
  return { tables, foreignKeys: catalog.fks ?? [], functions };
}
