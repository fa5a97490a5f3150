/**
 * What the REST service knows of the exposed schemas: tables and views with their
 * columns, primary and unique keys (a view's from the tables it shows), relationships
 * (relationship-graph.ts), functions for /rpc, and the functions taking one row of a
 * relation (computed fields). Every identifier in a request is checked against this
 * before it reaches SQL, quoted. Loaded at start, after migrations. `tables` keeps the
 * public schema's tables by bare name for Realtime, which serves that schema only.
 */
import type { Queryable } from '../db/database.ts';
import { functionsQuery, relationsQuery, viewsQuery } from './catalog-queries.ts';
import type { Column, Table } from './relation-shape.ts';
import type { ComputedSource, ForeignKey, Relationship } from './relationship-graph.ts';
import { buildRelationships, relationKey } from './relationship-graph.ts';
import type { RawViews } from './view-keys.ts';
import { viewKeys } from './view-keys.ts';

export type { Column, Table } from './relation-shape.ts';

/** A function's input parameter as PostgREST lists it: unnamed ones have the name ''. */
export type RoutineParam = { name: string; type: string; maxType: string; required: boolean; variadic: boolean };

export type DbFunction = {
  schema: string;
  name: string;
  params: RoutineParam[];
  /** Reachable through /rpc: every parameter named, or one unnamed json, jsonb, text, xml or bytea. */
  callable: boolean;
  returnsSet: boolean;
  /** Returns rows (a table type, a record or TABLE(...)) rather than one scalar value. */
  returnsComposite: boolean;
  returnsVoid: boolean;
  /** The returned type (a relation's name for its row type). */
  returnType: { schema: string; name: string };
  /** The returned type is a relation's row type. */
  returnsRelation: boolean;
  /** ROWS of the function's definition (1 makes a set-returning computed relationship to-one). */
  rows: number;
  /** The columns of TABLE(...) or OUT parameters, in order. */
  outColumns: Column[];
  volatility: 'i' | 's' | 'v';
  /** The relation whose row is the function's only parameter (a computed field or relationship). */
  rowOf?: { schema: string; table: string };
};

export type SchemaObjects = { tables: Map<string, Table>; functions: Map<string, DbFunction[]> };

export type SchemaCache = {
  /** The exposed schemas, the first being the default. */
  schemas: string[];
  bySchema: Map<string, SchemaObjects>;
  /** Relationships by origin relation (`schema.name`). */
  relationships: Map<string, Relationship[]>;
  /** Functions taking one row of a relation, by that relation (`schema.name`), then by name. */
  rowFunctions: Map<string, Map<string, DbFunction[]>>;
  /** The public schema's tables by name (Realtime). */
  tables: Map<string, Table>;
};

type RawColumn = { schema: string; table: string; name: string; type: string; udt: string; is_array: boolean; is_composite: boolean; default?: string | null };
type RawFunction = {
  schema: string;
  name: string;
  params: Array<{ name: string; type: string; max_type: string; required: boolean; variadic: boolean }>;
  callable: boolean;
  returns_set: boolean;
  rows: number;
  volatility: 'i' | 's' | 'v';
  returns_composite: boolean;
  returns_void: boolean;
  ret_schema: string;
  ret_name: string;
  returns_relation: boolean;
  out_columns: Array<{ name: string; type: string; udt: string; is_array: boolean; is_composite: boolean }> | null;
  row_of: { schema: string; table: string } | null;
};
type RawCatalog = {
  relations: Array<{ schema: string; table: string; kind: string }> | null;
  columns: RawColumn[] | null;
  keys: Array<{ schema: string; table: string; kind: string; columns: string[] }> | null;
  fks: ForeignKey[] | null;
};

const json = <T>(raw: unknown): T => (typeof raw === 'string' ? JSON.parse(raw) : raw) as T;

/** Schemas whose views may lie between an exposed view and its tables (the search path's). */
const extraSearchPath = ['public', 'extensions'];

function columnOf(raw: Omit<RawColumn, 'schema' | 'table'>): Column {
  const column: Column = { name: raw.name, type: raw.type, udt: raw.udt, isArray: raw.is_array, isComposite: raw.is_composite };
  if (raw.default) column.default = raw.default;
  return column;
}

function functionOf(raw: RawFunction): DbFunction {
  const fn: DbFunction = {
    schema: raw.schema,
    name: raw.name,
    params: raw.params.map((p) => ({ name: p.name, type: p.type, maxType: p.max_type, required: p.required, variadic: p.variadic })),
    callable: raw.callable,
    returnsSet: raw.returns_set,
    returnsComposite: raw.returns_composite,
    returnsVoid: raw.returns_void,
    returnType: { schema: raw.ret_schema, name: raw.ret_name },
    returnsRelation: raw.returns_relation,
    rows: Number(raw.rows),
    outColumns: (raw.out_columns ?? []).map(columnOf),
    volatility: raw.volatility,
  };
  if (raw.row_of) fn.rowOf = raw.row_of;
  return fn;
}

function loadTables(catalog: RawCatalog, bySchema: Map<string, SchemaObjects>): void {
  const tableOf = (schema: string, name: string) => bySchema.get(schema)?.tables.get(name);
  for (const relation of catalog.relations ?? []) {
    bySchema.get(relation.schema)?.tables.set(relation.table, {
      schema: relation.schema, name: relation.table, columns: new Map(), columnOrder: [], primaryKey: [], uniqueKeys: [],
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
}

const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Parameter lists compared as PostgREST's derived order compares them: one parameter after the other. */
function compareParams(a: RoutineParam[], b: RoutineParam[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    const x = a[i] as RoutineParam;
    const y = b[i] as RoutineParam;
    const order = text(x.name, y.name) || text(x.type, y.type) || text(x.maxType, y.maxType) ||
      Number(x.required) - Number(y.required) || Number(x.variadic) - Number(y.variadic);
    if (order) return order;
  }
  return a.length - b.length;
}

/**
 * Functions of the exposed schemas by name, ordered as PostgREST orders overloads (fewer
 * parameters first, then by the parameters' names and types); computed fields by relation.
 */
function loadFunctions(raw: RawFunction[], bySchema: Map<string, SchemaObjects>, rowFunctions: SchemaCache['rowFunctions']): void {
  const sorted = raw.map(functionOf).sort((a, b) => a.params.length - b.params.length || compareParams(a.params, b.params));
  for (const fn of sorted) {
    const functions = bySchema.get(fn.schema)?.functions;
    if (functions) functions.set(fn.name, [...(functions.get(fn.name) ?? []), fn]);
    if (fn.rowOf) {
      const key = relationKey({ schema: fn.rowOf.schema, name: fn.rowOf.table });
      const byName = rowFunctions.get(key) ?? new Map<string, DbFunction[]>();
      byName.set(fn.name, [...(byName.get(fn.name) ?? []), fn]);
      rowFunctions.set(key, byName);
    }
  }
}

/** Computed relationships: functions of one relation's row returning rows of another (allComputedRels). */
function computedSources(functions: DbFunction[]): ComputedSource[] {
  return functions
    .filter((fn) => fn.rowOf && fn.returnsRelation)
    .map((fn) => ({
      fn: { schema: fn.schema, name: fn.name },
      from: fn.rowOf as { schema: string; table: string },
      to: { schema: fn.returnType.schema, table: fn.returnType.name },
      toOne: !fn.returnsSet || fn.rows === 1,
    }));
}

export async function loadSchemaCache(db: Queryable, schemas: string[] = ['public']): Promise<SchemaCache> {
  const catalog = json<RawCatalog>((await db.query<{ catalog: unknown }>(relationsQuery, [schemas])).rows[0]?.catalog);
  const rawFunctions = json<RawFunction[]>((await db.query<{ functions: unknown }>(functionsQuery, [schemas])).rows[0]?.functions);
  const viewSchemas = [...new Set([...schemas, ...extraSearchPath])];
  const rawViews = json<RawViews>((await db.query<{ views: unknown }>(viewsQuery, [viewSchemas])).rows[0]?.views);
  const bySchema = new Map<string, SchemaObjects>(schemas.map((s) => [s, { tables: new Map(), functions: new Map() }]));
  loadTables(catalog, bySchema);
  const lookup = (schema: string, name: string) => bySchema.get(schema)?.tables.get(name);
  const keys = viewKeys(rawViews, schemas);
  // A view's primary key: the first of its columns showing each primary key column of its tables.
  for (const key of keys.filter((k) => k.type === 'p')) {
    const view = lookup(key.view.schema, key.view.name);
    if (view && view.isView) view.primaryKey = [...view.primaryKey, ...key.columns.map(([, shown]) => shown[0] as string)];
  }
  const rowFunctions: SchemaCache['rowFunctions'] = new Map();
  loadFunctions(rawFunctions, bySchema, rowFunctions);
  const relationships = buildRelationships(catalog.fks ?? [], keys, computedSources(rawFunctions.map(functionOf)), lookup);
  return { schemas, bySchema, relationships, rowFunctions, tables: bySchema.get('public')?.tables ?? new Map() };
}
