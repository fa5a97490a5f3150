/**
 * The small pieces of SQL every REST statement is made of. Identifiers reach SQL only
 * after they are found in the schema cache, and then quoted; values (filter values,
 * JSON keys, patterns, languages) reach it only as bind parameters; patterns and
 * full-text queries only after rest/pattern-guard.ts admitted them. Operators follow
 * PostgREST 12's SqlFragment.hs: `in` is `IN (...)` here (PostgREST writes `= ANY`), with
 * the same meaning.
 */
import { refuse, RestError } from './errors.ts';
import type { FieldScope } from './field-scope.ts';
import { resolveField } from './field-scope.ts';
import type { Condition, Field, Operation } from './grammar/types.ts';

export { checkColumn, ident, tableRef } from './field-scope.ts';

export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Casts a select may apply (`salary::text`); others are refused rather than handed to Postgres. */
const allowedCasts = new Set([
  'text', 'varchar', 'char', 'int', 'int2', 'int4', 'int8', 'integer', 'smallint', 'bigint', 'numeric', 'decimal',
  'float4', 'float8', 'real', 'double precision', 'boolean', 'bool', 'date', 'time', 'timetz', 'timestamp',
  'timestamptz', 'interval', 'json', 'jsonb', 'uuid',
]);

export function castSql(expression: string, cast: string | undefined): string {
  if (!cast) return expression;
  const type = cast.trim().toLowerCase();
  if (!allowedCasts.has(type)) {
    throw refuse(`"${cast}" is not a cast this API allows`, null, `Allowed casts: ${[...allowedCasts].join(', ')}.`);
  }
  return `CAST(${expression} AS ${type})`;
}

/** The column, computed field or count (and JSON path) `field` names on the level `scope`. */
export function fieldSql(scope: FieldScope, field: Field, params: SqlParams): string {
  const resolved = resolveField(scope, field.name);
  let sql = resolved.sql;
  if (field.path.length === 0) return sql;
  // Composite and array columns are reached through to_jsonb, as PostgREST does.
  const column = scope.table.columns.get(field.name);
  if (column?.isArray || column?.isComposite) sql = `to_jsonb(${sql})`;
  for (const step of field.path) sql += `${step.arrow}${params.add(step.key)}::${step.index ? 'int' : 'text'}`;
  return sql;
}

/** The name a selected field gets without an alias: the last JSON key, or the column's name. */
export function fieldLabel(field: Field): string {
  const keys = field.path.filter((step) => !step.index);
  return keys.length ? (keys[keys.length - 1]?.key ?? field.name) : field.name;
}

const simpleSql: Record<string, string> = {
  neq: '<>', cs: '@>', cd: '<@', ov: '&&', sl: '<<', sr: '>>', nxr: '&<', nxl: '&>', adj: '-|-',
  eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=', like: 'like', ilike: 'ilike', match: '~', imatch: '~*',
};
const ftsFunction: Record<string, string> = {
  fts: 'to_tsquery', plfts: 'plainto_tsquery', phfts: 'phraseto_tsquery', wfts: 'websearch_to_tsquery',
};

export function operationSql(expression: string, operation: Operation, params: SqlParams): string {
  switch (operation.op) {
    case 'in': {
      // `in.()` and `in.("")` match nothing, as PostgREST's `= ANY('{}')`.
      const values = operation.values.length === 1 && operation.values[0] === '' ? [] : operation.values;
      return values.length === 0 ? 'false' : `${expression} IN (${values.map((v) => params.add(v)).join(', ')})`;
    }
    case 'is': {
      const word = operation.value === 'not_null' ? 'NOT NULL' : operation.value.toUpperCase();
      return `${expression} IS ${word}`;
    }
    case 'isdistinct':
      return `${expression} IS DISTINCT FROM ${params.add(operation.value)}`;
    case 'fts':
    case 'plfts':
    case 'phfts':
    case 'wfts': {
      const language = operation.language ? `${params.add(operation.language)}::regconfig, ` : '';
      return `${expression} @@ ${ftsFunction[operation.op]}(${language}${params.add(operation.value)})`;
    }
    default: {
      const value = operation.op === 'like' || operation.op === 'ilike' ? operation.value.replace(/\*/g, '%') : operation.value;
      const quantifier = 'quantifier' in operation ? operation.quantifier : undefined;
      const operand = quantifier ? `${quantifier.toUpperCase()}(${params.add(value)})` : params.add(value);
      return `${expression} ${simpleSql[operation.op]} ${operand}`;
    }
  }
}

/**
 * A condition on the row `alias` of `table`. `embedded` answers for a field that names an
 * embedded resource rather than a column (`actors=not.is.null`): the SQL of "it has a row".
 */
export function conditionSql(
  cond: Condition,
  scope: FieldScope,
  params: SqlParams,
  embedded: (name: string) => string | null = () => null,
): string {
  if (cond.kind === 'logic') {
    const joined = cond.conditions.map((c) => conditionSql(c, scope, params, embedded)).join(` ${cond.op.toUpperCase()} `);
    return `${cond.negate ? 'NOT ' : ''}(${joined})`;
  }
  if (!scope.table.columns.has(cond.field.name) && cond.field.path.length === 0) {
    const present = embedded(cond.field.name);
    if (present !== null) {
      if (cond.operation.op !== 'is' || (cond.operation.value !== 'null' && cond.operation.value !== 'not_null')) {
        throw new RestError(400, 'PGRST120', `Bad operator on the '${cond.field.name}' embedded resource`,
          'Only is null or not is null filters are allowed on embedded resources');
      }
      const wantsRow = (cond.operation.value === 'not_null') !== cond.negate;
      return wantsRow ? present : `NOT ${present}`;
    }
  }
  const sql = operationSql(fieldSql(scope, cond.field, params), cond.operation, params);
  return cond.negate ? `NOT (${sql})` : sql;
}
