/** Errors in PostgREST's shape: a status and a {code, message, details, hint} body. */
import type { Reply } from '../http.ts';
import { jsonReply } from '../http.ts';

export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** A sentence, or (for an ambiguous embed) the list of candidate relationships. */
    readonly details: unknown = null,
    readonly hint: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toReply(): Reply {
    return jsonReply(
      this.status,
      { code: this.code, details: this.details, hint: this.hint, message: this.message },
      this.headers,
    );
  }
}

export const parseError = (what: string, detail: string) =>
  new RestError(400, 'PGRST100', `"failed to parse ${what}"`, detail);

/** PostgREST's 400 for a request shape it understands but will not serve (a cost limit, an unknown cast). */
export const refuse = (message: string, details: string | null = null, hint: string | null = null) =>
  new RestError(400, 'PGRST100', message, details, hint);

/**
 * PostgREST's mapping of a Postgres SQLSTATE to an HTTP status, but for the conditions
 * that may clear up by themselves: a statement cut by the statement timeout or cancelled
 * (class 57), a deadlock or serialization failure (class 40) and a lock not available
 * (55P03) answer 503, where PostgREST answers 500, so that clients try again later.
 */
export function statusForSqlState(code: string, signedIn: boolean): number {
  if (code === '42501') return signedIn ? 403 : 401;
  if (code === '23503' || code === '23505') return 409;
  if (code === '25006') return 405;
  if (code === '42883' || code === '42P01') return 404;
  if (code === 'P0001') return 400;
  if (code === '55P03') return 503;
  const family = code.slice(0, 2);
  if (family === '08' || family === '53' || family === '57' || family === '40') return 503;
  if (family === '54') return 413;
  if (family === '28' || family === '0L' || family === '0P') return 403;
  if (['09', '25', '2D', '38', '39', '3B', '55', '58', 'F0', 'HV', 'XX'].includes(family)) return 500;
  if (family === 'P0') return 500;
  return 400;
}
