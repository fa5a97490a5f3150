/**
 * GET and HEAD of a table or view, and the reading half of an RPC call: builds the
 * statement (rows cut at maxRowsPerRead, as PostgREST's db-max-rows), runs it read-only,
 * counts as `Prefer: count=exact|planned|estimated` asks (PostgREST 12's
 * resultSetWTotal: estimated is exact up to db-max-rows, then the planner's figure) and
 * answers with PostgREST's status, Content-Range and body.
 */
import type { Queryable } from '../db/database.ts';
import type { Reply } from '../http.ts';
import { countSelect } from './count-query.ts';
import { checkPlanCost } from './plan-cost.ts';
import { appliedHeader } from './prefer.ts';
import type { NodeInput } from './read-query.ts';
import { buildNode } from './read-query.ts';
import type { RequestContext } from './request-context.ts';
import { contentHeaders, newReadContext, outOfRange, rangeStatus, singularBody } from './request-context.ts';
import type { QueryShape } from './request-shape.ts';
import { checkEmbedDepth } from './request-shape.ts';
import { SqlParams } from './sql-fragments.ts';
import type { StatementResult } from './statement.ts';
import { plannedCount, runPlan, runStatement, statementSql } from './statement.ts';

export type ReadRoot = Omit<NodeInput, 'limit' | 'offset' | 'path' | 'where' | 'spread' | 'select' | 'conditions' | 'order' | 'depth'> & {
  where?: string[];
};

export type PreparedRead = {
  sql: string;
  params: unknown[];
  /** A fresh count statement for the planner's estimate, with its own parameters. */
  plannedCountSql: () => { sql: string; params: unknown[] };
  offset: number;
};

function rootInput(root: ReadRoot, shape: QueryShape): NodeInput {
  return {
    ...root,
    select: shape.select,
    conditions: shape.conditions,
    order: shape.order,
    path: [],
    where: root.where ?? [],
    spread: false,
    depth: 0,
  };
}

/** The read statement over `root` (a table, or an RPC's result) for `shape`. */
export function prepareRead(ctx: RequestContext, root: ReadRoot, shape: QueryShape, prefix: (params: SqlParams) => string[] = () => []): PreparedRead {
  const maxRows = ctx.limits.maxRowsPerRead;
  const read = newReadContext(ctx, shape.embeds);
  const ctes = prefix(read.params);
  const input = rootInput(root, shape);
  const node = buildNode(read, { ...input, limit: Math.min(shape.limit ?? maxRows, maxRows), offset: shape.offset });
  checkEmbedDepth(shape, ctx.limits);
  let count: string | undefined;
  if (ctx.prefs.count === 'exact') count = countSelect(read, input);
  else if (ctx.prefs.count === 'estimated') count = `${countSelect(read, input)} LIMIT ${read.params.add(maxRows + 1)}`;
  const sql = statementSql({ ctes, source: node.sql, count, body: true, media: ctx.media });
  return {
    sql,
    params: read.params.values,
    offset: shape.offset ?? 0,
    plannedCountSql: () => {
      const fresh = newReadContext(ctx, shape.embeds, new SqlParams());
      const freshCtes = prefix(fresh.params);
      const countSql = countSelect(fresh, rootInput(root, shape));
      return { sql: freshCtes.length ? `WITH ${freshCtes.join(', ')} ${countSql}` : countSql, params: fresh.params.values };
    },
  };
}

/** Runs a prepared read in `tx`: the result with its total as the preferred count gives it. */
export async function executeRead(ctx: RequestContext, tx: Queryable, prepared: PreparedRead): Promise<StatementResult | { plan: string }> {
  if (ctx.media.kind === 'plan') return { plan: await runPlan(tx, prepared.sql, prepared.params, ctx.media, ctx.planCost) };
  await checkPlanCost(ctx.planCost, tx, prepared.sql, prepared.params);
  const result = await runStatement(tx, prepared.sql, prepared.params);
  const maxRows = ctx.limits.maxRowsPerRead;
  const planned = async () => {
    const counted = prepared.plannedCountSql();
    return plannedCount(tx, counted.sql, counted.params);
  };
  if (ctx.prefs.count === 'planned') result.total = await planned();
  if (ctx.prefs.count === 'estimated' && result.total !== undefined && result.total > maxRows) {
    result.total = Math.max(result.total, (await planned()) ?? 0);
  }
  if (ctx.media.kind === 'object') result.body = singularBody(result.body, result.n);
  return result;
}

/** The reply to a read, from its result. */
export function readReply(ctx: RequestContext, result: StatementResult | { plan: string }, offset: number, kind: 'read' | 'rpc'): Reply {
  const applied = appliedHeader(ctx.prefs, kind);
  if ('plan' in result) return { status: 200, headers: { ...contentHeaders(ctx), ...applied }, body: result.plan };
  const { status, range } = rangeStatus(offset, result.n, result.total);
  if (status === 416) {
    const error = outOfRange(offset, result.total).toReply();
    return { ...error, headers: { ...error.headers, 'Content-Range': range } };
  }
  return { status, headers: { ...contentHeaders(ctx), 'Content-Range': range, ...applied }, body: result.body ?? '' };
}

export async function handleRead(ctx: RequestContext, root: ReadRoot, shape: QueryShape): Promise<Reply> {
  const prepared = prepareRead(ctx, root, shape);
  const result = await ctx.run(true, (tx) => executeRead(ctx, tx, prepared));
  return readReply(ctx, result, prepared.offset, 'read');
}
