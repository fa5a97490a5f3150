/**
 * The REST API (`/rest/v1`): tables and `/rpc/<fn>` of the exposed schemas, in
 * PostgREST 12's dialect. This module authenticates the caller, selects the schema
 * (Accept-Profile for GET and HEAD, Content-Profile otherwise), reads the Prefer and
 * Accept headers and routes; read.ts, write.ts and rpc.ts answer. Each request runs in
 * one transaction as the JWT's role with request.jwt.claims set, so Postgres grants and
 * row-level security decide what it may see and change; it waits its turn in the
 * database queue (503 with Retry-After when full) and runs under the statement timeout.
 */
import type { Database } from '../db/database.ts';
import { isPostgresError } from '../db/database.ts';
import type { RequestQueue } from '../db/request-queue.ts';
import { DatabaseBusyError } from '../db/request-queue.ts';
import type { Reply } from '../http.ts';
import { jsonReply } from '../http.ts';
import type { JwtClaims, JwtKeys } from '../jwt.ts';
import { verifyJwt } from '../jwt.ts';
import type { StackRequest } from '../request.ts';
import { header } from '../request.ts';
import type { BackendLimits } from '../service-limits.ts';
import { RestError, statusForSqlState } from './errors.ts';
import { negotiate } from './media.ts';
import { planCostCheck } from './plan-cost.ts';
import { checkStrict, readPreferences } from './prefer.ts';
import { handleRead } from './read.ts';
import type { RequestContext } from './request-context.ts';
import { findTable } from './request-context.ts';
import { readQueryShape } from './request-shape.ts';
import type { RestSettings } from './rest-settings.ts';
import { txOverridable } from './rest-settings.ts';
import { handleRpc } from './rpc.ts';
import type { SchemaCache } from './schema-cache.ts';
import { ident, tableRef } from './sql-fragments.ts';
import { roleRunner } from './transaction.ts';
import { handleWrite } from './write.ts';

export type RestOptions = {
  db: Database;
  keys: JwtKeys;
  schema: () => SchemaCache;
  limits: BackendLimits;
  settings: RestSettings;
  /** Every request's transaction waits its turn here. */
  queue: RequestQueue;
};

/**
 * The roles a token may take. `supabase_admin` is accepted as hosted PostgREST accepts it
 * (its authenticator may become that role); only the holder of the JWT secret can sign one.
 */
const apiRoles = new Set(['anon', 'authenticated', 'service_role', 'supabase_admin']);

async function authenticate(req: StackRequest, keys: JwtKeys): Promise<JwtClaims> {
  // The session's token, else the API key the gateway checked (the anon role's, say).
  const authorization = header(req, 'authorization');
  const token = (authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined) ?? header(req, 'apikey');
  if (!token) {
    throw new RestError(401, 'PGRST301', 'No API key found in request', null, 'No `apikey` request header or url param was found.');
  }
  const check = await verifyJwt(token, keys);
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

/** The schema a request addresses (PostgREST's getSchema) and whether profiles are in play. */
function selectSchema(req: StackRequest, schemas: string[]): { schema: string; negotiated: boolean } {
  const reading = req.method === 'GET' || req.method === 'HEAD';
  const profile = header(req, reading ? 'accept-profile' : 'content-profile');
  if (profile === undefined) return { schema: schemas[0] ?? 'public', negotiated: schemas.length > 1 };
  if (!schemas.includes(profile)) {
    throw new RestError(406, 'PGRST106', `The schema must be one of the following: ${schemas.join(', ')}`);
  }
  return { schema: profile, negotiated: true };
}

function busyReply(message: string, retryAfterSeconds: number, code = 'PGRST003', details: string | null = null): Reply {
  return jsonReply(503, { code, details, hint: `Try again in ${retryAfterSeconds} seconds.`, message }, { 'Retry-After': String(retryAfterSeconds) });
}

export function createRestService(options: RestOptions) {
  const { limits, settings } = options;

  async function dispatch(req: StackRequest, claims: JwtClaims): Promise<Reply> {
    const { schema, negotiated } = selectSchema(req, settings.schemas);
    checkContentType(req);
    const rpc = /^\/rpc\/([^/]+)$/.exec(req.path);
    const table = rpc ? null : /^\/([^/]+)$/.exec(req.path);
    if (!rpc && !table) throw new RestError(404, 'PGRST125', 'Invalid path specified in request URL');
    const prefs = readPreferences(header(req, 'prefer'), txOverridable(settings.txEnd));
    const media = negotiate(header(req, 'accept'), settings.planEnabled);
    const reading = req.method === 'GET' || req.method === 'HEAD';
    const shape = readQueryShape(req.url.searchParams, header(req, 'range'), limits, { rpcRead: !!rpc && reading });
    checkStrict(prefs);
    const ctx: RequestContext = {
      req,
      cache: options.schema(),
      schema,
      negotiated,
      limits,
      settings,
      prefs,
      media,
      // PostgreSQL cuts a statement at the statement timeout and serves others meanwhile.
      planCost: options.db.engine === 'pglite' ? planCostCheck(limits.maxPlanCost, shape.patternCost) : null,
      run: roleRunner({ db: options.db, queue: options.queue, statementTimeoutMs: limits.statementTimeoutMs, txEnd: settings.txEnd }, req, claims, schema, prefs),
    };
    if (rpc) return handleRpc(ctx, pathName(rpc[1] as string), shape);
    const target = findTable(ctx, pathName(table?.[1] as string));
    if (reading) return handleRead(ctx, { table: target, from: `${tableRef(target)} AS ${ident(target.name)}`, alias: target.name }, shape);
    if (req.method === 'POST' || req.method === 'PATCH' || req.method === 'DELETE') return handleWrite(ctx, target, shape);
    throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${req.method}`);
  }

  async function route(req: StackRequest): Promise<Reply> {
    let claims: JwtClaims | undefined;
    try {
      claims = await authenticate(req, options.keys);
      return await dispatch(req, claims);
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
