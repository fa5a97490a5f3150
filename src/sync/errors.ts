/**
 * How the sync engine reads a failed request: try again later (transient), refresh the
 * session first (auth), or never succeeds as sent (permanent: the edit goes to the
 * dead-letter list). Postgres classes 22 (bad data), 23 (broken rule) and 42501
 * (not allowed) are permanent; so is a malformed or oversized request (400, 413). A 503
 * or 429 is transient, and may say how long to wait (Retry-After).
 */

export type FailureKind = 'transient' | 'auth' | 'permanent';

export type RequestFailure = {
  kind: FailureKind;
  status: number;
  code: string;
  message: string;
  /** How long the server asked the client to wait before trying again (Retry-After), in milliseconds. */
  retryAfterMs?: number;
};

export function classifyFailure(status: number, code: string | undefined): FailureKind {
  const sqlState = code ?? '';
  if (status === 0 || status === 408 || status === 429 || status >= 500) return 'transient';
  if (sqlState === 'PGRST301' || sqlState === 'PGRST303' || (status === 401 && sqlState !== '42501')) return 'auth';
  if (sqlState.startsWith('22') || sqlState.startsWith('23') || sqlState === '42501') return 'permanent';
  // 413: the body is too large as sent; the push splits the batch rather than resend it for ever.
  if (status === 400 || status === 403 || status === 404 || status === 406 || status === 409 || status === 413) return 'permanent';
  return 'transient';
}

/** Thrown to end a sync step early: transient (try later) or auth (refresh, then again). */
export class SyncInterrupted extends Error {
  constructor(readonly failure: RequestFailure) {
    super(failure.message);
  }
}
