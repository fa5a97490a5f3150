/**
 * Every relationship an embed may follow, built once when the schema cache loads, as
 * PostgREST 12 builds its own (SchemaCache.hs): foreign keys as many-to-one (one-to-one
 * when the key's columns are a primary or unique key), the same through views that show
 * all of a key's columns, many-to-many through a junction whose primary key holds two
 * foreign keys, each relationship's inverse, and computed relationships (a function
 * taking one row of a relation and returning rows of another). Kept per origin relation;
 * an embed looks among those of its parent (relationships.ts).
 */
import type { Table } from './relation-shape.ts';
import type { ViewKey } from './view-keys.ts';
import { expandViewColumns } from './view-keys.ts';

export type Cardinality = 'one-to-many' | 'many-to-one' | 'one-to-one' | 'many-to-many';

/** Column pairs [origin column, target column]. */
export type ColumnPairs = Array<[string, string]>;

export type Junction = {
  table: Table;
  /** [junction column, origin column] and [junction column, target column]. */
  origin: ColumnPairs;
  target: ColumnPairs;
  originConstraint: string;
  targetConstraint: string;
};

export type KeyRelationship = {
  kind: 'key';
  table: Table;
  target: Table;
  isSelf: boolean;
  cardinality: Cardinality;
  /** The foreign key's name (the junction's for many-to-many is in `junction`). */
  constraint: string;
  columns: ColumnPairs;
  junction?: Junction;
  /** One-to-one seen from the referenced side. */
  isParent?: boolean;
};

export type ComputedRelationship = {
  kind: 'computed';
  table: Table;
  target: Table;
  isSelf: boolean;
  fn: { schema: string; name: string };
  toOne: boolean;
};

export type Relationship = KeyRelationship | ComputedRelationship;

export type ForeignKey = {
  name: string;
  schema: string;
  table: string;
  columns: string[];
  refSchema: string;
  refTable: string;
  refColumns: string[];
};

export type ComputedSource = { fn: { schema: string; name: string }; from: { schema: string; table: string }; to: { schema: string; table: string }; toOne: boolean };

export const relationKey = (t: { schema: string; name: string }) => `${t.schema}.${t.name}`;

export const isToOne = (rel: Relationship) =>
  rel.kind === 'computed' ? rel.toOne : rel.cardinality === 'many-to-one' || rel.cardinality === 'one-to-one';

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((c) => b.includes(c));

type Lookup = (schema: string, name: string) => Table | undefined;

function foreignKeyRelationships(fks: ForeignKey[], lookup: Lookup): KeyRelationship[] {
  const found: KeyRelationship[] = [];
  for (const fk of fks) {
    const table = lookup(fk.schema, fk.table);
    const target = lookup(fk.refSchema, fk.refTable);
    if (!table || !target) continue;
    const oneToOne = table.uniqueKeys.some((key) => sameSet(key, fk.columns));
    found.push({
      kind: 'key', table, target, isSelf: table === target, constraint: fk.name,
      cardinality: oneToOne ? 'one-to-one' : 'many-to-one', isParent: oneToOne ? false : undefined,
      columns: fk.columns.map((c, i) => [c, fk.refColumns[i] as string]),
    });
  }
  return found;
}

/** The same relationships from and to the views showing the keys' columns (addViewM2OAndO2ORels). */
function viewRelationships(rels: KeyRelationship[], keys: ViewKey[], lookup: Lookup): KeyRelationship[] {
  const found: KeyRelationship[] = [];
  const same = (t: Table, k: { schema: string; name: string }) => t.schema === k.schema && t.name === k.name;
  for (const rel of rels) {
    if (rel.cardinality !== 'many-to-one' && rel.cardinality !== 'one-to-one') continue;
    const fromViews = keys.filter((k) => k.type === 'f' && k.constraint === rel.constraint && same(rel.table, k.table));
    const toViews = keys.filter((k) => k.type === 'f_ref' && k.constraint === rel.constraint && same(rel.target, k.table));
    const make = (table: Table, target: Table, columns: ColumnPairs): KeyRelationship =>
      ({ ...rel, table, target, isSelf: table === target, columns });
    for (const from of fromViews) {
      const view = lookup(from.view.schema, from.view.name);
      if (!view) continue;
      for (const combination of expandViewColumns(from.columns)) {
        found.push(make(view, rel.target, combination.map(([, v], i) => [v, rel.columns[i]?.[1] as string])));
      }
    }
    for (const to of toViews) {
      const view = lookup(to.view.schema, to.view.name);
      if (!view) continue;
      for (const combination of expandViewColumns(to.columns)) {
        found.push(make(rel.table, view, rel.columns.map(([t], i) => [t, combination[i]?.[1] as string])));
      }
    }
    for (const from of fromViews) {
      for (const to of toViews) {
        const origin = lookup(from.view.schema, from.view.name);
        const target = lookup(to.view.schema, to.view.name);
        if (!origin || !target) continue;
        for (const left of expandViewColumns(from.columns)) {
          for (const right of expandViewColumns(to.columns)) {
            found.push(make(origin, target, left.map(([, v], i) => [v, right[i]?.[1] as string])));
          }
        }
      }
    }
  }
  return found;
}

/** Many-to-many: two many-to-one relationships of one junction whose columns are all in its primary key. */
function junctionRelationships(rels: KeyRelationship[]): KeyRelationship[] {
  const found: KeyRelationship[] = [];
  const manyToOne = rels.filter((r) => r.cardinality === 'many-to-one');
  for (const first of manyToOne) {
    for (const second of manyToOne) {
      if (first.table !== second.table || first.constraint === second.constraint) continue;
      const junction = first.table;
      const columns = [...first.columns.map(([c]) => c), ...second.columns.map(([c]) => c)];
      if (!columns.every((c) => junction.primaryKey.includes(c))) continue;
      found.push({
        kind: 'key', table: first.target, target: second.target, isSelf: first.target === second.target,
        cardinality: 'many-to-many', constraint: junction.name, columns: [],
        junction: { table: junction, origin: first.columns, target: second.columns, originConstraint: first.constraint, targetConstraint: second.constraint },
      });
    }
  }
  return found;
}

function inverse(rel: KeyRelationship): KeyRelationship | null {
  if (rel.cardinality !== 'many-to-one' && rel.cardinality !== 'one-to-one') return null;
  return {
    ...rel, table: rel.target, target: rel.table,
    cardinality: rel.cardinality === 'many-to-one' ? 'one-to-many' : 'one-to-one',
    isParent: rel.cardinality === 'one-to-one' ? !rel.isParent : undefined,
    columns: rel.columns.map(([a, b]) => [b, a]),
  };
}

/** Relationships by origin relation (`schema.name`), computed ones overriding a relationship to a relation of the function's name. */
export function buildRelationships(fks: ForeignKey[], keys: ViewKey[], computed: ComputedSource[], lookup: Lookup): Map<string, Relationship[]> {
  const direct = foreignKeyRelationships(fks, lookup);
  const withViews = [...direct, ...viewRelationships(direct, keys, lookup)];
  const withJunctions = [...withViews, ...junctionRelationships(withViews)];
  const all: Relationship[] = [...withJunctions, ...withJunctions.map(inverse).filter((r): r is KeyRelationship => r !== null)];
  const byOrigin = new Map<string, Relationship[]>();
  const add = (rel: Relationship) => byOrigin.set(relationKey(rel.table), [...(byOrigin.get(relationKey(rel.table)) ?? []), rel]);
  for (const rel of all) add(rel);
  for (const source of computed) {
    const table = lookup(source.from.schema, source.from.table);
    const target = lookup(source.to.schema, source.to.table);
    if (!table || !target) continue;
    const key = relationKey(table);
    const overridden = (byOrigin.get(key) ?? []).filter((r) =>
      r.kind === 'computed' ? r.fn.schema !== source.fn.schema || r.fn.name !== source.fn.name
        : r.target.schema !== source.fn.schema || r.target.name !== source.fn.name);
    byOrigin.set(key, [...overridden, { kind: 'computed', table, target, isSelf: table === target, fn: source.fn, toOne: source.toOne }]);
  }
  return byOrigin;
}
