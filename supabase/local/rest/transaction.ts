/**
 * The transaction every REST request runs in, as PostgREST 12 opens it: the JWT's role,
 * `request.jwt.claims`, the request's method and path, the selected schema first on the
 * search path, the statement timeout, and read-only for GET and HEAD. It commits unless
 * db-tx-end (or an allowed `Prefer: tx=rollback`) says to roll back; then deferred
 * constraints are checked first, so a dry run reports what a commit would.
 */
import type { Database, Queryable } from '../db/database.ts';
import type { RequestQueue } from '../db/request-queue.ts';
import type { JwtClaims } from '../jwt.ts';
import type { StackRequest } from '../request.ts';
import type { Preferences } from './prefer.ts';
import type { TxEnd } from './rest-settings.ts';
import { ident } from './sql-fragments.ts';

/** Carries a finished request's result out of a transaction that must not commit. */
class RollbackSignal<T> extends Error {
  constructor(readonly value: T) {
    super('rolled back on request');
  }
}

export type TransactionOptions = {
  db: Database;
  queue: RequestQueue;
  statementTimeoutMs: number;
  txEnd: TxEnd;
};

/** Whom the database queue serves in turn: the signed-in user, else the role at its address. */
function queueClient(claims: JwtClaims, req: StackRequest): string {
  return typeof claims.sub === 'string' ? `user:${claims.sub}` : `${claims.role ?? 'anon'}@${req.address}`;
}

export function rollsBack(txEnd: TxEnd, prefs: Pick<Preferences, 'tx'>): boolean {
  if (prefs.tx) return prefs.tx === 'rollback';
  return txEnd.startsWith('rollback');
}

export type RunInRole = <T>(readOnly: boolean, work: (tx: Queryable) => Promise<T>) => Promise<T>;

/** Credentials stay out of what SQL can read; everything else is there as PostgREST puts it. */
const unreadableHeaders = new Set(['authorization', 'apikey', 'cookie']);

/**
 * The request's headers as PostgREST gives them to SQL (`request.headers`, names in lower
 * case), so functions and triggers can read, say, the device a push came from.
 */
function requestHeadersJson(req: StackRequest): string {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || unreadableHeaders.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return JSON.stringify(headers);
}

export function roleRunner(
  options: TransactionOptions,
  req: StackRequest,
  claims: JwtClaims,
  schema: string,
  prefs: Pick<Preferences, 'tx'>,
): RunInRole {
  return async (readOnly, work) => {
    try {
      return await options.queue.run(queueClient(claims, req), () =>
        options.db.transaction(async (tx) => {
          if (readOnly) await tx.query('set transaction read only');
          // Memoize (PostgreSQL 14+) would reuse one embedded lookup for many parent rows and
          // spend its rows from the embedded-row budget once; the budget counts rows brought,
          // so it is off.
          await tx.query(
            `select set_config('search_path', $6, true), set_config('role', $1, true),
                    set_config('request.jwt.claims', $2, true), set_config('request.method', $3, true),
                    set_config('request.path', $4, true), set_config('statement_timeout', $5, true),
                    set_config('request.headers', $7, true),
                    (select set_config('enable_memoize', 'off', true) where current_setting('server_version_num')::int >= 140000)`,
            [
              claims.role ?? 'anon',
              JSON.stringify(claims),
              req.method,
              req.url.pathname,
              String(options.statementTimeoutMs),
              // Written as PostgREST writes it (each schema quoted), as `explain()` settings show it.
              [schema, 'public', 'extensions'].map(ident).join(', '),
              requestHeadersJson(req),
            ],
          );
          const result = await work(tx);
          if (rollsBack(options.txEnd, prefs)) {
            await tx.query('set constraints all immediate');
            throw new RollbackSignal(result);
          }
          return result;
        }, { statementTimeoutMs: options.statementTimeoutMs }),
      );
    } catch (error) {
      if (error instanceof RollbackSignal) return error.value as Awaited<ReturnType<typeof work>>;
      throw error;
    }
  };
}
