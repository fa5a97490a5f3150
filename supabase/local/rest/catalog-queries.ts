/**
 * The catalog queries the schema cache is loaded from, each returning one JSON document.
 * Relations and functions are read as PostgREST 12's schema cache reads them
 * (SchemaCache.hs): partitions are left out, a column's default includes an identity's
 * sequence and a domain's default, a function is callable through /rpc only when its
 * parameters are all named or it has one unnamed parameter of type json, jsonb, text,
 * xml or bytea, and functions taking one row of a relation are kept apart as computed
 * fields and computed relationships.
 */

/** Tables, views and their columns, keys and foreign keys, in the schemas `$1`. */
export const relationsQuery = `
with tbl as (
  select c.oid, n.nspname, c.relname, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = any($1::text[]) and c.relkind in ('r', 'v', 'm', 'p', 'f') and not c.relispartition
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
                'default', case
                  when ty.typbasetype <> 0 and d.adbin is null then pg_get_expr(ty.typdefaultbin, 0)
                  when a.attidentity = 'd' then format('nextval(%s)', quote_literal(pg_get_serial_sequence(format('%I.%I', t.nspname, t.relname), a.attname)))
                  when a.attgenerated <> '' then null
                  else pg_get_expr(d.adbin, d.adrelid) end) order by t.nspname, t.relname, a.attnum)
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
                            join pg_attribute a on a.attrelid = con.confrelid and a.attnum = r.attnum))
             order by con.conrelid, con.conname)
          from tbl t join pg_constraint con on con.conrelid = t.oid and con.contype = 'f' and con.conparentid = 0
          join cols k on k.oid = con.oid
          join tbl rt on rt.oid = con.confrelid)
) as catalog`;

/**
 * Functions: those of the schemas `$1` (for /rpc, with whether they are callable), and
 * those of any schema taking exactly one row of a relation (computed fields and
 * relationships). Parameter types are as regtype prints them; `max_type` widens
 * character(n) and bit(n) as PostgREST does for the arguments it passes.
 */
export const functionsQuery = `
with rel_types as (
  select c.reltype, n.nspname, c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('v', 'r', 'm', 'f', 'p')
),
-- Only the functions the cache keeps, chosen before their parameters are described: a
-- database holds thousands of built-in functions, and describing them all made this the
-- slowest statement of a backend's start.
candidates as (
  select p.oid, n.nspname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
  where p.prokind = 'f' and p.prorettype <> 'trigger'::regtype
    and (n.nspname = any($1::text[]) or (p.pronargs = 1 and p.proargtypes[0] in (select reltype from rel_types)))
),
args as (
  select p.oid,
    jsonb_agg(jsonb_build_object(
      'name', coalesce(a.name, ''),
      'type', a.type::regtype::text,
      'max_type', case a.type when 'bit'::regtype then 'bit varying' when 'bit[]'::regtype then 'bit varying[]'
                    when 'character'::regtype then 'character varying' when 'character[]'::regtype then 'character varying[]'
                    else a.type::regtype::text end,
      'required', a.idx <= (p.pronargs - p.pronargdefaults),
      'variadic', coalesce(a.mode = 'v', false)) order by a.idx) as params,
    case count(*) - count(a.name)
      when 0 then true
      when 1 then (array_agg(a.type))[1] in ('bytea'::regtype, 'json'::regtype, 'jsonb'::regtype, 'text'::regtype, 'xml'::regtype)
      else false end as callable
  from candidates c join pg_proc p on p.oid = c.oid,
    unnest(p.proargnames, p.proargtypes, p.proargmodes) with ordinality as a(name, type, mode, idx)
  where a.type is not null
  group by p.oid
),
fns as (
  select p.oid, c.nspname as schema, p.proname as name, coalesce(a.params, '[]') as params, coalesce(a.callable, true) as callable,
    p.proretset as returns_set, p.prorows as rows, p.provolatile as volatility,
    rt.typtype = 'c' or coalesce(p.proargmodes::text[] && '{t,b,o}', false) as returns_composite,
    p.prorettype = 'void'::regtype as returns_void,
    rn.nspname as ret_schema, coalesce(rc.relname, rt.typname) as ret_name, rc.oid is not null as returns_relation,
    (select jsonb_agg(jsonb_build_object('name', o.name, 'type', format_type(o.t, null), 'udt', ot.typname,
        'is_array', ot.typcategory = 'A', 'is_composite', ot.typtype = 'c') order by o.ord)
      from unnest(p.proallargtypes, p.proargmodes, p.proargnames) with ordinality o(t, mode, name, ord)
      join pg_type ot on ot.oid = o.t where o.mode in ('o', 'b', 't')) as out_columns,
    (select jsonb_build_object('schema', r.nspname, 'table', r.relname) from rel_types r
      where p.pronargs = 1 and r.reltype = p.proargtypes[0]) as row_of
  from candidates c
  join pg_proc p on p.oid = c.oid
  left join args a on a.oid = p.oid
  join pg_type rt on rt.oid = p.prorettype
  join pg_namespace rn on rn.oid = rt.typnamespace
  left join pg_class rc on rc.oid = rt.typrelid and rc.relkind in ('v', 'r', 'm', 'f', 'p')
)
select coalesce(jsonb_agg(to_jsonb(fns) - 'oid' order by schema, name, oid), '[]') as functions
from fns`;

/** Views of the schemas `$1` with their query trees, and the keys that could pass through them. */
export const viewsQuery = `
select jsonb_build_object(
  'views', (select jsonb_agg(jsonb_build_object('oid', c.oid, 'schema', n.nspname, 'name', c.relname,
              'tree', r.ev_action::text,
              'columns', (select jsonb_object_agg(a.attnum, a.attname) from pg_attribute a
                          where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped)))
            from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_rewrite r on r.ev_class = c.oid
            where c.relkind in ('v', 'm') and r.ev_type = '1' and n.nspname = any($1::text[])),
  'keys', (select jsonb_agg(jsonb_build_object('name', con.conname, 'type', k.type, 'table', k.rel, 'columns', k.cols))
           from pg_constraint con
           cross join lateral (
             select 'p' as type, con.conrelid as rel, con.conkey as cols where con.contype = 'p'
             union all select 'f', con.conrelid, con.conkey where con.contype = 'f'
             union all select 'f_ref', con.confrelid, con.confkey where con.contype = 'f') k),
  'tables', (select jsonb_object_agg(c.oid, jsonb_build_object('schema', n.nspname, 'name', c.relname,
               'columns', (select jsonb_object_agg(a.attnum, a.attname) from pg_attribute a
                           where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped)))
             from pg_class c join pg_namespace n on n.oid = c.relnamespace
             where c.relkind in ('r', 'p') and exists (select 1 from pg_constraint k where k.conrelid = c.oid or k.confrelid = c.oid))
) as views`;
