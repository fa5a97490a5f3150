/**
 * `/rest/v1/rpc/<fn>`: calls a function of the selected schema, as PostgREST 12 does
 * (Plan.hs callReadPlan, QueryBuilder callPlanToQuery). Arguments come from the JSON
 * body (POST) or the query string's parameters that are not filters (GET); they travel
 * as one JSON parameter that json_to_record turns into the declared argument types. The
 * call runs once, as a CTE, and a function returning rows is then read like a table:
 * select, filters, order, limit, embeds and `Prefer: count=...` all apply. GET runs
 * read-only, and so does POST of a stable or immutable function.
 */
import type { Reply } from '../http.ts';
import { RestError } from './errors.ts';
import { restJsonBody } from './json-body.ts';
import { checkPlanCost } from './plan-cost.ts';
import { appliedHeader } from './prefer.ts';
import { executeRead, prepareRead, readReply } from './read.ts';
import type { RequestContext } from './request-context.ts';
import { contentHeaders, contentRange } from './request-context.ts';
import type { QueryShape } from './request-shape.ts';
import type { DbFunction, Table } from './schema-cache.ts';
import { ident, SqlParams } from './sql-fragments.ts';
import { runStatement } from './statement.ts';

type Call = { fn: DbFunction; args: Record<string, unknown>; wholeBody: boolean };

function argumentsOf(ctx: RequestContext, shape: QueryShape): Record<string, unknown> {
  if (ctx.req.method !== 'POST') return Object.fromEntries(shape.args);
  const parsed = restJsonBody(ctx.req) ?? {};
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new RestError(400, 'PGRST102', 'Empty or invalid json', 'Function arguments must be one JSON object');
  }
  return parsed as Record<string, unknown>;
}

/** PostgREST's findProc: the overload whose named parameters the keys fit; else one taking the whole JSON body. */
function pick(ctx: RequestContext, name: string, args: Record<string, unknown>): Call {
  const keys = Object.keys(args);
  const candidates = ctx.cache.bySchema.get(ctx.schema)?.functions.get(name) ?? [];
  const fits = (fn: DbFunction) => {
    if (fn.args.length === 0) return keys.length === 0;
    const names = new Set(fn.args.map((a) => a.name));
    return keys.every((k) => names.has(k)) && fn.args.every((a) => a.hasDefault || keys.includes(a.name));
  };
  const named = candidates.filter(fits);
  const single = candidates.filter((fn) => ctx.req.method === 'POST' && fn.args.length === 1 && fn.args[0]?.name === '' &&
    (fn.args[0]?.type === 'json' || fn.args[0]?.type === 'jsonb'));
  const found = named.length ? named : single;
  if (found.length > 1) {
    const list = found.map((fn) => `${fn.schema}.${fn.name}(${fn.args.map((a) => `${a.name} => ${a.type}`).join(', ')})`).join(', ');
    throw new RestError(300, 'PGRST203', `Could not choose the best candidate function between: ${list}`, null,
      'Try renaming the parameters or the function itself in the database so function overloading can be resolved');
  }
  const fn = found[0];
  if (!fn) {
    const sorted = [...keys].sort();
    const given = sorted.length ? `(${sorted.join(', ')})` : ' without parameters';
    const searched = sorted.length ? ` with parameter${sorted.length > 1 ? 's' : ''} ${sorted.join(', ')}` : ' without parameters';
    throw new RestError(404, 'PGRST202', `Could not find the function ${ctx.schema}.${name}${given} in the schema cache`,
      `Searched for the function ${ctx.schema}.${name}${searched}${ctx.req.method === 'POST' ? ' or with a single unnamed json/jsonb parameter' : ''}, ` +
        'but no matches were found in the schema cache.');
  }
  return { fn, args, wholeBody: !named.length };
}

/** The FROM items that call the function, its result aliased `pgrst_fn`. */
function callFrom(call: Call, params: SqlParams, scalar: boolean): string {
  const { fn } = call;
  const ref = `${ident(fn.schema)}.${ident(fn.name)}`;
  const result = scalar ? `(SELECT ${ref}(%ARGS%) AS pgrst_scalar) AS pgrst_fn` : `${ref}(%ARGS%) AS pgrst_fn`;
  if (call.wholeBody) return result.replace('%ARGS%', `${params.add(JSON.stringify(call.args))}::${fn.args[0]?.type}`);
  const given = fn.args.filter((a) => a.name in call.args);
  if (given.length === 0) return result.replace('%ARGS%', '');
  const body = `json_to_record(${params.add(JSON.stringify(call.args))}::json) AS pgrst_body(${given.map((a) => `${ident(a.name)} ${a.type}`).join(', ')})`;
  const passed = given.map((a) => `${a.variadic ? 'VARIADIC ' : ''}${ident(a.name)} => pgrst_body.${ident(a.name)}`).join(', ');
  return `${body} CROSS JOIN LATERAL ${result.replace('%ARGS%', passed)}`;
}

/** The rows a row-returning function yields, as a table: its table type, or its OUT columns. */
function resultTable(ctx: RequestContext, fn: DbFunction): Table {
  const returned = fn.returnsTable && ctx.cache.bySchema.get(fn.returnsTable.schema)?.tables.get(fn.returnsTable.name);
  if (returned) return returned;
  return {
    schema: fn.schema,
    name: fn.name,
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

/** A function returning one value, a set of values, or nothing. */
async function callScalar(ctx: RequestContext, call: Call, readOnly: boolean): Promise<Reply> {
  const { fn } = call;
  const params = new SqlParams();
  const from = callFrom(call, params, true);
  const limit = fn.returnsSet ? ` LIMIT ${params.add(ctx.limits.maxRowsPerRead)}` : '';
  const body = fn.returnsSet ? `coalesce(json_agg(r.pgrst_scalar), '[]')` : `coalesce(json_agg(r.pgrst_scalar)->0, 'null')`;
  const sql = `SELECT null::text AS total, count(*)::text AS n, ${body}::text AS body, null::text AS inserted ` +
    `FROM (SELECT pgrst_fn.pgrst_scalar FROM ${from}${limit}) r`;
  const result = await ctx.run(readOnly, async (tx) => {
    await checkPlanCost(ctx.planCost, tx, sql, params.values);
    const outcome = await runStatement(tx, sql, params.values);
    checkMaxAffected(ctx, outcome.n);
    return outcome;
  });
  const applied = appliedHeader(ctx.prefs, 'rpc');
  if (fn.returnsVoid) return { status: 204, headers: { 'Content-Range': contentRange(0, result.n - 1, undefined), ...applied } };
  return {
    status: 200,
    headers: { ...contentHeaders(ctx), 'Content-Range': contentRange(0, result.n - 1, undefined), ...applied },
    body: result.body ?? 'null',
  };
}

export async function handleRpc(ctx: RequestContext, name: string, shape: QueryShape): Promise<Reply> {
  const { method } = ctx.req;
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
    throw new RestError(405, 'PGRST101', `Cannot use the ${method} method on RPC`);
  }
  const call = pick(ctx, name, argumentsOf(ctx, shape));
  const readOnly = method !== 'POST' || call.fn.volatility !== 'v';
  if (!call.fn.returnsRows) return callScalar(ctx, call, readOnly);
  const table = resultTable(ctx, call.fn);
  const singleRow = !call.fn.returnsSet;
  const prepared = prepareRead(
    ctx,
    { table, from: 'pgrst_call AS pgrst_t0', alias: 'pgrst_t0' },
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
