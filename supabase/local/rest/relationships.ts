/**
 * Which relationship an embed `target!hint(...)` names, from the foreign keys of the
 * schema cache: many-to-one, one-to-many, one-to-one (a foreign key over a primary or
 * unique key) and many-to-many (through a junction table whose primary key holds both
 * foreign keys). Follows PostgREST 12's findRel (Plan.hs): the target may be a table, a
 * constraint or a column name, and the hint a constraint, a column on either side or a
 * junction table; none is PGRST200, more than one PGRST201 with the candidates listed.
 */
import { RestError } from './errors.ts';
import type { ForeignKey, SchemaCache, Table } from './schema-cache.ts';

export type Cardinality = 'many-to-one' | 'one-to-many' | 'one-to-one' | 'many-to-many';

/** Columns pairs as [target column, parent column]. */
export type ColumnPairs = Array<[string, string]>;

export type Relationship = {
  target: Table;
  cardinality: Cardinality;
  /** The foreign key's name (for many-to-many, the junction table's). */
  constraint: string;
  /** The parent's columns and the target's, in the foreign key's order. */
  parentColumns: string[];
  targetColumns: string[];
  /** Direct relationships: target column = parent column. */
  pairs: ColumnPairs;
  junction?: { table: Table; parent: ColumnPairs; target: ColumnPairs; parentConstraint: string; targetConstraint: string };
  isSelf: boolean;
};

export const isToOne = (rel: Relationship) => rel.cardinality === 'many-to-one' || rel.cardinality === 'one-to-one';

const sameColumns = (a: string[], b: string[]) => a.length === b.length && a.every((c) => b.includes(c));

function tableOf(cache: SchemaCache, schema: string, name: string): Table | undefined {
  return cache.bySchema.get(schema)?.tables.get(name);
}

/** Every relationship leaving `parent`, each seen from its side. */
function relationshipsOf(cache: SchemaCache, parent: Table): Relationship[] {
  const found: Relationship[] = [];
  const isParent = (schema: string, name: string) => schema === parent.schema && name === parent.name;
  for (const fk of cache.foreignKeys) {
    if (isParent(fk.schema, fk.table)) {
      const target = tableOf(cache, fk.refSchema, fk.refTable);
      if (!target) continue;
      const unique = parent.uniqueKeys.some((key) => sameColumns(key, fk.columns));
      found.push({
        target,
        cardinality: unique ? 'one-to-one' : 'many-to-one',
        constraint: fk.name,
        parentColumns: fk.columns,
        targetColumns: fk.refColumns,
        pairs: fk.columns.map((c, i) => [fk.refColumns[i] as string, c]),
        isSelf: isParent(fk.refSchema, fk.refTable),
      });
    }
    if (isParent(fk.refSchema, fk.refTable)) {
      const target = tableOf(cache, fk.schema, fk.table);
      if (!target) continue;
      const unique = target.uniqueKeys.some((key) => sameColumns(key, fk.columns));
      found.push({
        target,
        cardinality: unique ? 'one-to-one' : 'one-to-many',
        constraint: fk.name,
        parentColumns: fk.refColumns,
        targetColumns: fk.columns,
        pairs: fk.columns.map((c, i) => [c, fk.refColumns[i] as string]),
        isSelf: isParent(fk.schema, fk.table),
      });
    }
  }
  return [...found, ...junctionsOf(cache, parent)];
}

/** Many-to-many: a table whose primary key holds a foreign key to `parent` and one to another table. */
function junctionsOf(cache: SchemaCache, parent: Table): Relationship[] {
  const found: Relationship[] = [];
  const byTable = new Map<string, ForeignKey[]>();
  for (const fk of cache.foreignKeys) byTable.set(`${fk.schema}.${fk.table}`, [...(byTable.get(`${fk.schema}.${fk.table}`) ?? []), fk]);
  for (const fks of byTable.values()) {
    const junction = tableOf(cache, fks[0]?.schema ?? '', fks[0]?.table ?? '');
    if (!junction) continue;
    const inKey = (fk: ForeignKey) => fk.columns.every((c) => junction.primaryKey.includes(c));
    for (const toParent of fks) {
      if (toParent.refSchema !== parent.schema || toParent.refTable !== parent.name || !inKey(toParent)) continue;
      for (const toTarget of fks) {
        if (toTarget === toParent || !inKey(toTarget)) continue;
        const target = tableOf(cache, toTarget.refSchema, toTarget.refTable);
        if (!target || (target.schema === junction.schema && target.name === junction.name)) continue;
        found.push({
          target,
          cardinality: 'many-to-many',
          constraint: junction.name,
          parentColumns: toParent.refColumns,
          targetColumns: toTarget.refColumns,
          pairs: [],
          junction: {
            table: junction,
            parent: toParent.columns.map((c, i) => [c, toParent.refColumns[i] as string]),
            target: toTarget.columns.map((c, i) => [c, toTarget.refColumns[i] as string]),
            parentConstraint: toParent.name,
            targetConstraint: toTarget.name,
          },
          isSelf: false,
        });
      }
    }
  }
  return found;
}

const singleColumn = (columns: string[], name: string) => columns.length === 1 && columns[0] === name;

function matches(rel: Relationship, target: string, hint: string | undefined): boolean {
  const direct = rel.cardinality !== 'many-to-many';
  if (rel.isSelf) {
    // One foreign key, two relationships: the one-to-many answers to the table's name,
    // the many-to-one to the column's (`children:family_tree(*)`, `parent(*)`).
    if (!hint) {
      return (target === rel.target.name && rel.cardinality === 'one-to-many') ||
        (singleColumn(rel.parentColumns, target) && rel.cardinality === 'many-to-one');
    }
    return target === rel.target.name && rel.cardinality === 'one-to-many' && singleColumn(rel.parentColumns, hint);
  }
  if (!hint) {
    return target === rel.target.name ||
      (direct && !rel.target.isView && (target === rel.constraint || singleColumn(rel.parentColumns, target)));
  }
  if (target !== rel.target.name) return false;
  if (!direct) return hint === rel.constraint;
  return hint === rel.constraint || singleColumn(rel.parentColumns, hint) || singleColumn(rel.targetColumns, hint);
}

const list = (columns: string[]) => `(${columns.join(', ')})`;

function describe(parent: Table, rel: Relationship) {
  const relationship = rel.junction
    ? `${rel.junction.table.name} using ${rel.junction.parentConstraint}${list(rel.junction.parent.map(([c]) => c))} and ` +
      `${rel.junction.targetConstraint}${list(rel.junction.target.map(([c]) => c))}`
    : `${rel.constraint} using ${parent.name}${list(rel.parentColumns)} and ${rel.target.name}${list(rel.targetColumns)}`;
  return { cardinality: rel.cardinality, embedding: `${parent.name} with ${rel.target.name}`, relationship };
}

export function findRelationship(cache: SchemaCache, parent: Table, target: string, hint?: string): Relationship {
  // Sorted by constraint, so that the candidates of an ambiguous embed are always listed alike.
  const candidates = relationshipsOf(cache, parent)
    .filter((rel) => matches(rel, target, hint))
    .sort((a, b) => (a.constraint < b.constraint ? -1 : a.constraint > b.constraint ? 1 : 0));
  if (candidates.length === 1) return candidates[0] as Relationship;
  if (candidates.length === 0) {
    throw new RestError(
      400,
      'PGRST200',
      `Could not find a relationship between '${parent.name}' and '${target}' in the schema cache`,
      `Searched for a foreign key relationship between '${parent.name}' and '${target}'${hint ? ` using the hint '${hint}'` : ''} ` +
        `in the schema '${parent.schema}', but no matches were found.`,
    );
  }
  const hints = candidates.map((rel) => `'${rel.target.name}!${rel.constraint}'`).join(', ');
  throw new RestError(
    300,
    'PGRST201',
    `Could not embed because more than one relationship was found for '${parent.name}' and '${target}'`,
    candidates.map((rel) => describe(parent, rel)),
    `Try changing '${target}' to one of the following: ${hints}. Find the desired relationship in the 'details' key.`,
  );
}
