/**
 * Which relationship an embed `target!hint(...)` names, among those of its parent
 * (relationship-graph.ts), as PostgREST 12's findRel (Plan.hs) chooses: the target may
 * name the related table or view, a foreign key or a column of the parent (not towards
 * a view), or a computed relationship's function; the hint a foreign key, a column on
 * either side or a junction table. None is 400 PGRST200 (with a "Perhaps you meant"
 * hint found as PostgREST finds it), more than one 300 PGRST201 with the candidates.
 */
import { RestError } from './errors.ts';
import { fuzzyMatches } from './fuzzy-set.ts';
import type { Cardinality, KeyRelationship, Relationship } from './relationship-graph.ts';
import { relationKey } from './relationship-graph.ts';
import type { SchemaCache, Table } from './schema-cache.ts';

export type { Relationship } from './relationship-graph.ts';
export { isToOne } from './relationship-graph.ts';

const singleColumn = (rel: KeyRelationship, side: 0 | 1, name: string) =>
  rel.cardinality !== 'many-to-many' && rel.columns.length === 1 && rel.columns[0]?.[side] === name;

function matches(rel: Relationship, target: string, hint: string | undefined): boolean {
  if (rel.kind === 'computed') return target === rel.fn.name;
  const toTable = target === rel.target.name;
  if (rel.isSelf) {
    // One foreign key, two relationships: the one-to-many answers to the table's name,
    // the many-to-one to the column's (`children:family_tree(*)`, `parent(*)`).
    if (!hint) {
      return (toTable && rel.cardinality === 'one-to-many') || (singleColumn(rel, 0, target) && rel.cardinality === 'many-to-one');
    }
    return toTable && rel.cardinality === 'one-to-many' && singleColumn(rel, 1, hint);
  }
  const byConstraint = (name: string) => rel.cardinality !== 'many-to-many' && rel.constraint === name;
  if (!hint) return toTable || (!rel.target.isView && (byConstraint(target) || singleColumn(rel, 0, target)));
  return toTable && (byConstraint(hint) || singleColumn(rel, 0, hint) || singleColumn(rel, 1, hint) ||
    (rel.cardinality === 'many-to-many' && rel.junction?.table.name === hint));
}

const cardinalityOrder: Record<Cardinality, number> = { 'one-to-many': 0, 'many-to-one': 1, 'one-to-one': 2, 'many-to-many': 3 };
const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const qualified = (a: Table, b: Table) => text(a.schema, b.schema) || text(a.name, b.name);
const pairs = (a: Array<[string, string]>, b: Array<[string, string]>) => text(JSON.stringify(a), JSON.stringify(b));

/** PostgREST's order of relationships (its derived Ord), in which an ambiguous embed lists them. */
function compareRelationships(a: Relationship, b: Relationship): number {
  if (a.kind !== b.kind) return a.kind === 'key' ? -1 : 1;
  if (a.kind === 'computed' || b.kind === 'computed') {
    const fa = a.kind === 'computed' ? a.fn : { schema: '', name: '' };
    const fb = b.kind === 'computed' ? b.fn : { schema: '', name: '' };
    return text(fa.schema, fb.schema) || text(fa.name, fb.name) || qualified(a.table, b.table) || qualified(a.target, b.target);
  }
  return qualified(a.table, b.table) || qualified(a.target, b.target) || Number(a.isSelf) - Number(b.isSelf) ||
    cardinalityOrder[a.cardinality] - cardinalityOrder[b.cardinality] ||
    (a.junction && b.junction
      ? qualified(a.junction.table, b.junction.table) || text(a.junction.originConstraint, b.junction.originConstraint) ||
        text(a.junction.targetConstraint, b.junction.targetConstraint)
      : text(a.constraint, b.constraint) || pairs(a.columns, b.columns));
}

const list = (columns: string[]) => `(${columns.join(', ')})`;

function describe(rel: KeyRelationship) {
  const relationship = rel.junction
    ? `${rel.junction.table.name} using ${rel.junction.originConstraint}${list(rel.junction.origin.map(([c]) => c))} and ` +
      `${rel.junction.targetConstraint}${list(rel.junction.target.map(([c]) => c))}`
    : `${rel.constraint} using ${rel.table.name}${list(rel.columns.map(([c]) => c))} and ${rel.target.name}${list(rel.columns.map(([, c]) => c))}`;
  return { cardinality: rel.cardinality, embedding: `${rel.table.name} with ${rel.target.name}`, relationship };
}

/** The relationships leaving `origin` towards relations of `schema`. */
export function relationshipsFrom(cache: SchemaCache, origin: Table, schema: string): Relationship[] {
  return (cache.relationships.get(relationKey(origin)) ?? []).filter((r) => r.target.schema === schema);
}

/** PostgREST's "Perhaps you meant ..." for an embed that matched nothing (noRelBetweenHint). */
function noRelationshipHint(cache: SchemaCache, schema: string, origin: Table, target: string): string | null {
  const found = relationshipsFrom(cache, origin, schema);
  if (found.length) {
    const closest = fuzzyMatches(found.map((r) => r.target.name), target).find((m) => m.score < 1);
    return closest ? `Perhaps you meant '${closest.value}' instead of '${target}'.` : null;
  }
  const origins = [...cache.relationships.values()].flat().filter((r) => r.table.schema === schema && r.target.schema === schema).map((r) => r.table.name);
  const parent = fuzzyMatches(origins, origin.name)[0]?.value;
  return parent ? `Perhaps you meant '${parent}' instead of '${origin.name}'.` : null;
}

export function findRelationship(cache: SchemaCache, schema: string, origin: Table, target: string, hint?: string): Relationship {
  const candidates = relationshipsFrom(cache, origin, schema).filter((rel) => matches(rel, target, hint)).sort(compareRelationships);
  if (candidates.length === 1) return candidates[0] as Relationship;
  if (candidates.length === 0) {
    throw new RestError(
      400,
      'PGRST200',
      `Could not find a relationship between '${origin.name}' and '${target}' in the schema cache`,
      `Searched for a foreign key relationship between '${origin.name}' and '${target}'${hint ? ` using the hint '${hint}'` : ''} ` +
        `in the schema '${schema}', but no matches were found.`,
      noRelationshipHint(cache, schema, origin, target),
    );
  }
  // Two computed relationships of one name cannot both take the parent's row, so all candidates are keys.
  const keyed = candidates.filter((rel): rel is KeyRelationship => rel.kind === 'key');
  const hints = keyed.map((rel) => `'${rel.target.name}!${rel.junction ? rel.junction.table.name : rel.constraint}'`).join(', ');
  throw new RestError(
    300,
    'PGRST201',
    `Could not embed because more than one relationship was found for '${origin.name}' and '${target}'`,
    keyed.map(describe),
    `Try changing '${target}' to one of the following: ${hints}. Find the desired relationship in the 'details' key.`,
  );
}
