/**
 * What the sync engine needs from the server, as an interface so tests can run the
 * engine against the real local stack through a network they can cut, and so the
 * service worker can run the same push with its own client.
 */
import type { Row, SyncedTable } from '../data/synced-tables.ts';
import type { RequestFailure } from './errors.ts';

/**
 * `before`: each sent row as the server held it just before this push (null where it did
 * not exist), in the order sent; absent or empty when the server did not say.
 */
export type PushOutcome = { ok: true; rows: Row[]; before?: Array<Row | null> } | ({ ok: false } & RequestFailure);

export type PullPage = { rows: Row[]; cursor: unknown; hasMore: boolean };
export type PullOutcome = { ok: true; page: PullPage } | ({ ok: false } & RequestFailure);

/** One table's place in a multi-table pull: where its last pull stopped, and its year floor. */
export type PullRequest = { table: SyncedTable; cursor: unknown; minYear: number | null };
/** The pages of several tables, in the order pulled; each page carries its own table's cursor. */
export type PullManyOutcome = { ok: true; pages: Array<PullPage & { table: SyncedTable }> } | ({ ok: false } & RequestFailure);
export type RowCountsOutcome = { ok: true; counts: Partial<Record<SyncedTable, number>> } | ({ ok: false } & RequestFailure);

/**
 * signed-in: a usable session for `userId`. unreachable: a session exists but could not
 * be refreshed for lack of network (keep everything, try later). signed-out: no session,
 * or the server revoked it; queued edits wait for the same user to sign in again.
 */
export type SessionState =
  | { status: 'signed-in'; userId: string }
  | { status: 'unreachable'; message: string }
  | { status: 'signed-out' };

export type SyncTransport = {
  session(): Promise<SessionState>;
  /** Forces a token refresh after the server said the access token is no longer good. */
  refreshSession(): Promise<SessionState>;
  /**
   * Writes rows field by field (push_changes): each row's natural key and changed fields
   * update the existing row, or create it; answers the rows as stored and as they were.
   * `typedAt`: when each row's edit was typed (ISO), for the server's change history;
   * `sources`: where each row's edit came from when not typed (an imported file), or null.
   */
  push(table: SyncedTable, rows: Row[], typedAt?: readonly string[], sources?: ReadonlyArray<string | null>): Promise<PushOutcome>;
  pull(table: SyncedTable, cursor: unknown, limit: number, minYear: number | null): Promise<PullOutcome>;
  /**
   * Pulls several tables in one request, up to `limit` rows in all (pull_changes_many).
   * Optional: without it the engine pulls table by table.
   */
  pullMany?(requests: PullRequest[], limit: number): Promise<PullManyOutcome>;
  /** How many rows a first pull of these tables brings (pull_row_counts), for a progress bar. */
  countRows?(tables: readonly SyncedTable[], minYear: number | null): Promise<RowCountsOutcome>;
};
