/**
 * POST (insert, upsert), PATCH and DELETE on a table, answered as PostgREST 12's
 * Response.hs answers them: 201 or (an upsert that only updated) 200 for POST, 204 or
 * 200 with a representation for PATCH and DELETE; Content-Range carries the number of
 * rows written when a count was asked for (exact or estimated: PostgREST counts no
 * planned figure for a write, so `count=planned` leaves it `*`). `Prefer: handling=strict,
 * max-affected=N` refuses (PGRST124) and rolls back a PATCH or DELETE touching more rows.
 */
import type { Reply } from '../http.ts';
import { RestError } from './errors.ts';
import { restJsonBody } from './json-body.ts';
import { checkPlanCost } from './plan-cost.ts';
import type { RequestKind } from './prefer.ts';
import { appliedHeader } from './prefer.ts';
import { buildNode } from './read-query.ts';
import type { RequestContext } from './request-context.ts';
import { contentHeaders, contentRange, newReadContext, singularBody } from './request-context.ts';
import type { QueryShape } from './request-shape.ts';
import { checkEmbedDepth } from './request-shape.ts';
import { ident } from './sql-fragments.ts';
import type { Table } from './schema-cache.ts';
import { runPlan, runStatement, statementSql } from './statement.ts';
import type { WriteCtes } from './write-builder.ts';
import { deleteCtes, insertCtes, updateCtes } from './write-builder.ts';

function bodyRows(ctx: RequestContext): Array<Record<string, unknown>> {
  const value = restJsonBody(ctx.req);
  const rows = Array.isArray(value) ? value : [value];
  if (value === undefined || !rows.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r))) {
    throw new RestError(400, 'PGRST102', 'Empty or invalid json', 'The body must be an object or an array of objects');
  }
  const max = ctx.limits.maxRowsPerWrite;
  if (rows.length > max) {
    throw new RestError(413, 'PGRST413', `The body has ${rows.length} rows; one request may write at most ${max}.`, null,
      'Send the rows in smaller batches.');
  }
  return rows as Array<Record<string, unknown>>;
}

function bodyObject(ctx: RequestContext): Record<string, unknown> {
  const change = restJsonBody(ctx.req);
  if (typeof change !== 'object' || change === null || Array.isArray(change)) {
    throw new RestError(400, 'PGRST102', 'Empty or invalid json', 'PATCH takes one object');
  }
  return change as Record<string, unknown>;
}

function mutation(ctx: RequestContext, table: Table, shape: QueryShape, returnAll: boolean, params: Parameters<typeof insertCtes>[2]): WriteCtes {
  const missingDefault = ctx.prefs.missing === 'default';
  const range = { limit: shape.limit, offset: shape.offset, order: shape.order };
  if (ctx.req.method === 'POST') {
    const plan = { rows: bodyRows(ctx), columns: shape.columns, onConflict: shape.onConflict, resolution: ctx.prefs.resolution, missingDefault };
    return insertCtes(table, plan, params, returnAll);
  }
  if (ctx.req.method === 'PATCH') {
    return updateCtes(table, bodyObject(ctx), { conditions: shape.conditions, columns: shape.columns, missingDefault, range }, params, returnAll);
  }
  return deleteCtes(table, shape.conditions, range, params, returnAll);
}

export async function handleWrite(ctx: RequestContext, table: Table, shape: QueryShape): Promise<Reply> {
  const kind: RequestKind = ctx.req.method === 'POST' ? 'create' : ctx.req.method === 'PATCH' ? 'update' : 'delete';
  const full = ctx.prefs.representation === 'full';
  const read = newReadContext(ctx, shape.embeds);
  const written = mutation(ctx, table, shape, full, read.params);
  // The rows written go by the table's name, as in PostgREST's statement.
  const node = buildNode(read, {
    table,
    from: `pgrst_w AS ${ident(table.name)}`,
    alias: table.name,
    select: full ? shape.select : [],
    conditions: [],
    order: [],
    path: [],
    where: [],
    spread: false,
    depth: 0,
  });
  if (full) checkEmbedDepth(shape, ctx.limits);
  const sql = statementSql({ ctes: written.ctes, source: node.sql, body: full, media: ctx.media, inserted: written.countsInserted });
  const { prefs } = ctx;
  const result = await ctx.run(false, async (tx) => {
    if (ctx.media.kind === 'plan') return { plan: await runPlan(tx, sql, read.params.values, ctx.media, ctx.planCost) };
    await checkPlanCost(ctx.planCost, tx, sql, read.params.values);
    const outcome = await runStatement(tx, sql, read.params.values);
    if (kind !== 'create' && prefs.handling === 'strict' && prefs.maxAffected !== undefined && outcome.n > prefs.maxAffected) {
      throw new RestError(400, 'PGRST124', 'Query result exceeds max-affected preference constraint', `The query affects ${outcome.n} rows`);
    }
    if (kind !== 'create' && shape.limit !== undefined && outcome.n > shape.limit) {
      throw new RestError(400, 'PGRST110', 'The maximum number of rows allowed to change was surpassed',
        `Results contain ${outcome.n} rows changed but the maximum number allowed is ${shape.limit}`);
    }
    if (full && ctx.media.kind === 'object') outcome.body = singularBody(outcome.body, outcome.n);
    return outcome;
  });
  const resolutionApplies = kind === 'create' && (table.primaryKey.length > 0 || shape.onConflict !== undefined);
  const applied = appliedHeader(prefs, kind, resolutionApplies);
  if ('plan' in result) return { status: 200, headers: { ...contentHeaders(ctx), ...applied }, body: result.plan };
  const counted = prefs.count === 'exact' || prefs.count === 'estimated' ? result.n : undefined;
  const range = kind === 'update' ? contentRange(0, result.n - 1, counted) : contentRange(1, 0, counted);
  let status = full ? 200 : 204;
  if (kind === 'create') {
    // An upsert that inserted nothing (every row was an update) answers 200.
    status = written.countsInserted && (result.inserted ?? 0) <= 0 ? 200 : 201;
  }
  const headers = { 'Content-Range': range, ...applied, ...(full ? contentHeaders(ctx) : {}) };
  return { status, headers, body: full ? (result.body ?? '') : null };
}
