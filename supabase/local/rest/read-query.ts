/**
 * One level of a read (the root table, an RPC's result, the rows a write returned, or an
 * embedded resource) as a SELECT, embedded resources joined laterally as PostgREST 12's
 * QueryBuilder does: a to-one resource as a row (`row_to_json`, or its columns for a
 * spread), a to-many one as a JSON array, `!inner` as an inner join. Aggregates group by
 * the other outputs (by position, so no output name can be mistaken for an input column);
 * aggregates of a spread resource are applied one level up, as PostgREST hoists them.
 * `count` named as a field is PostgreSQL's functional notation of the count aggregate:
 * it groups nothing, as in PostgREST.
 *
 * Cost limits apply to every level: each to-many lookup spends its rows (at least one)
 * from the statement's embedded-row budget, each to-one row found spends one, and every
 * row that feeds an aggregate spends one from the aggregated-row budget (embed-budget.sql),
 * so a statement PGlite cannot interrupt still stops.
 */
import type { EmbedOptions, ReadContext } from './embed-source.ts';
import { embeddedAlias, embedSource, lateralAlias, scopeOf } from './embed-source.ts';
import { RestError } from './errors.ts';
import type { FieldScope } from './field-scope.ts';
import { ident, resolveField } from './field-scope.ts';
import type { AggregateName, Condition, OrderTerm, SelectItem } from './grammar/types.ts';
import { findRelationship, isToOne } from './relationships.ts';
import type { Table } from './schema-cache.ts';
import { castSql, conditionSql, fieldLabel, fieldSql } from './sql-fragments.ts';

export type { EmbedOptions, ReadContext } from './embed-source.ts';

export type NodeInput = {
  table: Table;
  /** The FROM clause, aliases included. */
  from: string;
  /** The name the level's rows go by (unquoted). */
  alias: string;
  select: SelectItem[];
  conditions: Condition[];
  order: OrderTerm[];
  limit?: number;
  offset?: number;
  /** The embed path of this level, as option keys name it. */
  path: string[];
  /** Join conditions to the parent and budget checks. */
  where: string[];
  /** Outputs get internal names and aggregates wait for the parent. */
  spread: boolean;
  /** 0 for the root. */
  depth: number;
};

/**
 * `aggregated`: an aggregate's value; `grouping`: written with PostgREST's aggregate
 * syntax, so the level groups by its other outputs.
 */
type Output = { expr: string; label: string; name: string; aggregated: boolean; grouping?: boolean; hoist?: { fn: AggregateName; cast?: string } };

type Child = { label: string; alias: string; toOne: boolean; spread: boolean; outputs: Output[]; present: string; join: string };

export type BuiltNode = { sql: string; outputs: Output[] };

type Embed = Extract<SelectItem, { kind: 'embed' }>;

const budgetCheck = (spend: string, exceeded: string) => `CASE WHEN ${spend} THEN true ELSE ${exceeded} IS NULL END`;

function requireAggregates(ctx: ReadContext): void {
  if (!ctx.aggregatesEnabled) throw new RestError(400, 'PGRST123', 'Use of aggregate functions is not allowed');
}

/** The options an embed path names: by alias first, then by the relation's own name. */
export function optionsFor(ctx: ReadContext, path: string[], relation: string): EmbedOptions | undefined {
  return ctx.embeds.get(path.join('.')) ?? ctx.embeds.get([...path.slice(0, -1), relation].join('.'));
}

/** The level an embed of `node` reaches: its relationship, aliases, FROM and join conditions. */
export function embeddedLevel(ctx: ReadContext, node: NodeInput, item: Embed) {
  const rel = findRelationship(ctx.cache, ctx.schema, node.table, item.relation, item.hint);
  const depth = node.depth + 1;
  const label = item.alias ?? item.relation;
  const alias = embeddedAlias(rel, depth);
  return { rel, depth, label, alias, path: [...node.path, label], source: embedSource(rel, alias, node.alias, depth) };
}

function embedChild(ctx: ReadContext, node: NodeInput, item: Embed): Child {
  const { rel, depth, label, alias, path, source } = embeddedLevel(ctx, node, item);
  const toOne = isToOne(rel);
  if (item.spread && !toOne) {
    throw new RestError(400, 'PGRST119', `A spread operation on '${item.relation}' is not possible`,
      `'${node.table.name}' and '${item.relation}' do not form a many-to-one or one-to-one relationship`);
  }
  const options = optionsFor(ctx, path, item.relation);
  const where = [...source.where];
  if (toOne && ctx.embeddedRowBudget !== undefined) {
    const budget = ctx.params.add(ctx.embeddedRowBudget);
    where.push(budgetCheck(`rest_local.spend_embedded_rows(1, ${budget})`, `rest_local.embedded_rows_exceeded(${budget})`));
  }
  const cap = ctx.maxRowsPerEmbed;
  const limit = toOne ? undefined : cap === undefined ? options?.limit : Math.min(options?.limit ?? cap, cap);
  const built = buildNode(ctx, {
    table: rel.target,
    from: source.from,
    alias,
    select: item.select,
    conditions: options?.conditions ?? [],
    order: options?.order ?? [],
    limit,
    offset: toOne ? undefined : options?.offset,
    path,
    where,
    spread: item.spread,
    depth,
  });
  const joinType = item.join === 'inner' ? 'INNER' : 'LEFT';
  const lateral = ident(lateralAlias(rel, label, depth));
  if (toOne) {
    // OFFSET 0 keeps the planner from flattening the lookup into a join it computes once
    // for many parents: each parent row must look up (and spend from the budget) itself.
    return {
      label, alias: lateral, toOne, spread: item.spread, outputs: built.outputs,
      present: `${lateral} IS DISTINCT FROM NULL`,
      join: `${joinType} JOIN LATERAL (${built.sql} OFFSET 0) AS ${lateral} ON TRUE`,
    };
  }
  let agg = `json_agg(${lateral})::jsonb`;
  if (ctx.embeddedRowBudget !== undefined) {
    const budget = ctx.params.add(ctx.embeddedRowBudget);
    agg = `CASE WHEN rest_local.spend_embedded_rows(greatest(count(*), 1), ${budget}) THEN ${agg} ` +
      `ELSE rest_local.embedded_rows_exceeded(${budget})::jsonb END`;
  }
  const on = item.join === 'inner' ? `${lateral}.${lateral} IS NOT NULL` : 'TRUE';
  return {
    label, alias: lateral, toOne, spread: false, outputs: built.outputs,
    present: `${lateral}.${lateral} IS NOT NULL`,
    join: `${joinType} JOIN LATERAL (SELECT ${agg} AS ${lateral} FROM (${built.sql}) AS ${lateral}) AS ${lateral} ON ${on}`,
  };
}

/** The outputs a child adds to its parent: its JSON, or (spread) its columns. */
function childOutputs(ctx: ReadContext, node: NodeInput, child: Child): Output[] {
  if (child.outputs.length === 0) return [];
  if (!child.spread) {
    const expr = child.toOne ? `row_to_json(${child.alias}.*)::jsonb` : `COALESCE(${child.alias}.${child.alias}, '[]'::jsonb)`;
    return [{ expr, label: child.label, name: child.label, aggregated: false }];
  }
  return child.outputs.map((o) => {
    const raw = `${child.alias}.${ident(o.name)}`;
    if (!o.hoist || node.spread) return { ...o, expr: raw, name: o.label, aggregated: false, grouping: false };
    requireAggregates(ctx);
    const expr = castSql(`${o.hoist.fn.toUpperCase()}(${raw})`, o.hoist.cast);
    return { expr, label: o.label, name: o.label, aggregated: true, grouping: true };
  });
}

function fieldOutputs(ctx: ReadContext, node: NodeInput, scope: FieldScope, item: Extract<SelectItem, { kind: 'field' }>): Output[] {
  const row = ident(node.alias);
  if (item.field.name === '*' && !item.aggregate) {
    return node.table.columnOrder.map((c) => ({ expr: `${row}.${ident(c)}`, label: c, name: c, aggregated: false }));
  }
  if (item.aggregate) requireAggregates(ctx);
  const aggregateLabel = item.alias ?? item.aggregate ?? '';
  if (item.field.name === '*') {
    // count(): in a spread, a marker the parent counts.
    if (node.spread) return [{ expr: 'true', label: aggregateLabel, name: aggregateLabel, aggregated: false, hoist: { fn: 'count', cast: item.aggregateCast } }];
    return [{ expr: castSql(`COUNT(${row}.*)`, item.aggregateCast), label: aggregateLabel, name: aggregateLabel, aggregated: true, grouping: true }];
  }
  const expr = castSql(fieldSql(scope, item.field, ctx.params), item.cast);
  if (!item.aggregate) {
    const label = item.alias ?? fieldLabel(item.field);
    const counted = item.field.path.length === 0 && resolveField(scope, item.field.name).kind === 'count';
    return [{ expr, label, name: label, aggregated: counted }];
  }
  if (node.spread) {
    return [{ expr, label: aggregateLabel, name: aggregateLabel, aggregated: false, hoist: { fn: item.aggregate, cast: item.aggregateCast } }];
  }
  const applied = castSql(`${item.aggregate.toUpperCase()}(${expr})`, item.aggregateCast);
  return [{ expr: applied, label: aggregateLabel, name: aggregateLabel, aggregated: true, grouping: true }];
}

function orderSql(ctx: ReadContext, node: NodeInput, scope: FieldScope, children: Child[]): string {
  if (node.order.length === 0) return '';
  const terms = node.order.map((term) => {
    let expr: string;
    if (term.relation) {
      const child = children.find((c) => c.label === term.relation);
      if (!child) {
        throw new RestError(400, 'PGRST108', `'${term.relation}' is not an embedded resource in this request`, null,
          `Verify that '${term.relation}' is included in the 'select' query parameter.`);
      }
      if (!child.toOne) {
        throw new RestError(400, 'PGRST118', `A related order on '${term.relation}' is not possible`,
          `'${node.table.name}' and '${term.relation}' do not form a many-to-one or one-to-one relationship`);
      }
      const column = child.spread ? (child.outputs.find((o) => o.label === term.field.name)?.name ?? term.field.name) : term.field.name;
      expr = `${child.alias}.${ident(column)}`;
      for (const step of term.field.path) expr += `${step.arrow}${ctx.params.add(step.key)}::${step.index ? 'int' : 'text'}`;
    } else {
      expr = fieldSql(scope, term.field, ctx.params);
    }
    const direction = term.descending === undefined ? '' : term.descending ? ' DESC' : ' ASC';
    return `${expr}${direction}${term.nulls ? ` NULLS ${term.nulls.toUpperCase()}` : ''}`;
  });
  return ` ORDER BY ${terms.join(', ')}`;
}

export function buildNode(ctx: ReadContext, node: NodeInput): BuiltNode {
  const scope = scopeOf(ctx, node.table, node.alias);
  const outputs: Output[] = [];
  const children: Child[] = [];
  for (const item of node.select) {
    if (item.kind === 'field') outputs.push(...fieldOutputs(ctx, node, scope, item));
    else {
      const child = embedChild(ctx, node, item);
      children.push(child);
      outputs.push(...childOutputs(ctx, node, child));
    }
  }
  const embedded = (name: string) => children.find((c) => c.label === name)?.present ?? null;
  const where = [...node.where, ...node.conditions.map((c) => conditionSql(c, scope, ctx.params, embedded))];
  if (outputs.some((o) => o.aggregated) && ctx.aggregatedRowBudget !== undefined) {
    const budget = ctx.params.add(ctx.aggregatedRowBudget);
    where.push(budgetCheck(`rest_local.spend_aggregated_rows(1, ${budget})`, `rest_local.aggregated_rows_exceeded(${budget})`));
  }
  // Spread children's outputs are named apart, so that two spread columns of one name never clash.
  const named = node.spread ? outputs.map((o, i) => ({ ...o, name: `pgrst_${i}` })) : outputs;
  const grouped = named.some((o) => o.grouping) ? named.flatMap((o, i) => (o.aggregated ? [] : [String(i + 1)])) : [];
  const sql =
    `SELECT ${named.map((o) => `${o.expr} AS ${ident(o.name)}`).join(', ')} FROM ${node.from}` +
    children.map((c) => ` ${c.join}`).join('') +
    (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
    (grouped.length ? ` GROUP BY ${grouped.join(', ')}` : '') +
    orderSql(ctx, node, scope, children) +
    (node.limit !== undefined ? ` LIMIT ${ctx.params.add(node.limit)}` : '') +
    (node.offset ? ` OFFSET ${ctx.params.add(node.offset)}` : '');
  return { sql, outputs: named };
}
