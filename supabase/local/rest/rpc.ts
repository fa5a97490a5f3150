/**
 * `/rest/v1/rpc/<fn>`: calls a function of the selected schema, as PostgREST 12 does
 * (Plan.hs callReadPlan, QueryBuilder callPlanToQuery). Arguments come from the JSON
 * body (POST) or the query string's parameters that are not filters (GET); they travel
 * as one JSON parameter that json_to_record turns into the declared argument types, or,
 * for a function of one unnamed parameter, as that parameter itself (which function:
 * routine-lookup.ts). The call runs once, as a CTE, and a function returning rows is then
 * read like a table (read.ts): select, filters, order, limit, embeds and
 * `Prefer: count=...` all apply. GET runs read-only, and so does POST of a stable or
 * immutable function.
 */
import type { Reply } from '../http.ts';
import { RestError } from './errors.ts';
import { restJsonBody } from './json-body.ts';
import { checkPlanCost } from './plan-cost.ts';
import { appliedHeader } from './prefer.ts';
import { executeRead, prepareRead, readReply } from './read.ts';
import type { RequestContext } from './request-context.ts';
import { contentHeaders, rangeStatus } from './request-context.ts';
import type { QueryShape } from './request-shape.ts';
import { findFunction } from './routine-lookup.ts';
import type { DbFunction, Table } from './schema-cache.ts';
import { ident, SqlParams } from './sql-fragments.ts';
import { plannedCount, runPlan, runStatement } from './statement.ts';

type Call = { fn: DbFunction; args: Record<string, unknown>; keys: string[]; positional: boolean; raw: string };

/** The arguments as JSON (the text a positional parameter receives) and their keys, as PostgREST reads them. */
function argumentsOf(ctx: RequestContext, shape: QueryShape): { args: Record<string, unknown>; keys: string[]; raw: string } {
  if (ctx.req.method !== 'POST') {
    const args = Object.fromEntries(shape.args);
    return { args, keys: Object.keys(args), raw: JSON.stringify(args) };
  }
  if (ctx.req.body.length === 0) return { args: {}, keys: [], raw: '{}' };
  const parsed = restJsonBody(ctx.req);
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    const args = parsed as Record<string, unknown>;
    return { args, keys: shape.columns ?? Object.keys(args), raw: ctx.req.body.toString('utf8') };
  }
  // An array of objects with the same keys gives those keys (its first object is the call's
  // arguments); anything else no keys at all.
  const rows = Array.isArray(parsed) ? parsed : [];
  const first = rows[0];
  if (first === undefined || typeof first !== 'object' || first === null || Array.isArray(first)) {
    if (rows.length) throw new RestError(400, 'PGRST102', 'All object keys must match');
    return { args: {}, keys: [], raw: Array.isArray(parsed) ? ctx.req.body.toString('utf8') : '[]' };
  }
  const keys = Object.keys(first).sort();
  const uniform = rows.every((row) => typeof row === 'object' && row !== null && !Array.isArray(row) &&
    JSON.stringify(Object.keys(row).sort()) === JSON.stringify(keys));
  if (!uniform) throw new RestError(400, 'PGRST102', 'All object keys must match');
  return { args: first as Record<string, unknown>, keys: shape.columns ?? Object.keys(first), raw: ctx.req.body.toString('utf8') };
}

function pick(ctx: RequestContext, name: string, shape: QueryShape): Call {
  const { args, keys, raw } = argumentsOf(ctx, shape);
  const { fn, positional } = findFunction(ctx.cache, {
    schema: ctx.schema, name, keys, isPost: ctx.req.method === 'POST', singleObject: ctx.prefs.params === 'single-object',
  });
  return { fn, args, keys, positional, raw };
}

/** The FROM items that call the function, its result aliased `pgrst_fn`. */
function callFrom(call: Call, params: SqlParams, scalar: boolean): string {
  const { fn } = call;
  const ref = `${ident(fn.schema)}.${ident(fn.name)}`;
  const result = (args: string) => (scalar ? `(SELECT ${ref}(${args}) AS pgrst_scalar) AS pgrst_fn` : `${ref}(${args}) AS pgrst_fn`);
  if (call.positional) return result(`${params.add(call.raw)}::${fn.params[0]?.type}`);
  const given = fn.params.filter((p) => call.keys.includes(p.name));
  if (given.length === 0) return result('');
  const body = `json_to_record(${params.add(JSON.stringify(call.args))}::json) AS pgrst_body(${given.map((p) => `${ident(p.name)} ${p.maxType}`).join(', ')})`;
  const passed = given.map((p) => `${p.variadic ? 'VARIADIC ' : ''}${ident(p.name)} => pgrst_body.${ident(p.name)}`).join(', ');
  return `${body} CROSS JOIN LATERAL ${result(passed)}`;
}

/** The rows a row-returning function yields, as a table: its relation, or its OUT columns. */
function resultTable(ctx: RequestContext, fn: DbFunction): Table {
  const relation = fn.returnsRelation ? ctx.cache.bySchema.get(fn.returnType.schema)?.tables.get(fn.returnType.name) : undefined;
  if (relation) return relation;
  return {
    schema: fn.schema,
    name: fn.returnType.name,
    columns: new Map(fn.outColumns.map((c) => [c.name, c])),
    columnOrder: fn.outColumns.map((c) => c.name),
    primaryKey: [],
    uniqueKeys: [],
    isView: false,
  };
}

function checkMaxAffected(ctx: RequestContext, n: number): void {
  const { prefs } = ctx;
  if (prefs.handling === 'strict' && prefs.maxAffected !== undefined && n > prefs.maxAffected) {
    throw new RestError(400, 'PGRST124', 'Query result exceeds max-affected preference constraint', `The query affects ${n} rows`);
  }
}

/** A function returning one value, a set of values, or nothing; counted when `Prefer: count=` asks. */
async function callScalar(ctx: RequestContext, call: Call, readOnly: boolean): Promise<Reply> {
  const { fn } = call;
  const params = new SqlParams();
  const counting = ctx.prefs.count === 'exact' || ctx.prefs.count === 'estimated';
  const limit = fn.returnsSet ? ` LIMIT ${params.add(ctx.limits.maxRowsPerRead)}` : '';
  const body = fn.returnsSet ? `coalesce(json_agg(r.pgrst_scalar), '[]')` : `coalesce(json_agg(r.pgrst_scalar)->0, 'null')`;
  const callCte = `pgrst_call AS (SELECT pgrst_fn.pgrst_scalar FROM ${callFrom(call, params, true)})`;
  const total = counting ? '(SELECT count(*) FROM pgrst_call)::text' : 'null::text';
  const sql = `WITH ${callCte} SELECT ${total} AS total, count(*)::text AS n, ${body}::text AS body, null::text AS inserted ` +
    `FROM (SELECT pgrst_scalar FROM pgrst_call${limit}) r`;
  const { media } = ctx;
  if (media.kind === 'plan') {
    const plan = await ctx.run(readOnly, (tx) => runPlan(tx, sql, params.values, media, ctx.planCost));
    return { status: 200, headers: { ...contentHeaders(ctx), ...appliedHeader(ctx.prefs, 'rpc') }, body: plan };
  }
  const result = await ctx.run(readOnly, async (tx) => {
    await checkPlanCost(ctx.planCost, tx, sql, params.values);
    const outcome = await runStatement(tx, sql, params.values);
    checkMaxAffected(ctx, outcome.n);
    if (ctx.prefs.count === 'planned') {
      const countParams = new SqlParams();
      outcome.total = await plannedCount(tx, `SELECT 1 FROM ${callFrom(call, countParams, true)}`, countParams.values);
    }
    return outcome;
  });
  const applied = appliedHeader(ctx.prefs, 'rpc');
  const { range } = rangeStatus(0, result.n, result.total);
  if (fn.returnsVoid) return { status: 204, headers: { 'Content-Range': range, ...applied } };
  return { status: 200, headers: { ...contentHeaders(ctx), 'Content-Range': range, ...applied }, body: result.body ?? 'null' };
}

export async function handleRpc(ctx: RequestContext, name: string, shape: QueryShape): Promise<Reply> {
  const { method } = ctx.req;
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
    throw new RestError(405, 'PGRST101', `Cannot use the ${method} method on RPC`);
  }
  const call = pick(ctx, name, shape);
  const readOnly = method !== 'POST' || call.fn.volatility !== 'v';
  if (!call.fn.returnsComposite) return callScalar(ctx, call, readOnly);
  const table = resultTable(ctx, call.fn);
  const singleRow = !call.fn.returnsSet;
  const prepared = prepareRead(
    ctx,
    // The result goes by the name of the relation it returns, as in PostgREST's statement.
    { table, from: `pgrst_call AS ${ident(table.name)}`, alias: table.name },
    shape,
    (params) => [`pgrst_call AS (SELECT pgrst_fn.* FROM ${callFrom(call, params, false)})`],
  );
  const result = await ctx.run(readOnly, async (tx) => {
    const outcome = await executeRead(ctx, tx, prepared);
    if ('n' in outcome) {
      checkMaxAffected(ctx, outcome.n);
      if (singleRow && ctx.media.kind === 'array') outcome.body = JSON.stringify((JSON.parse(outcome.body ?? '[]') as unknown[])[0] ?? null);
    }
    return outcome;
  });
  return readReply(ctx, result, prepared.offset, 'rpc');
}
