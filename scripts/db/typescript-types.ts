/**
 * TypeScript types of a database's API schema in the format `supabase gen types typescript`
 * prints (Supabase's postgres-meta generator, with one-to-one relationships detected, as
 * the CLI asks for): `Json`, `Database` with each schema's Tables (Row, Insert, Update,
 * Relationships), Views, Functions (Args, Returns), Enums and CompositeTypes, the helpers
 * `Tables<>`, `TablesInsert<>`, `TablesUpdate<>`, `Enums<>`, `CompositeTypes<>` and
 * `Constants`, formatted by prettier as the generator formats it. One addition: a
 * column's comment (comment on column) becomes its doc comment. Read from the catalog by
 * our own queries; written by scripts/db-types.ts into src/data/database.types.ts.
 */
import { format } from 'prettier';
import type { Queryable } from '../../supabase/local/db/database.ts';

type ColumnInfo = {
  relation_id: number;
  name: string;
  format: string;
  is_nullable: boolean;
  identity: string | null;
  has_default: boolean;
  is_updatable: boolean;
  comment: string | null;
};
type RelationInfo = { id: number; schema: string; name: string; kind: string; is_updatable: boolean };
type RelationshipInfo = {
  foreign_key_name: string;
  schema: string;
  relation: string;
  columns: string[];
  referenced_schema: string;
  referenced_relation: string;
  referenced_columns: string[];
  is_one_to_one: boolean;
};
type FunctionArg = { mode: string; name: string; type_id: number; has_default: boolean };
type FunctionInfo = {
  schema: string;
  name: string;
  args: FunctionArg[];
  argument_types: string;
  return_type: string;
  return_type_id: number;
  return_type_relation_id: number | null;
  is_set_returning_function: boolean;
  prorows: number | null;
};
type TypeInfo = { id: number; name: string; schema: string; enums: string[]; attributes: Array<{ name: string; type_id: number }>; relation_id: number | null };

async function introspect(db: Queryable, schemas: string[]) {
  const list = schemas.map((s) => `'${s.replaceAll("'", "''")}'`).join(', ');
  const q = async <T extends Record<string, unknown>>(sql: string) => (await db.query<T>(sql)).rows;
  const relations = await q<RelationInfo>(`
    select c.oid::int as id, n.nspname as schema, c.relname as name, c.relkind::text as kind,
           (pg_catalog.pg_relation_is_updatable(c.oid, false) & 20) = 20 as is_updatable
    from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where n.nspname in (${list}) and c.relkind in ('r', 'p', 'v', 'm', 'f')`);
  const columns = await q<ColumnInfo>(`
    select c.oid::int as relation_id, a.attname as name, coalesce(bt.typname, t.typname)::text as format,
           not (a.attnotnull or (t.typtype = 'd' and t.typnotnull)) as is_nullable,
           case a.attidentity when 'a' then 'ALWAYS' when 'd' then 'BY DEFAULT' end as identity,
           a.atthasdef as has_default,
           (c.relkind in ('r', 'p') or (c.relkind in ('v', 'f') and pg_catalog.pg_column_is_updatable(c.oid, a.attnum, false))) as is_updatable,
           pg_catalog.col_description(c.oid, a.attnum) as comment
    from pg_catalog.pg_attribute a
    join pg_catalog.pg_class c on c.oid = a.attrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    join pg_catalog.pg_type t on t.oid = a.atttypid
    left join pg_catalog.pg_type bt on t.typtype = 'd' and bt.oid = t.typbasetype
    where n.nspname in (${list}) and c.relkind in ('r', 'p', 'v', 'm', 'f') and a.attnum > 0 and not a.attisdropped`);
  // PostgREST's relationships: foreign keys, one-to-one when the referencing columns are a
  // primary key or unique constraint of their own table.
  const relationships = await q<RelationshipInfo>(`
    with keys as (
      select con.conrelid, array_agg(a.attname::text order by a.attnum) as cols
      from pg_catalog.pg_constraint con
      cross join lateral unnest(con.conkey) k(attnum)
      join pg_catalog.pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum
      where con.contype in ('p', 'u')
      group by con.oid, con.conrelid
    )
    select con.conname as foreign_key_name, ns.nspname as schema, tab.relname as relation,
           array(select a.attname::text from unnest(con.conkey) with ordinality k(attnum, ord)
                 join pg_catalog.pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum order by k.ord) as columns,
           rns.nspname as referenced_schema, ref.relname as referenced_relation,
           array(select a.attname::text from unnest(con.confkey) with ordinality k(attnum, ord)
                 join pg_catalog.pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.attnum order by k.ord) as referenced_columns,
           exists (select 1 from keys where keys.conrelid = con.conrelid
                     and keys.cols = array(select a.attname::text from unnest(con.conkey) with ordinality k(attnum, ord)
                                           join pg_catalog.pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum order by a.attnum)) as is_one_to_one
    from pg_catalog.pg_constraint con
    join pg_catalog.pg_class tab on tab.oid = con.conrelid
    join pg_catalog.pg_namespace ns on ns.oid = tab.relnamespace
    join pg_catalog.pg_class ref on ref.oid = con.confrelid
    join pg_catalog.pg_namespace rns on rns.oid = ref.relnamespace
    where con.contype = 'f' and con.conparentid = 0 and ns.nspname in (${list})`);
  const functions = await q<FunctionInfo>(`
    select n.nspname as schema, p.proname as name,
           coalesce((select jsonb_agg(jsonb_build_object(
                       'mode', case m when 'i' then 'in' when 'o' then 'out' when 'b' then 'inout' when 'v' then 'variadic' else 'table' end,
                       'name', coalesce(nm, ''), 'type_id', ty::int, 'has_default', ord > (p.pronargs - p.pronargdefaults) and m in ('i', 'b', 'v'))
                       order by ord)
                     from unnest(coalesce(p.proargmodes, array_fill('i'::"char", array[cardinality(coalesce(p.proallargtypes, p.proargtypes::oid[]))])),
                                 coalesce(p.proargnames, array_fill(''::text, array[cardinality(coalesce(p.proallargtypes, p.proargtypes::oid[]))])),
                                 coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality a(m, nm, ty, ord)), '[]') as args,
           pg_catalog.pg_get_function_arguments(p.oid) as argument_types,
           pg_catalog.pg_get_function_result(p.oid) as return_type,
           p.prorettype::int as return_type_id, nullif(rt.typrelid::int, 0) as return_type_relation_id,
           p.proretset as is_set_returning_function, case when p.proretset then nullif(p.prorows, 0)::int end as prorows
    from pg_catalog.pg_proc p
    join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    join pg_catalog.pg_type rt on rt.oid = p.prorettype
    where n.nspname in (${list}) and p.prokind = 'f' and rt.typname not in ('trigger', 'event_trigger')`);
  const types = await q<TypeInfo>(`
    select t.oid::int as id, t.typname as name, n.nspname as schema,
           coalesce((select jsonb_agg(e.enumlabel order by e.enumsortorder) from pg_catalog.pg_enum e where e.enumtypid = t.oid), '[]') as enums,
           coalesce((select jsonb_agg(jsonb_build_object('name', a.attname, 'type_id', a.atttypid::int) order by a.attnum)
                     from pg_catalog.pg_class c join pg_catalog.pg_attribute a on a.attrelid = c.oid
                     where c.oid = t.typrelid and c.relkind = 'c' and not a.attisdropped and a.attnum > 0), '[]') as attributes,
           nullif(t.typrelid::int, 0) as relation_id
    from pg_catalog.pg_type t join pg_catalog.pg_namespace n on n.oid = t.typnamespace`);
  return { relations, columns, relationships, functions, types };
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
const json = (value: unknown) => JSON.stringify(value);

/** The generated file's text for `schemas` (default: public, as the CLI's default). */
export async function generateTypes(db: Queryable, schemas: string[] = ['public']): Promise<string> {
  const { relations, columns, relationships, functions, types } = await introspect(db, schemas);
  const typeById = new Map(types.map((t) => [t.id, t]));
  const tables = relations.filter((r) => r.kind === 'r' || r.kind === 'p' || r.kind === 'f');
  const views = relations.filter((r) => r.kind === 'v' || r.kind === 'm').map((v) => ({ ...v, is_updatable: v.kind === 'm' ? false : v.is_updatable }));
  const columnsOf = (relation: RelationInfo) => columns.filter((c) => c.relation_id === relation.id).sort(byName);
  relationships.sort(
    (a, b) =>
      a.foreign_key_name.localeCompare(b.foreign_key_name) ||
      a.referenced_relation.localeCompare(b.referenced_relation) ||
      JSON.stringify(a.referenced_columns).localeCompare(JSON.stringify(b.referenced_columns)),
  );

  const tsType = (schema: string, pgType: string): string => {
    if (pgType === 'bool') return 'boolean';
    if (['int2', 'int4', 'int8', 'float4', 'float8', 'numeric'].includes(pgType)) return 'number';
    if (['bytea', 'bpchar', 'varchar', 'date', 'text', 'citext', 'time', 'timetz', 'timestamp', 'timestamptz', 'uuid', 'vector', 'interval'].includes(pgType)) return 'string';
    if (pgType === 'json' || pgType === 'jsonb') return 'Json';
    if (pgType === 'void') return 'undefined';
    if (pgType === 'record') return 'Record<string, unknown>';
    if (pgType.startsWith('_')) return `(${tsType(schema, pgType.slice(1))})[]`;
    const enumType = types.filter((t) => t.name === pgType && t.enums.length > 0).sort((a) => (a.schema === schema ? -1 : 1))[0];
    if (enumType) return schemas.includes(enumType.schema) ? `Database[${json(enumType.schema)}]['Enums'][${json(enumType.name)}]` : enumType.enums.map(json).join('|');
    const composite = types.filter((t) => t.name === pgType && t.attributes.length > 0).sort((a) => (a.schema === schema ? -1 : 1))[0];
    if (composite) return schemas.includes(composite.schema) ? `Database[${json(composite.schema)}]['CompositeTypes'][${json(composite.name)}]` : 'unknown';
    const table = relations.filter((r) => (r.kind === 'r' || r.kind === 'p') && r.name === pgType).sort((a) => (a.schema === schema ? -1 : 1))[0];
    if (table) return `Database[${json(table.schema)}]['Tables'][${json(table.name)}]['Row']`;
    const view = relations.filter((r) => r.kind === 'v' && r.name === pgType).sort((a) => (a.schema === schema ? -1 : 1))[0];
    if (view) return `Database[${json(view.schema)}]['Views'][${json(view.name)}]['Row']`;
    return 'unknown';
  };
  const nullable = (type: string, isNullable: boolean) => (type === 'unknown' || type === 'any' || !isNullable ? type : `${type} | null`);
  const doc = (column: ColumnInfo) => (column.comment ? `/** ${column.comment.replaceAll('*/', '*\\/')} */\n` : '');
  const field = (schema: string, column: ColumnInfo, optional: boolean, isNullable = column.is_nullable) =>
    `${doc(column)}${json(column.name)}${optional ? '?' : ''}: ${nullable(tsType(schema, column.format), isNullable)}`;
  const relationshipsOf = (schema: string, name: string) =>
    relationships
      .filter((r) => r.schema === schema && r.relation === name && r.referenced_schema === schema)
      .map(
        (r) => `{
          foreignKeyName: ${json(r.foreign_key_name)}
          columns: ${json(r.columns)}
          isOneToOne: ${r.is_one_to_one}
          referencedRelation: ${json(r.referenced_relation)}
          referencedColumns: ${json(r.referenced_columns)}
        }`,
      );

  const functionReturn = (schema: string, fn: FunctionInfo): string => {
    const tableArgs = fn.args.filter((a) => a.mode === 'table');
    if (tableArgs.length > 0) {
      return `{ ${tableArgs.map((a) => `${json(a.name)}: ${typeById.get(a.type_id) ? tsType(schema, typeById.get(a.type_id)?.name ?? '') : 'unknown'}`).join(', ')} }`;
    }
    const relation = relations.find((r) => r.id === fn.return_type_relation_id && r.schema === schema);
    if (relation) return `{ ${columnsOf(relation).map((c) => field(schema, c, false)).join(',\n')} }`;
    const type = typeById.get(fn.return_type_id);
    return type ? tsType(schema, type.name) : 'unknown';
  };

  const schemaBlock = (schema: string) => {
    const schemaTables = tables.filter((t) => t.schema === schema).sort(byName);
    const schemaViews = views.filter((v) => v.schema === schema).sort(byName);
    const inArgs = (fn: FunctionInfo) => fn.args.filter((a) => ['in', 'inout', 'variadic'].includes(a.mode));
    // PostgREST calls a function by its arguments' names; one whose arguments are not all
    // named is left out (as the generator does, but for the single unnamed json/text argument).
    const schemaFunctions = functions
      .filter((fn) => fn.schema === schema)
      .map((fn) => ({ ...fn, args: [...fn.args].sort(byName) }))
      .filter((fn) => {
        const args = inArgs(fn);
        return args.length === 0 || args.every((a) => a.name !== '') || (args.length === 1 && [114, 3802, 25].includes(args[0]?.type_id ?? 0));
      })
      .sort(byName);
    const enums = types.filter((t) => t.schema === schema && t.enums.length > 0).sort(byName);
    const composites = types.filter((t) => t.schema === schema && t.attributes.length > 0 && !relations.some((r) => r.id === t.relation_id)).sort(byName);
    const empty = '[_ in never]: never';
    const tableBlock = (t: RelationInfo) => {
      const cols = columnsOf(t);
      return `${json(t.name)}: {
        Row: {
          ${cols.map((c) => field(schema, c, false)).join('\n')}
        }
        Insert: {
          ${cols.map((c) => (c.identity === 'ALWAYS' ? `${doc(c)}${json(c.name)}?: never` : field(schema, c, c.is_nullable || c.identity !== null || c.has_default))).join('\n')}
        }
        Update: {
          ${cols.map((c) => (c.identity === 'ALWAYS' ? `${doc(c)}${json(c.name)}?: never` : field(schema, c, true))).join('\n')}
        }
        Relationships: [
          ${relationshipsOf(schema, t.name).join(',\n')}
        ]
      }`;
    };
    const viewBlock = (v: RelationInfo) => {
      const cols = columnsOf(v);
      const writable = (c: ColumnInfo) => (c.is_updatable ? field(schema, c, true, true) : `${doc(c)}${json(c.name)}?: never`);
      return `${json(v.name)}: {
        Row: {
          ${cols.map((c) => field(schema, c, false)).join('\n')}
        }
        ${v.is_updatable ? `Insert: {\n${cols.map(writable).join('\n')}\n}\nUpdate: {\n${cols.map(writable).join('\n')}\n}\n` : ''}Relationships: [
          ${relationshipsOf(schema, v.name).join(',\n')}
        ]
      }`;
    };
    const functionsByName = new Map<string, FunctionInfo[]>();
    for (const fn of schemaFunctions) functionsByName.set(fn.name, [...(functionsByName.get(fn.name) ?? []), fn]);
    const functionBlock = ([name, overloads]: [string, FunctionInfo[]]) =>
      `${json(name)}: ${overloads
        .sort((a, b) => a.argument_types.localeCompare(b.argument_types) || a.return_type.localeCompare(b.return_type))
        .map((fn) => {
          const args = inArgs(fn);
          const argsType = args.length === 0 ? 'never' : `{ ${args.map((a) => `${json(a.name)}${a.has_default ? '?' : ''}: ${typeById.get(a.type_id) ? tsType(schema, typeById.get(a.type_id)?.name ?? '') : 'unknown'}`).join('; ')} }`;
          return `{ Args: ${argsType}; Returns: ${functionReturn(schema, fn)}${fn.is_set_returning_function ? '[]' : ''} }`;
        })
        .join(' |\n')}`;
    return `${json(schema)}: {
      Tables: {
        ${schemaTables.length === 0 ? empty : schemaTables.map(tableBlock).join('\n')}
      }
      Views: {
        ${schemaViews.length === 0 ? empty : schemaViews.map(viewBlock).join('\n')}
      }
      Functions: {
        ${functionsByName.size === 0 ? empty : [...functionsByName].map(functionBlock).join('\n')}
      }
      Enums: {
        ${enums.length === 0 ? empty : enums.map((e) => `${json(e.name)}: ${e.enums.map(json).join(' | ')}`).join('\n')}
      }
      CompositeTypes: {
        ${composites.length === 0 ? empty : composites.map((c) => `${json(c.name)}: { ${c.attributes.map((a) => `${json(a.name)}: ${nullable(typeById.get(a.type_id) ? tsType(schema, typeById.get(a.type_id)?.name ?? '') : 'unknown', true)}`).join('; ')} }`).join('\n')}
      }
    }`;
  };

  const sortedSchemas = [...schemas].sort((a, b) => a.localeCompare(b));
  const helpers = (name: string, part: 'Row' | 'Insert' | 'Update', letter: string, withViews: boolean) => {
    const keys = withViews ? 'keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])' : 'keyof DefaultSchema["Tables"]';
    const named = (schemaExpr: string) => (withViews ? `(DatabaseWithoutInternals[${schemaExpr}]["Tables"] & DatabaseWithoutInternals[${schemaExpr}]["Views"])` : `DatabaseWithoutInternals[${schemaExpr}]["Tables"]`);
    const defaults = withViews ? '(DefaultSchema["Tables"] & DefaultSchema["Views"])' : 'DefaultSchema["Tables"]';
    return `export type ${name}<
      DefaultSchemaTableNameOrOptions extends ${keys} | { schema: keyof DatabaseWithoutInternals },
      TableName extends DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
        ? keyof ${named('DefaultSchemaTableNameOrOptions["schema"]')}
        : never = never
    > = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
      ? ${named('DefaultSchemaTableNameOrOptions["schema"]')}[TableName] extends { ${part}: infer ${letter} } ? ${letter} : never
      : DefaultSchemaTableNameOrOptions extends ${keys}
        ? ${defaults}[DefaultSchemaTableNameOrOptions] extends { ${part}: infer ${letter} } ? ${letter} : never
        : never`;
  };
  const text = `
// Generated by npm run db:types from the migrated database, in the format of
// \`supabase gen types typescript\`, with each column's comment as its doc comment. Do not
// edit: change supabase/schemas, write the migration (npm run db:diff), then regenerate.
// docs/schema.md.

export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  ${sortedSchemas.map(schemaBlock).join('\n')}
}

type DatabaseWithoutInternals = Omit<Database, "__InternalSupabase">

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, "public">]

${helpers('Tables', 'Row', 'R', true)}

${helpers('TablesInsert', 'Insert', 'I', false)}

${helpers('TablesUpdate', 'Update', 'U', false)}

export type Enums<
  DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"] | { schema: keyof DatabaseWithoutInternals },
  EnumName extends DefaultSchemaEnumNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"]
    : never = never
> = DefaultSchemaEnumNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
    ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
    : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"] | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends PublicCompositeTypeNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"]
    : never = never
> = PublicCompositeTypeNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
    ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
    : never

export const Constants = {
  ${sortedSchemas
    .map((schema) => `${json(schema)}: {\nEnums: {\n${types.filter((t) => t.schema === schema && t.enums.length > 0).sort(byName).map((e) => `${json(e.name)}: [${e.enums.map(json).join(', ')}]`).join(',\n')}\n}\n}`)
    .join(',\n')}
} as const
`;
  return format(text, { parser: 'typescript', semi: false });
}
