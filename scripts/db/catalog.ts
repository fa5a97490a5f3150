/**
 * What a database's schema is, read from its catalog as plain data: the product's schemas
 * with their tables, columns, constraints, indexes, policies, grants, triggers, views,
 * functions (with their bodies and settings), types, comments, realtime publication and
 * the synced-table registry's rows. Two databases built two ways (from the declared schema
 * in supabase/schemas and from the migrations) are compared through this (compare.ts), and
 * the next migration is written from the difference (migration-writer.ts).
 *
 * Every value is what Postgres itself prints back (pg_get_constraintdef, pg_get_indexdef,
 * pg_get_functiondef, ...), so two spellings of one definition read alike. Grants are kept
 * as "grantee: privilege" lines without the grantor, and the owner is written "owner", so
 * two databases owned by different roles still compare.
 */
import type { Queryable } from '../../supabase/local/db/database.ts';

/** Schemas that are Postgres' own, or the migration runner's bookkeeping. */
export const ignoredSchemas = ['pg_catalog', 'information_schema', 'pg_toast', 'supabase_migrations'];

/** Tables whose rows are part of the schema (the server's registry of synced tables), by qualified name. */
export const referenceTables = ['private.synced_tables'];

export type Column = {
  name: string;
  type: string;
  notNull: boolean;
  default: string | null;
  /** 'always' or 'by default' for identity columns. */
  identity: string | null;
  /** The expression of a generated column. */
  generated: string | null;
  comment: string | null;
};

export type Relation = {
  /** schema.name */
  name: string;
  kind: 'table' | 'view' | 'materialized view' | 'sequence' | 'other';
  rowSecurity: boolean;
  forceRowSecurity: boolean;
  /** reloptions such as security_invoker=true. */
  options: string[];
  grants: string[];
  comment: string | null;
  /** Columns in the order the table stores them (a new column can only go last). */
  columns: Column[];
  /** A view's query. */
  viewDefinition: string | null;
  publications: string[];
};

export type Constraint = { table: string; name: string; type: string; definition: string; validated: boolean; comment: string | null };
export type Index = { table: string; name: string; definition: string; comment: string | null };
export type Policy = {
  table: string;
  name: string;
  command: string;
  permissive: boolean;
  roles: string[];
  using: string | null;
  check: string | null;
};
export type Trigger = { table: string; name: string; definition: string; enabled: string; comment: string | null };
export type Function = {
  /** schema.name(identity arguments) */
  signature: string;
  schema: string;
  name: string;
  /** pg_get_functiondef: header, settings and body as Postgres prints them. */
  definition: string;
  grants: string[];
  comment: string | null;
};
export type Type = { name: string; kind: string; definition: string; comment: string | null };
export type Schema = { name: string; grants: string[]; comment: string | null };

export type Catalog = {
  schemas: Record<string, Schema>;
  extensions: Record<string, string>;
  defaultPrivileges: string[];
  relations: Record<string, Relation>;
  constraints: Record<string, Constraint>;
  indexes: Record<string, Index>;
  policies: Record<string, Policy>;
  triggers: Record<string, Trigger>;
  functions: Record<string, Function>;
  types: Record<string, Type>;
  /** Rows of the reference tables, each as JSON text, sorted. */
  data: Record<string, string[]>;
};

const schemaFilter = (column: string) => `${column} not in (${ignoredSchemas.map((s) => `'${s}'`).join(', ')}) and ${column} not like 'pg\\_temp%' and ${column} not like 'pg\\_toast\\_temp%'`;

/**
 * Grants of an ACL as "grantee: privilege" lines (with "grantable" where so), the owner
 * named "owner" and PUBLIC "public". A null ACL means the object's default privileges,
 * which `acldefault` spells out.
 */
const grantsOf = (acl: string, defaultKind: string, owner: string) => `(
  select coalesce(array_agg(g.line order by g.line), '{}')
  from (select case when a.grantee = 0 then 'public' when a.grantee = ${owner} then 'owner' else pg_catalog.pg_get_userbyid(a.grantee) end
               || ': ' || lower(a.privilege_type) || case when a.is_grantable then ' (grantable)' else '' end as line
        from pg_catalog.aclexplode(coalesce(${acl}, pg_catalog.acldefault(${defaultKind}, ${owner}))) a) g)`;

export async function readCatalog(db: Queryable): Promise<Catalog> {
  const q = async <T extends Record<string, unknown>>(sql: string) => (await db.query<T>(sql)).rows;

  const schemas = await q<{ name: string; grants: string[]; comment: string | null }>(`
    select n.nspname as name, ${grantsOf('n.nspacl', "'n'", 'n.nspowner')} as grants, pg_catalog.obj_description(n.oid, 'pg_namespace') as comment
    from pg_catalog.pg_namespace n where ${schemaFilter('n.nspname')}`);

  const extensions = await q<{ name: string; schema: string }>(`
    select e.extname as name, n.nspname as schema from pg_catalog.pg_extension e join pg_catalog.pg_namespace n on n.oid = e.extnamespace`);

  // Default privileges of the role that runs the migrations, whoever that is ("owner").
  const defaultPrivileges = await q<{ line: string }>(`
    select case when d.defaclrole = (select n2.nspowner from pg_catalog.pg_namespace n2 where n2.nspname = 'private') then 'owner'
                else pg_catalog.pg_get_userbyid(d.defaclrole) end
           || ' in ' || coalesce(n.nspname, 'every schema') || ' on ' || d.defaclobjtype::text || ': '
           || case when a.grantee = 0 then 'public' else pg_catalog.pg_get_userbyid(a.grantee) end || ' ' || lower(a.privilege_type) as line
    from pg_catalog.pg_default_acl d
    left join pg_catalog.pg_namespace n on n.oid = d.defaclnamespace
    cross join lateral pg_catalog.aclexplode(d.defaclacl) a
    where n.nspname is null or (${schemaFilter('n.nspname')})`);

  const relations = await q<{
    name: string; kind: string; row_security: boolean; force_row_security: boolean; options: string[] | null;
    grants: string[]; comment: string | null; view_definition: string | null; publications: string[];
  }>(`
    select n.nspname || '.' || c.relname as name, c.relkind::text as kind, c.relrowsecurity as row_security,
           c.relforcerowsecurity as force_row_security, c.reloptions as options,
           ${grantsOf('c.relacl', `(case when c.relkind = 'S' then 's' else 'r' end)::"char"`, 'c.relowner')} as grants,
           pg_catalog.obj_description(c.oid, 'pg_class') as comment,
           case when c.relkind in ('v', 'm') then pg_catalog.pg_get_viewdef(c.oid, true) end as view_definition,
           array(select p.pubname::text from pg_catalog.pg_publication_rel pr join pg_catalog.pg_publication p on p.oid = pr.prpubid
                 where pr.prrelid = c.oid order by 1) as publications
    from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where ${schemaFilter('n.nspname')} and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`);

  const columns = await q<{
    relation: string; name: string; type: string; not_null: boolean; default: string | null;
    identity: string; generated: string; generated_expression: string | null; comment: string | null;
  }>(`
    select n.nspname || '.' || c.relname as relation, a.attname as name, pg_catalog.format_type(a.atttypid, a.atttypmod)
             || case when a.attcollation <> t.typcollation then ' collate ' || quote_ident(co.collname) else '' end as type,
           a.attnotnull as not_null, case when a.attgenerated = '' then pg_catalog.pg_get_expr(d.adbin, d.adrelid) end as default,
           a.attidentity::text as identity, a.attgenerated::text as generated,
           case when a.attgenerated <> '' then pg_catalog.pg_get_expr(d.adbin, d.adrelid) end as generated_expression,
           pg_catalog.col_description(c.oid, a.attnum) as comment
    from pg_catalog.pg_attribute a
    join pg_catalog.pg_class c on c.oid = a.attrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    join pg_catalog.pg_type t on t.oid = a.atttypid
    left join pg_catalog.pg_collation co on co.oid = a.attcollation
    left join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where ${schemaFilter('n.nspname')} and c.relkind in ('r', 'p', 'v', 'm', 'f') and a.attnum > 0 and not a.attisdropped
    order by a.attrelid, a.attnum`);

  const constraints = await q<{ table: string; name: string; type: string; definition: string; validated: boolean; comment: string | null }>(`
    select n.nspname || '.' || c.relname as table, con.conname as name, con.contype::text as type,
           pg_catalog.pg_get_constraintdef(con.oid, true) as definition, con.convalidated as validated,
           pg_catalog.obj_description(con.oid, 'pg_constraint') as comment
    from pg_catalog.pg_constraint con
    join pg_catalog.pg_class c on c.oid = con.conrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where ${schemaFilter('n.nspname')}`);

  const indexes = await q<{ table: string; name: string; definition: string; comment: string | null }>(`
    select n.nspname || '.' || t.relname as table, n.nspname || '.' || i.relname as name,
           pg_catalog.pg_get_indexdef(x.indexrelid) as definition, pg_catalog.obj_description(i.oid, 'pg_class') as comment
    from pg_catalog.pg_index x
    join pg_catalog.pg_class i on i.oid = x.indexrelid
    join pg_catalog.pg_class t on t.oid = x.indrelid
    join pg_catalog.pg_namespace n on n.oid = i.relnamespace
    where ${schemaFilter('n.nspname')}`);

  const policies = await q<{ table: string; name: string; command: string; permissive: boolean; roles: string[]; using: string | null; check: string | null }>(`
    select n.nspname || '.' || c.relname as table, p.polname as name,
           case p.polcmd when 'r' then 'select' when 'a' then 'insert' when 'w' then 'update' when 'd' then 'delete' else 'all' end as command,
           p.polpermissive as permissive,
           array(select case when r = 0 then 'public' else pg_catalog.pg_get_userbyid(r) end from unnest(p.polroles) r order by 1) as roles,
           pg_catalog.pg_get_expr(p.polqual, p.polrelid) as using, pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid) as check
    from pg_catalog.pg_policy p
    join pg_catalog.pg_class c on c.oid = p.polrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where ${schemaFilter('n.nspname')}`);

  const triggers = await q<{ table: string; name: string; definition: string; enabled: string; comment: string | null }>(`
    select n.nspname || '.' || c.relname as table, t.tgname as name, pg_catalog.pg_get_triggerdef(t.oid) as definition,
           t.tgenabled::text as enabled, pg_catalog.obj_description(t.oid, 'pg_trigger') as comment
    from pg_catalog.pg_trigger t
    join pg_catalog.pg_class c on c.oid = t.tgrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where ${schemaFilter('n.nspname')} and not t.tgisinternal`);

  const functions = await q<{ signature: string; schema: string; name: string; definition: string; grants: string[]; comment: string | null }>(`
    select n.nspname || '.' || p.proname || '(' || pg_catalog.pg_get_function_identity_arguments(p.oid) || ')' as signature,
           n.nspname as schema, p.proname as name,
           case when p.prokind = 'a' then 'aggregate' else pg_catalog.pg_get_functiondef(p.oid) end as definition,
           ${grantsOf('p.proacl', "'f'", 'p.proowner')} as grants,
           pg_catalog.obj_description(p.oid, 'pg_proc') as comment
    from pg_catalog.pg_proc p
    join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    where ${schemaFilter('n.nspname')}
      and not exists (select 1 from pg_catalog.pg_depend d where d.objid = p.oid and d.classid = 'pg_catalog.pg_proc'::regclass and d.deptype = 'e')`);

  const types = await q<{ name: string; kind: string; definition: string; comment: string | null }>(`
    select n.nspname || '.' || t.typname as name,
           case t.typtype when 'e' then 'enum' when 'd' then 'domain' when 'c' then 'composite' when 'r' then 'range' else t.typtype::text end as kind,
           case t.typtype
             when 'e' then array_to_string(array(select quote_literal(e.enumlabel) from pg_catalog.pg_enum e where e.enumtypid = t.oid order by e.enumsortorder), ', ')
             when 'd' then pg_catalog.format_type(t.typbasetype, t.typtypmod) || coalesce(' default ' || t.typdefault, '') || case when t.typnotnull then ' not null' else '' end
                           || coalesce(' ' || (select string_agg(pg_catalog.pg_get_constraintdef(c.oid, true), ' ' order by c.conname) from pg_catalog.pg_constraint c where c.contypid = t.oid), '')
             when 'c' then array_to_string(array(select quote_ident(a.attname) || ' ' || pg_catalog.format_type(a.atttypid, a.atttypmod)
                                                 from pg_catalog.pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped order by a.attnum), ', ')
             else pg_catalog.format_type(t.oid, null)
           end as definition,
           pg_catalog.obj_description(t.oid, 'pg_type') as comment
    from pg_catalog.pg_type t
    join pg_catalog.pg_namespace n on n.oid = t.typnamespace
    where ${schemaFilter('n.nspname')}
      and (t.typtype in ('e', 'd', 'r') or (t.typtype = 'c' and (select c.relkind from pg_catalog.pg_class c where c.oid = t.typrelid) = 'c'))
      and not exists (select 1 from pg_catalog.pg_depend d where d.objid = t.oid and d.classid = 'pg_catalog.pg_type'::regclass and d.deptype = 'e')`);

  const data: Record<string, string[]> = {};
  for (const table of referenceTables) {
    const [schema, name] = table.split('.') as [string, string];
    const exists = await q<{ found: boolean }>(
      `select exists (select 1 from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
                      where n.nspname = '${schema}' and c.relname = '${name}') as found`,
    );
    if (!exists[0]?.found) continue;
    const rows = await q<{ row: string }>(`select to_jsonb(t)::text as row from ${table} t`);
    data[table] = rows.map((row) => row.row).sort();
  }

  const catalog: Catalog = {
    schemas: Object.fromEntries(schemas.map((s) => [s.name, s])),
    extensions: Object.fromEntries(extensions.map((e) => [e.name, e.schema])),
    defaultPrivileges: defaultPrivileges.map((d) => d.line).sort(),
    relations: {},
    constraints: Object.fromEntries(constraints.map((c) => [`${c.table}.${c.name}`, c])),
    indexes: Object.fromEntries(indexes.map((i) => [i.name, i])),
    policies: Object.fromEntries(policies.map((p) => [`${p.table}.${p.name}`, p])),
    triggers: Object.fromEntries(triggers.map((t) => [`${t.table}.${t.name}`, t])),
    functions: Object.fromEntries(functions.map((f) => [f.signature, f])),
    types: Object.fromEntries(types.map((t) => [t.name, t])),
    data,
  };
  const kinds: Record<string, Relation['kind']> = { r: 'table', p: 'table', v: 'view', m: 'materialized view', S: 'sequence' };
  for (const r of relations) {
    catalog.relations[r.name] = {
      name: r.name,
      kind: kinds[r.kind] ?? 'other',
      rowSecurity: r.row_security,
      forceRowSecurity: r.force_row_security,
      options: r.options ?? [],
      grants: r.grants,
      comment: r.comment,
      columns: [],
      viewDefinition: r.view_definition,
      publications: r.publications,
    };
  }
  for (const c of columns) {
    catalog.relations[c.relation]?.columns.push({
      name: c.name,
      type: c.type,
      notNull: c.not_null,
      default: c.default,
      identity: c.identity === 'a' ? 'always' : c.identity === 'd' ? 'by default' : null,
      generated: c.generated === 's' ? (c.generated_expression ?? '') : null,
      comment: c.comment,
    });
  }
  return catalog;
}
