/**
 * How one level of a read is named and reached, as PostgREST 12 names it (Plan.hs
 * addRels), so that PostgreSQL's own errors read alike: the root goes by its table's
 * name, an embedded level by `<table>_<depth>`, and its lateral join by
 * `<parent table>_<embed name>_<depth>` (two embeds of one name at one level are then
 * PostgreSQL's 42712, as in PostgREST). An embedded level's FROM and join conditions
 * follow its relationship: a foreign key (through a junction for many-to-many), or a
 * computed relationship's function called with the parent's row.
 */
import type { FieldScope } from './field-scope.ts';
import { ident, tableRef } from './field-scope.ts';
import type { Condition, OrderTerm } from './grammar/types.ts';
import type { Relationship } from './relationship-graph.ts';
import { relationKey } from './relationship-graph.ts';
import type { DbFunction, SchemaCache, Table } from './schema-cache.ts';
import type { SqlParams } from './sql-fragments.ts';

/** Filters, order and paging for one embedded resource, keyed by its path (`roles.actors`). */
export type EmbedOptions = { conditions: Condition[]; order: OrderTerm[]; limit?: number; offset?: number };

export type ReadContext = {
  cache: SchemaCache;
  /** The request's schema: relationships are looked up in it, computed fields on its search path. */
  schema: string;
  params: SqlParams;
  embeds: Map<string, EmbedOptions>;
  aggregatesEnabled: boolean;
  /** Rows all embedded resources of the statement may bring; none when absent. */
  embeddedRowBudget?: number;
  /** Rows all aggregates of the statement may read; none when absent. */
  aggregatedRowBudget?: number;
  /** At most this many rows per to-many embed (PostgREST's db-max-rows applies to every level). */
  maxRowsPerEmbed?: number;
};

/** The schemas a computed field is looked up in, as the request's search path orders them. */
const searchPath = (schema: string) => [schema, 'public', 'extensions'];

function computedField(ctx: ReadContext, table: Table, name: string): DbFunction | undefined {
  // Only a relation of the cache has computed fields (not an RPC's OUT columns).
  if (ctx.cache.bySchema.get(table.schema)?.tables.get(table.name) !== table) return undefined;
  const candidates = ctx.cache.rowFunctions.get(relationKey(table))?.get(name) ?? [];
  for (const schema of searchPath(ctx.schema)) {
    const fn = candidates.find((f) => f.schema === schema);
    if (fn) return fn;
  }
  return undefined;
}

export function scopeOf(ctx: ReadContext, table: Table, alias: string): FieldScope {
  return { table, alias, computed: (name) => computedField(ctx, table, name) };
}

export const embeddedAlias = (rel: Relationship, depth: number) => `${rel.target.name}_${depth}`;
export const lateralAlias = (rel: Relationship, label: string, depth: number) => `${rel.table.name}_${label}_${depth}`;

/** The FROM clause and join conditions of an embedded level aliased `alias`, under its parent `parentAlias`. */
export function embedSource(rel: Relationship, alias: string, parentAlias: string, depth: number): { from: string; where: string[] } {
  const own = ident(alias);
  const parent = ident(parentAlias);
  if (rel.kind === 'computed') {
    return { from: `${tableRef(rel.fn)}(${parent}::${tableRef(rel.table)}) AS ${own}`, where: [] };
  }
  if (!rel.junction) {
    return {
      from: `${tableRef(rel.target)} AS ${own}`,
      where: rel.columns.map(([origin, target]) => `${own}.${ident(target)} = ${parent}.${ident(origin)}`),
    };
  }
  const junction = ident(`${rel.junction.table.name}_${depth}`);
  return {
    from: `${tableRef(rel.target)} AS ${own} CROSS JOIN ${tableRef(rel.junction.table)} AS ${junction}`,
    where: [
      ...rel.junction.target.map(([j, t]) => `${junction}.${ident(j)} = ${own}.${ident(t)}`),
      ...rel.junction.origin.map(([j, o]) => `${junction}.${ident(j)} = ${parent}.${ident(o)}`),
    ],
  };
}
