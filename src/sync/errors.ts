/**
 * How the sync engine reads a failed request: try again later (transient), refresh the
 * session first (auth), or never succeeds as sent (permanent: the edit goes to the
 * dead-letter list). Postgres classes 22 (bad data), 23 (broken rule) and 42501
 * (not allowed) are permanent; so is a malformed request (400).
 */

export type FailureKind = 'transient' | 'auth' | 'permanent';

export type RequestFailure = { kind: FailureKind; status: number; code: string; message: string };

export function classifyFailure(status: number, code: string | undefined): FailureKind {
  const sqlState = code ?? '';
  if (status === 0 || status === 408 || status === 429 || status >= 500) return 'transient';
  if (sqlState === 'PGRST301' || sqlState === 'PGRST303' || (status === 401 && sqlState !== '42501')) return 'auth';
  if (sqlState.startsWith('22') || sqlState.startsWith('23') || sqlState === '42501') return 'permanent';
  if (status === 400 || status === 403 || status === 404 || status === 406 || status === 409) return 'permanent';
  return 'transient';
}

/** Thrown to end a sync step early: transient (try later) or auth (refresh, then again). */
export class SyncInterrupted extends Error {
  constructor(readonly failure: RequestFailure) {
    super(failure.message);
  }
}
