/**
 * The SQL that takes a database built by the migrations to the declared schema, from the
 * two catalogs (catalog.ts): new tables, columns, constraints, indexes, policies, triggers,
 * views, functions and their new bodies, grants, comments, the realtime publication and the
 * synced-table registry's rows. What cannot be written safely without knowing the data
 * (dropping a table or column, changing a column's type, reordering columns) is returned
 * as a sentence to act on by hand instead. Used by scripts/db-diff.ts.
 */
import type { Catalog, Column, Function, Policy, Relation } from './catalog.ts';
import type { Difference } from './compare.ts';

/** `sections`: the statements in the order they apply, grouped (tables, columns, ..., comments). */
export type MigrationPlan = { sections: string[][]; statements: string[]; byHand: string[] };

const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;
const quoteIdent = (name: string) => (/^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`);
/** "public.daily_inputs" as SQL. */
const qualified = (name: string) => name.split('.').map(quoteIdent).join('.');
const comment = (target: string, text: string | null) => `comment on ${target} is ${text === null ? 'null' : quoteLiteral(text)};`;

function columnDefinition(column: Column): string {
  let sql = `${quoteIdent(column.name)} ${column.type}`;
  if (column.generated !== null) sql += ` generated always as (${column.generated}) stored`;
  if (column.identity) sql += ` generated ${column.identity} as identity`;
  if (column.default !== null) sql += ` default ${column.default}`;
  if (column.notNull) sql += ' not null';
  return sql;
}

function policyStatement(policy: Policy): string {
  let sql = `create policy "${policy.name.replaceAll('"', '""')}" on ${qualified(policy.table)}`;
  if (!policy.permissive) sql += ' as restrictive';
  sql += `\n  for ${policy.command} to ${policy.roles.join(', ')}`;
  if (policy.using !== null) sql += `\n  using (${policy.using})`;
  if (policy.check !== null) sql += `\n  with check (${policy.check})`;
  return `${sql};`;
}

/** "role: privilege" lines as grant and revoke statements for one object. */
function grantChanges(target: string, from: readonly string[], to: readonly string[]): string[] {
  const byRole = (lines: readonly string[], others: readonly string[]) => {
    const roles = new Map<string, string[]>();
    for (const line of lines) {
      if (others.includes(line) || line.startsWith('owner: ')) continue;
      const [role, privilege] = line.split(': ') as [string, string];
      roles.set(role, [...(roles.get(role) ?? []), privilege.replace(' (grantable)', '')]);
    }
    return roles;
  };
  const statements: string[] = [];
  for (const [role, privileges] of byRole(from, to)) statements.push(`revoke ${privileges.join(', ')} on ${target} from ${role};`);
  for (const [role, privileges] of byRole(to, from)) statements.push(`grant ${privileges.join(', ')} on ${target} to ${role};`);
  return statements;
}

/** The grants a new object gets when created: the owner's, PUBLIC's default and the default privileges of its schema. */
function grantsOnCreate(catalog: Catalog, schema: string, kind: 'r' | 'f' | 'S'): string[] {
  const grants = kind === 'f' ? ['public: execute'] : [];
  for (const line of catalog.defaultPrivileges) {
    const match = /^owner in (\S+) on (\w): (\S+) (\w+)$/.exec(line);
    if (match && match[1] === schema && match[2] === kind) grants.push(`${match[3]}: ${match[4]}`);
  }
  return grants;
}

const functionTarget = (fn: Function) => {
  const args = fn.signature.slice(fn.signature.indexOf('(') + 1, -1);
  const types = args ? args.split(', ').map((arg) => arg.replace(/^(in |out |inout |variadic )?\w+ /, '$1')).join(', ') : '';
  return `function ${qualified(`${fn.schema}.${fn.name}`)}(${types})`;
};

const resultOf = (definition: string) => /\n RETURNS (.*)\n/.exec(definition)?.[1] ?? '';

function rowValues(row: Record<string, unknown>): { columns: string; values: string } {
  const literal = (value: unknown): string => {
    if (value === null) return 'null';
    if (Array.isArray(value)) return `array[${value.map(literal).join(', ')}]`;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    if (typeof value === 'object') return `${quoteLiteral(JSON.stringify(value))}::jsonb`;
    return quoteLiteral(String(value));
  };
  const keys = Object.keys(row);
  return { columns: keys.map(quoteIdent).join(', '), values: keys.map((key) => literal(row[key])).join(', ') };
}

/**
 * What to write, section by section in an order that applies: schemas and types, tables
 * and columns, constraints, functions (after the tables their SQL may read), views,
 * indexes, policies, triggers, grants, publication, comments, registry rows.
 */
export function planMigration(migrations: Catalog, schemas: Catalog, differences: Difference[]): MigrationPlan {
  const sections = {
    schemas: [] as string[],
    tables: [] as string[],
    columns: [] as string[],
    constraints: [] as string[],
    functions: [] as string[],
    views: [] as string[],
    indexes: [] as string[],
    policies: [] as string[],
    triggers: [] as string[],
    grants: [] as string[],
    publication: [] as string[],
    comments: [] as string[],
    rows: [] as string[],
  };
  const byHand: string[] = [];
  const relation = (name: string): Relation | undefined => schemas.relations[name] ?? migrations.relations[name];

  for (const d of differences) {
    const hand = (what: string) => byHand.push(`${d.kind} ${d.name}: ${what}`);
    switch (d.kind) {
      case 'schema': {
        const wanted = schemas.schemas[d.name];
        if (d.change === 'only in schemas' && wanted) {
          sections.schemas.push(`create schema ${quoteIdent(d.name)};`);
          // A new schema grants nothing but to its owner.
          sections.grants.push(...grantChanges(`schema ${quoteIdent(d.name)}`, [], wanted.grants));
          if (wanted.comment) sections.comments.push(comment(`schema ${quoteIdent(d.name)}`, wanted.comment));
        } else if (d.change === 'differs' && d.property === 'grants') {
          sections.grants.push(...grantChanges(`schema ${quoteIdent(d.name)}`, migrations.schemas[d.name]?.grants ?? [], wanted?.grants ?? []));
        } else if (d.change === 'differs' && d.property === 'comment') {
          sections.comments.push(comment(`schema ${quoteIdent(d.name)}`, wanted?.comment ?? null));
        } else hand(d.change === 'only in migrations' ? 'drop it (and everything in it) by hand, if that is meant' : `${d.property} differs`);
        break;
      }
      case 'extension':
        if (d.change === 'only in schemas') sections.schemas.push(`create extension if not exists ${quoteIdent(d.name)} with schema ${quoteIdent(schemas.extensions[d.name] ?? 'extensions')};`);
        else hand('add, drop or move the extension by hand');
        break;
      case 'table':
      case 'view':
      case 'materialized view':
      case 'sequence':
      case 'relation': {
        const wanted = schemas.relations[d.name];
        const deployed = migrations.relations[d.name];
        const target = `${d.kind === 'view' ? 'view' : 'table'} ${qualified(d.name)}`;
        if (d.change === 'only in schemas' && wanted) {
          if (wanted.kind === 'table') {
            sections.tables.push(`create table ${qualified(d.name)} (\n${wanted.columns.map((c) => `  ${columnDefinition(c)}`).join(',\n')}\n);`);
            if (wanted.rowSecurity) sections.tables.push(`alter table ${qualified(d.name)} enable row level security;`);
            for (const c of wanted.columns) if (c.comment !== null) sections.comments.push(comment(`column ${qualified(d.name)}.${quoteIdent(c.name)}`, c.comment));
            sections.grants.push(...grantChanges(target, grantsOnCreate(migrations, d.name.split('.')[0] ?? '', 'r'), wanted.grants));
            for (const pub of wanted.publications) sections.publication.push(`alter publication ${quoteIdent(pub)} add table ${qualified(d.name)};`);
            if (wanted.comment) sections.comments.push(comment(target, wanted.comment));
          } else if (wanted.kind === 'view' && wanted.viewDefinition) {
            const options = wanted.options.length ? ` with (${wanted.options.join(', ')})` : '';
            sections.views.push(`create view ${qualified(d.name)}${options} as\n${wanted.viewDefinition.replace(/;\s*$/, '')};`);
            sections.grants.push(...grantChanges(target, grantsOnCreate(migrations, d.name.split('.')[0] ?? '', 'r'), wanted.grants));
            if (wanted.comment) sections.comments.push(comment(target, wanted.comment));
          } else if (wanted.kind !== 'sequence') hand(`create the ${wanted.kind} by hand`);
        } else if (d.change === 'only in migrations') {
          if (deployed?.kind === 'view') sections.views.push(`drop view ${qualified(d.name)};`);
          else if (deployed?.kind !== 'sequence') hand(`drop it by hand if its ${deployed?.kind === 'table' ? 'rows are' : 'contents are'} not needed (a migration that drops data is written with care)`);
        } else if (d.property === 'grants') sections.grants.push(...grantChanges(target, deployed?.grants ?? [], wanted?.grants ?? []));
        else if (d.property === 'row level security') sections.tables.push(`alter table ${qualified(d.name)} ${wanted?.rowSecurity ? 'enable' : 'disable'} row level security;`);
        else if (d.property === 'forced row level security') sections.tables.push(`alter table ${qualified(d.name)} ${wanted?.forceRowSecurity ? '' : 'no '}force row level security;`);
        else if (d.property === 'comment') sections.comments.push(comment(target, wanted?.comment ?? null));
        else if (d.property === 'publications') {
          for (const pub of wanted?.publications ?? []) if (!deployed?.publications.includes(pub)) sections.publication.push(`alter publication ${quoteIdent(pub)} add table ${qualified(d.name)};`);
          for (const pub of deployed?.publications ?? []) if (!wanted?.publications.includes(pub)) sections.publication.push(`alter publication ${quoteIdent(pub)} drop table ${qualified(d.name)};`);
        } else if ((d.property === 'view definition' || d.property === 'options') && wanted?.kind === 'view' && wanted.viewDefinition) {
          const options = wanted.options.length ? ` with (${wanted.options.join(', ')})` : '';
          sections.views.push(`create or replace view ${qualified(d.name)}${options} as\n${wanted.viewDefinition.replace(/;\s*$/, '')};`);
        } else if (d.property === 'column order') {
          hand(`the columns' order differs (${d.migrations} / ${d.schemas}); a deployed table only grows at its end: put new columns last in its schema file`);
        } else hand(`${d.property ?? d.change} differs: change it by hand`);
        break;
      }
      case 'column': {
        const table = d.name.slice(0, d.name.lastIndexOf('.'));
        const columnName = d.name.slice(d.name.lastIndexOf('.') + 1);
        const wanted = schemas.relations[table]?.columns.find((c) => c.name === columnName);
        const target = `${qualified(table)}`;
        if (relation(table)?.kind === 'view') break; // a view's columns follow its definition
        if (d.change === 'only in schemas' && wanted) {
          sections.columns.push(`alter table ${target} add column ${columnDefinition(wanted)};`);
          if (wanted.comment !== null) sections.comments.push(comment(`column ${target}.${quoteIdent(wanted.name)}`, wanted.comment));
        } else if (d.change === 'only in migrations') {
          hand(`drop the column by hand if its values are not needed (alter table ${target} drop column ${quoteIdent(columnName)})`);
        } else if (d.property === 'comment') sections.comments.push(comment(`column ${target}.${quoteIdent(columnName)}`, wanted?.comment ?? null));
        else if (d.property === 'default') {
          sections.columns.push(`alter table ${target} alter column ${quoteIdent(columnName)} ${wanted?.default == null ? 'drop default' : `set default ${wanted.default}`};`);
        } else if (d.property === 'not null') {
          if (wanted?.notNull) hand(`fill the empty values, then: alter table ${target} alter column ${quoteIdent(columnName)} set not null`);
          else sections.columns.push(`alter table ${target} alter column ${quoteIdent(columnName)} drop not null;`);
        } else hand(`${d.property} changes from ${d.migrations} to ${d.schemas}: write the alter table ... type ... using ... by hand, for the rows already stored`);
        break;
      }
      case 'constraint': {
        const wanted = schemas.constraints[d.name];
        const deployed = migrations.constraints[d.name];
        const constraint = wanted ?? deployed;
        if (!constraint || constraint.type === 'n') break; // not-null constraints follow their columns
        const drop = `alter table ${qualified(constraint.table)} drop constraint ${quoteIdent(constraint.name)};`;
        const add = wanted && `alter table ${qualified(wanted.table)} add constraint ${quoteIdent(wanted.name)} ${wanted.definition}${wanted.validated ? '' : ' not valid'};`;
        if (d.change === 'only in schemas' && add) sections.constraints.push(add);
        else if (d.change === 'only in migrations') sections.constraints.push(drop);
        else if (d.property === 'comment') sections.comments.push(comment(`constraint ${quoteIdent(constraint.name)} on ${qualified(constraint.table)}`, wanted?.comment ?? null));
        else if (d.property === 'validated' && wanted?.validated) sections.constraints.push(`alter table ${qualified(wanted.table)} validate constraint ${quoteIdent(wanted.name)};`);
        else if (add) sections.constraints.push(drop, add);
        break;
      }
      case 'index': {
        const wanted = schemas.indexes[d.name];
        const deployed = migrations.indexes[d.name];
        const index = wanted ?? deployed;
        // An index that backs a constraint comes and goes with it.
        if (!index || Object.values({ ...schemas.constraints, ...migrations.constraints }).some((c) => `${c.table.split('.')[0]}.${c.name}` === d.name)) break;
        if (d.change === 'only in schemas' && wanted) sections.indexes.push(`${wanted.definition};`);
        else if (d.change === 'only in migrations') sections.indexes.push(`drop index ${qualified(d.name)};`);
        else if (d.property === 'comment') sections.comments.push(comment(`index ${qualified(d.name)}`, wanted?.comment ?? null));
        else if (wanted) sections.indexes.push(`drop index ${qualified(d.name)};`, `${wanted.definition};`);
        break;
      }
      case 'policy': {
        const wanted = schemas.policies[d.name];
        const deployed = migrations.policies[d.name];
        const policy = (wanted ?? deployed) as Policy;
        const drop = `drop policy "${policy.name.replaceAll('"', '""')}" on ${qualified(policy.table)};`;
        if (d.change === 'only in schemas' && wanted) sections.policies.push(policyStatement(wanted));
        else if (d.change === 'only in migrations') sections.policies.push(drop);
        else if (wanted && !sections.policies.includes(policyStatement(wanted))) sections.policies.push(drop, policyStatement(wanted));
        break;
      }
      case 'trigger': {
        const wanted = schemas.triggers[d.name];
        const trigger = wanted ?? migrations.triggers[d.name];
        if (!trigger) break;
        const drop = `drop trigger ${quoteIdent(trigger.name)} on ${qualified(trigger.table)};`;
        if (d.change === 'only in schemas' && wanted) sections.triggers.push(`${wanted.definition};`);
        else if (d.change === 'only in migrations') sections.triggers.push(drop);
        else if (d.property === 'comment') sections.comments.push(comment(`trigger ${quoteIdent(trigger.name)} on ${qualified(trigger.table)}`, wanted?.comment ?? null));
        else if (wanted && !sections.triggers.includes(`${wanted.definition};`)) sections.triggers.push(drop, `${wanted.definition};`);
        break;
      }
      case 'function': {
        const wanted = schemas.functions[d.name];
        const deployed = migrations.functions[d.name];
        const fn = (wanted ?? deployed) as Function;
        if (d.change === 'only in schemas' && wanted) {
          sections.functions.push(`${wanted.definition.trimEnd()};`);
          sections.grants.push(...grantChanges(functionTarget(wanted), grantsOnCreate(migrations, wanted.schema, 'f'), wanted.grants));
          if (wanted.comment) sections.comments.push(comment(functionTarget(wanted), wanted.comment));
        } else if (d.change === 'only in migrations') sections.functions.push(`drop ${functionTarget(fn)};`);
        else if (d.property === 'definition' && wanted && deployed) {
          if (resultOf(wanted.definition) !== resultOf(deployed.definition)) {
            hand(`its result type changes (${resultOf(deployed.definition)} to ${resultOf(wanted.definition)}): drop ${functionTarget(fn)} and create it again, with its grants, by hand`);
          } else sections.functions.push(`${wanted.definition.trimEnd()};`);
        } else if (d.property === 'grants') sections.grants.push(...grantChanges(functionTarget(fn), deployed?.grants ?? [], wanted?.grants ?? []));
        else if (d.property === 'comment') sections.comments.push(comment(functionTarget(fn), wanted?.comment ?? null));
        break;
      }
      case 'rows of': {
        const table = qualified(d.name);
        const before = migrations.data[d.name] ?? [];
        const after = schemas.data[d.name] ?? [];
        for (const row of before) {
          if (after.includes(row)) continue;
          // A reference table's first column (in JSON's order, shortest name first) names its row.
          const values = JSON.parse(row) as Record<string, unknown>;
          const [keyColumn] = Object.keys(values);
          if (keyColumn) sections.rows.push(`delete from ${table} where ${quoteIdent(keyColumn)} = ${rowValues({ [keyColumn]: values[keyColumn] }).values};`);
        }
        for (const row of after) {
          if (before.includes(row)) continue;
          const { columns, values } = rowValues(JSON.parse(row) as Record<string, unknown>);
          sections.rows.push(`insert into ${table} (${columns}) values (${values});`);
        }
        break;
      }
      default:
        hand(`${d.change}${d.property ? ` (${d.property})` : ''}: write it by hand`);
    }
  }
  const grouped = Object.values(sections).filter((group) => group.length > 0);
  return { sections: grouped, statements: grouped.flat(), byHand };
}
