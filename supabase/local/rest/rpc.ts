/**
 * `/rest/v1/rpc/<fn>`: calls a function of the public schema with named arguments from
 * the JSON body (POST) or the query string (GET, read-only). Argument types come from
 * the catalog, never from the request.
 */
import type { ServiceLimits } from '../../../src/domain/limits.ts';
import type { Queryable } from '../db/database.ts';
import type { Reply } from '../http.ts';
import type { StackRequest } from '../request.ts';
import { header } from '../request.ts';
import { RestError } from './errors.ts';
import { restJsonBody } from './json-body.ts';
import type { DbFunction, SchemaCache } from './schema-cache.ts';
import { ident, SqlParams } from './sql-builder.ts';

type RunInRole = <T>(readOnly: boolean, work: (tx: Queryable) => Promise<T>) => Promise<T>;

function argumentsOf(req: StackRequest, maxParameters: number): Record<string, unknown> {
  if (req.method === 'GET' || req.method === 'HEAD') {
    const entries = [...req.url.searchParams.entries()];
    if (entries.length > maxParameters) throw new RestError(400, 'PGRST100', 'Too many query parameters');
    return Object.fromEntries(entries);
  }
  if (req.method !== 'POST') throw new RestError(405, 'PGRST101', 'Only GET and POST can call functions');
  const parsed = restJsonBody(req) ?? {};
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new RestError(400, 'PGRST102', 'Empty or invalid json', 'Function arguments must be one JSON object');
  }
  return parsed as Record<string, unknown>;
}

function pick(candidates: DbFunction[] | undefined, name: string, given: string[]): DbFunction {
  const match = candidates?.find((fn) => {
    const names = new Set(fn.args.map((a) => a.name));
    return given.every((g) => names.has(g)) && fn.args.every((a) => a.hasDefault || given.includes(a.name));
  });
  if (!match) {
    throw new RestError(
      404,
      'PGRST202',
      `Could not find the function public.${name}(${[...given].sort().join(', ')}) in the schema cache`,
    );
  }
  return match;
}

function sqlValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export async function callFunction(
  req: StackRequest,
  name: string,
  schema: SchemaCache,
  limits: Pick<ServiceLimits, 'maxRowsPerRead' | 'maxQueryParameters'>,
  inRole: RunInRole,
): Promise<Reply> {
  const args = argumentsOf(req, limits.maxQueryParameters);
  const fn = pick(schema.functions.get(name), name, Object.keys(args));
  const params = new SqlParams();
  const list = fn.args
    .filter((a) => a.name in args)
    .map((a) => `${ident(a.name)} => ${params.add(sqlValue(args[a.name]))}::${a.type}`)
    .join(', ');
  const call = `"public".${ident(fn.name)}(${list})`;
  // A set-returning function's rows are cut at maxRowsPerRead, as a table read's are.
  const sql = fn.returnsSet
    ? `select coalesce(json_agg(r), '[]'::json)::text as body from (select * from ${call} limit ${params.add(limits.maxRowsPerRead)}) r`
    : fn.returnsRows
      ? `select row_to_json(r)::text as body from ${call} r`
      : `select to_json(${call})::text as body`;
  const readOnly = req.method === 'GET' || req.method === 'HEAD';
  const text = await inRole(readOnly, async (tx) => (await tx.query<{ body: string | null }>(sql, params.values)).rows[0]?.body);
  if (fn.returnsVoid) return { status: 204, headers: {} };
  let body = text ?? 'null';
  if ((header(req, 'accept') ?? '').includes('application/vnd.pgrst.object+json') && fn.returnsSet) {
    const rows = JSON.parse(body) as unknown[];
    if (rows.length !== 1) {
      throw new RestError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${rows.length} rows`);
    }
    body = JSON.stringify(rows[0]);
  }
  return { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body };
}
