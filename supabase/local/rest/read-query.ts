/**
 * One level of a read (the root table, an RPC's result, the rows a write returned, or an
 * embedded resource) as a SELECT, embedded resources joined laterally as PostgREST 12's
 * QueryBuilder does: a to-one resource as a row (`row_to_json`, or its columns for a
 * spread), a to-many one as a JSON array, `!inner` as an inner join. Aggregates group by
 * the other outputs (by position, so no output name can be mistaken for an input column);
 * aggregates of a spread resource are applied one level up, as PostgREST hoists them.
 *
 * Cost limits apply to every level: each to-many lookup spends its rows (at least one)
 * from the statement's embedded-row budget, each to-one row found spends one, and every
 * row that feeds an aggregate spends one from the aggregated-row budget (embed-budget.sql),
 * so a statement PGlite cannot interrupt still stops.
 */
import { RestError } from './errors.ts';
import type { AggregateName, Condition, OrderTerm, SelectItem } from './grammar/types.ts';
import type { Relationship } from './relationships.ts';
import { findRelationship, isToOne } from './relationships.ts';
import type { SchemaCache, Table } from './schema-cache.ts';
import type { SqlParams } from './sql-fragments.ts';
import { castSql, conditionSql, fieldLabel, fieldSql, ident, tableRef } from './sql-fragments.ts';

/** Filters, order and paging for one embedded resource, keyed by its path (`roles.actors`). */
export type EmbedOptions = { conditions: Condition[]; order: OrderTerm[]; limit?: number; offset?: number };

export type ReadContext = {
  cache: SchemaCache;
  params: SqlParams;
  embeds: Map<string, EmbedOptions>;
  aggregatesEnabled: boolean;
  /** Rows all embedded resources of the statement may bring; none when absent. */
  embeddedRowBudget?: number;
  /** Rows all aggregates of the statement may read; none when absent. */
  aggregatedRowBudget?: number;
  /** At most this many rows per to-many embed (PostgREST's db-max-rows applies to every level). */
  maxRowsPerEmbed?: number;
  nextAlias(): string;
};

export type NodeInput = {
  table: Table;
  /** The FROM clause, aliases included. */
  from: string;
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
};

type Output = { expr: string; label: string; name: string; aggregated: boolean; hoist?: { fn: AggregateName; cast?: string } };

type Child = { label: string; alias: string; toOne: boolean; spread: boolean; outputs: Output[]; present: string; join: string };

export type BuiltNode = { sql: string; outputs: Output[] };

const budgetCheck = (spend: string, exceeded: string) => `CASE WHEN ${spend} THEN true ELSE ${exceeded} IS NULL END`;

function requireAggregates(ctx: ReadContext): void {
  if (!ctx.aggregatesEnabled) throw new RestError(400, 'PGRST123', 'Use of aggregate functions is not allowed');
}

/** The options an embed path names: by alias first, then by the relation's own name. */
function optionsFor(ctx: ReadContext, path: string[], relation: string): EmbedOptions | undefined {
  return ctx.embeds.get(path.join('.')) ?? ctx.embeds.get([...path.slice(0, -1), relation].join('.'));
}

/** The FROM clause and join conditions of an embedded resource. */
export function embedSource(ctx: ReadContext, rel: Relationship, alias: string, parentAlias: string) {
  if (!rel.junction) {
    return {
      from: `${tableRef(rel.target)} AS ${alias}`,
      where: rel.pairs.map(([t, p]) => `${alias}.${ident(t)} = ${parentAlias}.${ident(p)}`),
    };
  }
  const junction = ctx.nextAlias();
  return {
    from: `${tableRef(rel.target)} AS ${alias} CROSS JOIN ${tableRef(rel.junction.table)} AS ${junction}`,
    where: [
      ...rel.junction.target.map(([j, t]) => `${junction}.${ident(j)} = ${alias}.${ident(t)}`),
      ...rel.junction.parent.map(([j, p]) => `${junction}.${ident(j)} = ${parentAlias}.${ident(p)}`),
    ],
  };
}

function embedChild(ctx: ReadContext, node: NodeInput, item: Extract<SelectItem, { kind: 'embed' }>): Child {
  const rel = findRelationship(ctx.cache, node.table, item.relation, item.hint);
  const toOne = isToOne(rel);
  if (item.spread && !toOne) {
    throw new RestError(400, 'PGRST119', `A spread operation on '${item.relation}' is not possible`,
      `'${node.table.name}' and '${item.relation}' do not form a many-to-one or one-to-one relationship`);
  }
  const label = item.alias ?? item.relation;
  const path = [...node.path, label];
  const options = optionsFor(ctx, path, item.relation);
  const alias = ctx.nextAlias();
  const source = embedSource(ctx, rel, alias, node.alias);
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
  });
  const joinType = item.join === 'inner' ? 'INNER' : 'LEFT';
  if (toOne) {
    // OFFSET 0 keeps the planner from flattening the lookup into a join it computes once
    // for many parents: each parent row must look up (and spend from the budget) itself.
    return {
      label, alias, toOne, spread: item.spread, outputs: built.outputs,
      present: `${alias} IS DISTINCT FROM NULL`,
      join: `${joinType} JOIN LATERAL (${built.sql} OFFSET 0) AS ${alias} ON TRUE`,
    };
  }
  let agg = `json_agg(${alias})::jsonb`;
  if (ctx.embeddedRowBudget !== undefined) {
    const budget = ctx.params.add(ctx.embeddedRowBudget);
    agg = `CASE WHEN rest_local.spend_embedded_rows(greatest(count(*), 1), ${budget}) THEN ${agg} ` +
      `ELSE rest_local.embedded_rows_exceeded(${budget})::jsonb END`;
  }
  const on = item.join === 'inner' ? `${alias}.${alias} IS NOT NULL` : 'TRUE';
  return {
    label, alias, toOne, spread: false, outputs: built.outputs,
    present: `${alias}.${alias} IS NOT NULL`,
    join: `${joinType} JOIN LATERAL (SELECT ${agg} AS ${alias} FROM (${built.sql}) AS ${alias}) AS ${alias} ON ${on}`,
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
    if (!o.hoist || node.spread) return { ...o, expr: raw, name: o.label };
    requireAggregates(ctx);
    const expr = castSql(`${o.hoist.fn.toUpperCase()}(${raw})`, o.hoist.cast);
    return { expr, label: o.label, name: o.label, aggregated: true };
  });
}

function fieldOutputs(ctx: ReadContext, node: NodeInput, item: Extract<SelectItem, { kind: 'field' }>): Output[] {
  const { table, alias } = node;
  if (item.field.name === '*' && !item.aggregate) {
    return table.columnOrder.map((c) => ({ expr: `${alias}.${ident(c)}`, label: c, name: c, aggregated: false }));
  }
  if (item.aggregate) requireAggregates(ctx);
  const aggregateLabel = item.alias ?? item.aggregate ?? '';
  if (item.field.name === '*') {
    // count(): in a spread, a marker the parent counts.
    if (node.spread) return [{ expr: 'true', label: aggregateLabel, name: aggregateLabel, aggregated: false, hoist: { fn: 'count', cast: item.aggregateCast } }];
    return [{ expr: castSql(`COUNT(${alias}.*)`, item.aggregateCast), label: aggregateLabel, name: aggregateLabel, aggregated: true }];
  }
  const expr = castSql(fieldSql(table, alias, item.field, ctx.params), item.cast);
  if (!item.aggregate) {
    const label = item.alias ?? fieldLabel(item.field);
    return [{ expr, label, name: label, aggregated: false }];
  }
  if (node.spread) {
    return [{ expr, label: aggregateLabel, name: aggregateLabel, aggregated: false, hoist: { fn: item.aggregate, cast: item.aggregateCast } }];
  }
  const applied = castSql(`${item.aggregate.toUpperCase()}(${expr})`, item.aggregateCast);
  return [{ expr: applied, label: aggregateLabel, name: aggregateLabel, aggregated: true }];
}

function orderSql(ctx: ReadContext, node: NodeInput, children: Child[]): string {
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
      expr = fieldSql(node.table, node.alias, term.field, ctx.params);
    }
    const direction = term.descending === undefined ? '' : term.descending ? ' DESC' : ' ASC';
    return `${expr}${direction}${term.nulls ? ` NULLS ${term.nulls.toUpperCase()}` : ''}`;
  });
  return ` ORDER BY ${terms.join(', ')}`;
}

export function buildNode(ctx: ReadContext, node: NodeInput): BuiltNode {
  const outputs: Output[] = [];
  const children: Child[] = [];
  for (const item of node.select) {
    if (item.kind === 'field') outputs.push(...fieldOutputs(ctx, node, item));
    else {
      const child = embedChild(ctx, node, item);
      children.push(child);
      outputs.push(...childOutputs(ctx, node, child));
    }
  }
  const embedded = (name: string) => children.find((c) => c.label === name)?.present ?? null;
  const where = [...node.where, ...node.conditions.map((c) => conditionSql(c, node.table, node.alias, ctx.params, embedded))];
  const aggregating = outputs.some((o) => o.aggregated);
  if (aggregating && ctx.aggregatedRowBudget !== undefined) {
    const budget = ctx.params.add(ctx.aggregatedRowBudget);
    where.push(budgetCheck(`rest_local.spend_aggregated_rows(1, ${budget})`, `rest_local.aggregated_rows_exceeded(${budget})`));
  }
  // Spread children's outputs are named apart, so that two spread columns of one name never clash.
  const named = node.spread ? outputs.map((o, i) => ({ ...o, name: `pgrst_${i}` })) : outputs;
  const grouped = aggregating ? named.flatMap((o, i) => (o.aggregated ? [] : [String(i + 1)])) : [];
  const sql =
    `SELECT ${named.map((o) => `${o.expr} AS ${ident(o.name)}`).join(', ')} FROM ${node.from}` +
    children.map((c) => ` ${c.join}`).join('') +
    (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
    (grouped.length ? ` GROUP BY ${grouped.join(', ')}` : '') +
    orderSql(ctx, node, children) +
    (node.limit !== undefined ? ` LIMIT ${ctx.params.add(node.limit)}` : '') +
    (node.offset ? ` OFFSET ${ctx.params.add(node.offset)}` : '');
  return { sql, outputs: named };
}
