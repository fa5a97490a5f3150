/**
 * The REST API (`/rest/v1`): tables and `/rpc/<fn>`, in the PostgREST dialect that
 * supabase-js speaks. Each request runs in one transaction as the JWT's role with
 * request.jwt.claims set, so Postgres grants and row-level security decide what it may
 * see and change; GET and HEAD run read-only. Each request waits its turn in the
 * database queue (a 503 with Retry-After when it is full) and runs under the statement
 * timeout; reads return at most maxRowsPerRead rows and embeds spend a row budget.
 */
import type { ServiceLimits } from '../../../src/domain/limits.ts';
import type { Database, Queryable } from '../db/database.ts';
import { isPostgresError } from '../db/database.ts';
import type { RequestQueue } from '../db/request-queue.ts';
import { DatabaseBusyError } from '../db/request-queue.ts';
import type { Reply } from '../http.ts';
import { jsonReply } from '../http.ts';
import type { JwtClaims } from '../jwt.ts';
import { verifyJwt } from '../jwt.ts';
import type { StackRequest } from '../request.ts';
import { header } from '../request.ts';
import { RestError, statusForSqlState } from './errors.ts';
import { restJsonBody } from './json-body.ts';
import { readQueryShape } from './request-shape.ts';
import { callFunction } from './rpc.ts';
import type { SchemaCache } from './schema-cache.ts';
import { buildRead, findTable } from './sql-builder.ts';
import { buildDelete, buildInsert, buildUpdate } from './write-builder.ts';

export type RestOptions = {
  db: Database;
  jwtSecret: string;
  schema: () => SchemaCache;
  limits: ServiceLimits;
  /** Every request's transaction waits its turn here. */
  queue: RequestQueue;
};

const apiRoles = new Set(['anon', 'authenticated', 'service_role']);
const singular = 'application/vnd.pgrst.object+json';

type Prefer = { returnRepresentation: boolean; count: boolean; resolution?: 'merge-duplicates' | 'ignore-duplicates'; missingDefault: boolean };

function readPrefer(req: StackRequest): Prefer {
  const values = (header(req, 'prefer') ?? '').split(',').map((part) => part.trim());
  const resolution = values.find((v) => v.startsWith('resolution='))?.slice('resolution='.length);
  return {
    returnRepresentation: values.includes('return=representation'),
    count: values.some((v) => v === 'count=exact' || v === 'count=planned' || v === 'count=estimated'),
    resolution: resolution === 'merge-duplicates' || resolution === 'ignore-duplicates' ? resolution : undefined,
    missingDefault: values.includes('missing=default'),
  };
}

async function authenticate(req: StackRequest, secret: string): Promise<JwtClaims> {
  const authorization = header(req, 'authorization');
  const token = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : header(req, 'apikey');
  if (!token) {
    throw new RestError(401, 'PGRST301', 'No API key found in request', null, 'No `apikey` request header or url param was found.');
  }
  const check = await verifyJwt(token, secret);
  const challenge = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };
  if (!check.ok) {
    if (check.reason === 'expired') throw new RestError(401, 'PGRST303', 'JWT expired', null, null, challenge);
    if (check.reason === 'not_yet_valid') throw new RestError(401, 'PGRST303', 'JWT not yet valid', null, null, challenge);
    if (check.reason === 'issued_in_future') throw new RestError(401, 'PGRST303', 'JWT issued at future', null, null, challenge);
    throw new RestError(401, 'PGRST301', 'JWSError JWSInvalidSignature', null, null, challenge);
  }
  const role = check.claims.role ?? 'anon';
  if (!apiRoles.has(role)) throw new RestError(401, 'PGRST301', `JWT role "${role}" is not allowed`, null, null, challenge);
  return check.claims;
}

const jsonTypes = /^application\/(json|vnd\.pgrst\.(object|array)\+json)$/;

/** A body is JSON: said so, or not said at all (as PostgREST assumes). */
function checkContentType(req: StackRequest): void {
  if (req.body.length === 0) return;
  const type = (header(req, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== '' && !jsonTypes.test(type)) {
    throw new RestError(415, 'PGRST107', `Content-Type not acceptable: ${type.slice(0, 80)}`, null, 'Send the body as application/json.');
  }
}

/** A path segment, percent-decoded; a malformed escape is the client's error, not the server's. */
function pathName(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new RestError(400, 'PGRST100', 'The request path is not valid percent-encoding', segment.slice(0, 200));
  }
}

function busyReply(message: string, retryAfterSeconds: number, code = 'PGRST003', details: string | null = null): Reply {
  return jsonReply(
    503,
    { code, details, hint: `Try again in ${retryAfterSeconds} seconds.`, message },
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

function asRows(value: unknown, maxRows: number): Array<Record<string, unknown>> {
  const rows = Array.isArray(value) ? value : [value];
  if (value === undefined || !rows.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r))) {
    throw new RestError(400, 'PGRST102', 'Empty or invalid json', 'The body must be an object or an array of objects');
  }
  if (rows.length > maxRows) {
    throw new RestError(413, 'PGRST413', `The body has ${rows.length} rows; one request may write at most ${maxRows}.`, null,
      'Send the rows in smaller batches.');
  }
  return rows as Array<Record<string, unknown>>;
}

/** Whom the database queue serves in turn: the signed-in user, else the role at its address. */
function queueClient(claims: JwtClaims, req: StackRequest): string {
  return typeof claims.sub === 'string' ? `user:${claims.sub}` : `${claims.role ?? 'anon'}@${req.address}`;
}

export function createRestService(options: RestOptions) {
  const { limits } = options;

  async function inRole<T>(claims: JwtClaims, req: StackRequest, readOnly: boolean, work: (tx: Queryable) => Promise<T>) {
    return options.queue.run(queueClient(claims, req), () =>
      options.db.transaction(async (tx) => {
        if (readOnly) await tx.query('set transaction read only');
        await tx.query(
          `select set_config('search_path', 'public, extensions', true), set_config('role', $1, true),
                  set_config('request.jwt.claims', $2, true), set_config('request.method', $3, true),
                  set_config('request.path', $4, true), set_config('statement_timeout', $5, true)`,
          [claims.role ?? 'anon', JSON.stringify(claims), req.method, req.url.pathname, String(limits.statementTimeoutMs)],
        );
        return work(tx);
      }),
    );
  }

  /** Runs a statement returning (body, n); enforces a single row when the client asked for one. */
  async function run(tx: Queryable, sql: string, params: unknown[], single: boolean) {
    const { rows } = await tx.query<{ body: string; n?: string }>(sql, params);
    const text = rows[0]?.body ?? '[]';
    const parsed = JSON.parse(text) as unknown[];
    if (single && parsed.length !== 1) {
      throw new RestError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${parsed.length} rows`);
    }
    return { text: single ? JSON.stringify(parsed[0]) : text, count: parsed.length };
  }

  async function handleTable(req: StackRequest, claims: JwtClaims, tableName: string): Promise<Reply> {
    const schema = options.schema();
    const table = findTable(schema, tableName);
    const shape = readQueryShape(req.url.searchParams, header(req, 'range'), limits);
    const prefer = readPrefer(req);
    const single = (header(req, 'accept') ?? '').includes(singular);
    const contentType = { 'Content-Type': `${single ? singular : 'application/json'}; charset=utf-8` };
    const returning = { select: shape.select, embeds: shape.embeds, embeddedRowBudget: limits.maxEmbeddedRows };

    if (req.method === 'GET' || req.method === 'HEAD') {
      // As PostgREST's db-max-rows: a longer result is cut, and Content-Range says so.
      const query = buildRead(schema, table, {
        ...shape,
        limit: Math.min(shape.limit ?? limits.maxRowsPerRead, limits.maxRowsPerRead),
        embeddedRowBudget: limits.maxEmbeddedRows,
      });
      const result = await inRole(claims, req, true, async (tx) => {
        const rows = await run(tx, query.rows.sql, query.rows.params, single);
        const total = prefer.count ? Number((await tx.query<{ n: string }>(query.count.sql, query.count.params)).rows[0]?.n) : undefined;
        return { ...rows, total };
      });
      const offset = shape.offset ?? 0;
      const range = result.count > 0 ? `${offset}-${offset + result.count - 1}` : '*';
      const partial = result.total !== undefined && (offset > 0 || offset + result.count < result.total);
      return {
        status: partial ? 206 : 200,
        headers: { ...contentType, 'Content-Range': `${range}/${result.total ?? '*'}` },
        body: result.text,
      };
    }

    let statement: { sql: string; params: unknown[] } | null;
    if (req.method === 'POST') {
      statement = buildInsert(
        schema,
        table,
        {
          rows: asRows(restJsonBody(req), limits.maxRowsPerWrite),
          columns: shape.columns,
          onConflict: shape.onConflict,
          resolution: prefer.resolution,
          missingDefault: prefer.missingDefault,
        },
        returning,
      );
    } else if (req.method === 'PATCH') {
      const change = restJsonBody(req);
      if (typeof change !== 'object' || change === null || Array.isArray(change)) {
        throw new RestError(400, 'PGRST102', 'Empty or invalid json', 'PATCH takes one object');
      }
      statement = buildUpdate(schema, table, change as Record<string, unknown>, shape.conditions, returning);
    } else if (req.method === 'DELETE') {
      statement = buildDelete(schema, table, shape.conditions, returning);
    } else {
      throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${req.method}`);
    }
    const written = statement
      ? await inRole(claims, req, false, (tx) => run(tx, statement.sql, statement.params, single))
      : { text: '[]', count: 0 };
    const created = req.method === 'POST';
    if (!prefer.returnRepresentation) return { status: created ? 201 : 204, headers: { 'Content-Range': `*/*` } };
    return { status: created ? 201 : 200, headers: { ...contentType, 'Content-Range': `*/*` }, body: written.text };
  }

  async function route(req: StackRequest): Promise<Reply> {
    let claims: JwtClaims | undefined;
    try {
      for (const name of ['accept-profile', 'content-profile']) {
        const profile = header(req, name);
        if (profile && profile !== 'public') {
          throw new RestError(406, 'PGRST106', 'The schema must be one of the following: public');
        }
      }
      claims = await authenticate(req, options.jwtSecret);
      checkContentType(req);
      const rpc = /^\/rpc\/([^/]+)$/.exec(req.path);
      if (rpc) {
        const fnClaims = claims;
        return await callFunction(req, pathName(rpc[1] as string), options.schema(), limits, (readOnly, work) =>
          inRole(fnClaims, req, readOnly, work),
        );
      }
      const table = /^\/([^/]+)$/.exec(req.path);
      if (!table) throw new RestError(404, 'PGRST125', `Invalid path specified in request URL`);
      return await handleTable(req, claims, pathName(table[1] as string));
    } catch (error) {
      if (error instanceof RestError) return error.toReply();
      if (error instanceof DatabaseBusyError) return busyReply(error.message, limits.retryAfterSeconds);
      if (isPostgresError(error)) {
        const code = error.code ?? 'XX000';
        const status = statusForSqlState(code, claims?.role !== undefined && claims.role !== 'anon');
        // A cancelled statement, a deadlock or a lack of memory may go through later: say when to try again.
        if (status === 503) return busyReply(error.message, limits.retryAfterSeconds, code, error.detail ?? null);
        return jsonReply(status, { code, details: error.detail ?? null, hint: error.hint ?? null, message: error.message });
      }
      throw error;
    }
  }

  return { route };
}
