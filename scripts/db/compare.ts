/**
 * The differences between two catalogs (catalog.ts): what the migrations build and what the
 * schema files declare. Each difference names the object and says what differs, with both
 * sides' values, so a failed check reads as a to-do list.
 */
import type { Catalog, Column, Relation } from './catalog.ts';

export type Side = 'migrations' | 'schemas';

export type Difference = {
  /** What kind of object: 'table', 'column', 'function', ... */
  kind: string;
  /** The object, qualified: "public.daily_inputs.value", "public.push_changes(p_table text, p_rows jsonb)". */
  name: string;
  /** Present only on one side, or changed. */
  change: 'only in migrations' | 'only in schemas' | 'differs';
  /** The property that differs, for 'differs'. */
  property?: string;
  migrations?: string;
  schemas?: string;
};

const show = (value: unknown): string => {
  if (value === null || value === undefined) return '(none)';
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.join('; ');
  return String(value);
};

function compareRecords<T>(
  kind: string,
  a: Record<string, T>,
  b: Record<string, T>,
  properties: (value: T) => Record<string, unknown>,
  out: Difference[],
) {
  for (const name of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    const left = a[name];
    const right = b[name];
    if (left === undefined) out.push({ kind, name, change: 'only in schemas' });
    else if (right === undefined) out.push({ kind, name, change: 'only in migrations' });
    else {
      const l = properties(left);
      const r = properties(right);
      for (const property of Object.keys(l)) {
        if (show(l[property]) !== show(r[property])) out.push({ kind, name, change: 'differs', property, migrations: show(l[property]), schemas: show(r[property]) });
      }
    }
  }
}

const columnProperties = (c: Column) => ({
  type: c.type,
  'not null': c.notNull,
  default: c.default,
  identity: c.identity,
  generated: c.generated,
  comment: c.comment,
});

function compareColumns(table: string, a: Column[], b: Column[], out: Difference[]) {
  compareRecords(
    'column',
    Object.fromEntries(a.map((c) => [`${table}.${c.name}`, c])),
    Object.fromEntries(b.map((c) => [`${table}.${c.name}`, c])),
    columnProperties,
    out,
  );
  // Column order decides select * and a row's JSON; a deployed table can only grow at its end.
  const shared = (list: Column[], other: Column[]) => list.map((c) => c.name).filter((name) => other.some((o) => o.name === name));
  const left = shared(a, b);
  const right = shared(b, a);
  if (left.join(',') !== right.join(',')) {
    out.push({ kind: 'table', name: table, change: 'differs', property: 'column order', migrations: left.join(', '), schemas: right.join(', ') });
  }
}

const relationProperties = (r: Relation) => ({
  kind: r.kind,
  'row level security': r.rowSecurity,
  'forced row level security': r.forceRowSecurity,
  options: r.options,
  grants: r.grants,
  comment: r.comment,
  'view definition': r.viewDefinition,
  publications: r.publications,
});

export function compareCatalogs(migrations: Catalog, schemas: Catalog): Difference[] {
  const out: Difference[] = [];
  compareRecords('schema', migrations.schemas, schemas.schemas, (s) => ({ grants: s.grants, comment: s.comment }), out);
  compareRecords('extension', migrations.extensions, schemas.extensions, (schema) => ({ schema }), out);
  compareRecords(
    'default privileges',
    Object.fromEntries(migrations.defaultPrivileges.map((line) => [line, line])),
    Object.fromEntries(schemas.defaultPrivileges.map((line) => [line, line])),
    () => ({}),
    out,
  );
  compareRecords('type', migrations.types, schemas.types, (t) => ({ kind: t.kind, definition: t.definition, comment: t.comment }), out);
  const kindOf = (name: string) => (migrations.relations[name] ?? schemas.relations[name])?.kind ?? 'relation';
  for (const name of [...new Set([...Object.keys(migrations.relations), ...Object.keys(schemas.relations)])].sort()) {
    const kind = kindOf(name);
    const one = { [name]: migrations.relations[name] };
    const other = { [name]: schemas.relations[name] };
    compareRecords(kind, one as Record<string, Relation>, other as Record<string, Relation>, relationProperties, out);
    const left = migrations.relations[name];
    const right = schemas.relations[name];
    if (left && right) compareColumns(name, left.columns, right.columns, out);
  }
  compareRecords('constraint', migrations.constraints, schemas.constraints, (c) => ({ definition: c.definition, validated: c.validated, comment: c.comment }), out);
  compareRecords('index', migrations.indexes, schemas.indexes, (i) => ({ definition: i.definition, comment: i.comment }), out);
  compareRecords(
    'policy',
    migrations.policies,
    schemas.policies,
    (p) => ({ command: p.command, permissive: p.permissive, roles: p.roles, using: p.using, 'with check': p.check }),
    out,
  );
  compareRecords('trigger', migrations.triggers, schemas.triggers, (t) => ({ definition: t.definition, enabled: t.enabled, comment: t.comment }), out);
  compareRecords('function', migrations.functions, schemas.functions, (f) => ({ definition: f.definition, grants: f.grants, comment: f.comment }), out);
  compareRecords(
    'rows of',
    Object.fromEntries(Object.keys(migrations.data).map((t) => [t, migrations.data[t]])),
    Object.fromEntries(Object.keys(schemas.data).map((t) => [t, schemas.data[t]])),
    (rows) => ({ rows }),
    out,
  );
  return out;
}

/** Where two texts first differ, as "line N: <migrations line> / <schemas line>". */
function firstDifference(a: string, b: string): string {
  const left = a.split('\n');
  const right = b.split('\n');
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    if (left[i] !== right[i]) {
      return `first at line ${i + 1}:\n      migrations: ${left[i]?.trim() ?? '(end)'}\n      schemas:    ${right[i]?.trim() ?? '(end)'}`;
    }
  }
  return '';
}

/** One line per difference (multi-line values shown where they first differ). */
export function describeDifferences(differences: Difference[]): string {
  return differences
    .map((d) => {
      if (d.change !== 'differs') return `- ${d.kind} ${d.name}: ${d.change}`;
      const left = d.migrations ?? '';
      const right = d.schemas ?? '';
      if (left.includes('\n') || right.includes('\n')) return `- ${d.kind} ${d.name}: ${d.property} differs, ${firstDifference(left, right)}`;
      return `- ${d.kind} ${d.name}: ${d.property} differs\n      migrations: ${left}\n      schemas:    ${right}`;
    })
    .join('\n');
}
