/**
 * The sync transport over the backend's RPC endpoints (push_changes_reported,
 * pull_changes, pull_changes_many, pull_row_counts). Every call has its own timeout and
 * goes by POST, which is never retried underneath, so a dead network fails fast here and
 * the engine's own backoff decides when to try again, waiting at least as long as a
 * server's Retry-After asked (noted by the fetch, see retry-after.ts). How a call
 * reaches the server is `RpcCall`: supabase-js in the pages (supabase-transport.ts),
 * plain fetch in the service worker (fetch-rpc.ts), which keeps supabase-js out of it.
 */
import type { Database, Json } from '../data/database.types.ts';
import type { Row, SyncedTable } from '../data/synced-tables.ts';
import { classifyFailure } from './errors.ts';
import { retryAfterOf } from './retry-after.ts';
import type { SessionKeeper } from './session-keeper.ts';
import type { SessionState } from './transport.ts';
import type { PullManyOutcome, PullOutcome, PushOutcome, RowCountsOutcome, SyncTransport } from './transport.ts';
import { isSyncedTable } from '../data/synced-tables.ts';

type PostgrestFailure = { code?: string; message?: string } | null;

function failure(status: number, error: PostgrestFailure, signal?: AbortSignal) {
  const code = error?.code ?? '';
  const retryAfterMs = signal ? retryAfterOf(signal) : undefined;
  return {
    ok: false as const,
    kind: classifyFailure(status, code),
    status,
    code,
    message: error?.message ?? `HTTP ${status}`,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
}

/** A call's answer as PostgREST gives it: the JSON body, or the error body, and the status. */
export type RpcAnswer = { data: unknown; error: PostgrestFailure; status: number };
/**
 * Calls one database function with named arguments; aborts with `signal`. `asUser`: the
 * call must carry this user's session; when the stored session is another user's or
 * none (a sign-out or another person's sign-in since the cycle began), the call is not
 * sent and answers 401, so nobody's edits are ever sent under another identity or as
 * the anonymous role.
 */
export type RpcCall = <F extends SyncFunction>(fn: F, args: SyncFunctions[F]['Args'], signal: AbortSignal, asUser: string | null) => Promise<RpcAnswer>;

/** The database functions the sync engine calls, with their arguments as the database declares them. */
export type SyncFunctions = Pick<Database['public']['Functions'], 'push_changes_reported' | 'pull_changes' | 'pull_changes_many' | 'pull_row_counts'>;
export type SyncFunction = keyof SyncFunctions;

/**
 * Rows and cursors are JSON by the time they reach the server; the device holds them as
 * values of unknown shape (any synced table's row), so they are declared JSON here, once.
 * An argument left out takes the function's default (null), as an explicit null would.
 */
const asJson = (value: unknown) => value as Json;

/** The answer of a call not sent because the session is not the expected user's. */
export const sessionChanged = (): RpcAnswer => ({
  data: null,
  error: { code: 'PGRST301', message: 'The session changed or ended before this request; it waits for its author to sign in.' },
  status: 401,
});

export function rpcTransport(
  call: RpcCall,
  sessions: SessionKeeper,
  options: { timeoutMs?: number; deviceId?: () => Promise<string | null> } = {},
): SyncTransport {
  const timeout = () => AbortSignal.timeout(options.timeoutMs ?? 20_000);
  // The user of the session the engine was last told about: it pushes that user's edits.
  let signedInAs: string | null = null;
  const noteUser = async (state: Promise<SessionState>) => {
    const known = await state;
    signedInAs = known.status === 'signed-in' ? known.userId : null;
    return known;
  };
  const rpc = <F extends SyncFunction>(fn: F, args: SyncFunctions[F]['Args'], signal: AbortSignal) => call(fn, args, signal, signedInAs);

  return {
    session: () => noteUser(sessions.current()),
    refreshSession: () => noteUser(sessions.refresh()),
    async push(table, rows, typedAt, sources): Promise<PushOutcome> {
      const signal = timeout();
      try {
        const device = (await options.deviceId?.().catch(() => null)) ?? null;
        // p_sources only when given: a server from before it answers every other push as before.
        const args = { p_table: table, p_rows: asJson(rows), p_typed_at: asJson(typedAt ?? null), p_device: device ?? undefined, ...(sources ? { p_sources: asJson(sources) } : {}) };
        const { data, error, status } = await rpc('push_changes_reported', args, signal);
        if (error) return failure(status, error, signal);
        const answer = data as { rows?: unknown; before?: unknown } | null;
        if (!answer || !Array.isArray(answer.rows) || !Array.isArray(answer.before) || (answer.before.length > 0 && answer.before.length !== rows.length)) {
          return failure(502, { code: 'PUSH_SHAPE', message: 'The server answered a push with an unexpected shape' });
        }
        return { ok: true, rows: answer.rows as Row[], before: answer.before as Array<Row | null> };
      } catch (error) {
        return failure(0, { message: error instanceof Error ? error.message : String(error) });
      }
    },
    async pull(table, cursor, limit, minYear): Promise<PullOutcome> {
      const signal = timeout();
      try {
        const { data, error, status } = await rpc('pull_changes', { p_table: table, p_cursor: asJson(cursor ?? null), p_limit: limit, p_min_year: minYear ?? undefined }, signal);
        if (error) return failure(status, error, signal);
        const page = data as { rows?: unknown; cursor?: unknown; has_more?: unknown } | null;
        if (!page || !Array.isArray(page.rows) || typeof page.has_more !== 'boolean') {
          return failure(502, { code: 'PULL_SHAPE', message: 'The server answered a pull with an unexpected shape' });
        }
        return { ok: true, page: { rows: page.rows as Row[], cursor: page.cursor, hasMore: page.has_more } };
      } catch (error) {
        return failure(0, { message: error instanceof Error ? error.message : String(error) });
      }
    },
    async pullMany(requests, limit): Promise<PullManyOutcome> {
      const signal = timeout();
      try {
        const body = requests.map(({ table, cursor, minYear }) => ({ table, cursor: cursor ?? null, min_year: minYear }));
        const { data, error, status } = await rpc('pull_changes_many', { p_requests: asJson(body), p_limit: limit }, signal);
        if (error) return failure(status, error, signal);
        const pages = (data as { pages?: unknown } | null)?.pages;
        const wellFormed = (page: unknown): page is { table: SyncedTable; rows: Row[]; cursor: unknown; has_more: boolean } => {
          const candidate = page as { table?: unknown; rows?: unknown; has_more?: unknown } | null;
          return !!candidate && typeof candidate.table === 'string' && isSyncedTable(candidate.table) && Array.isArray(candidate.rows) && typeof candidate.has_more === 'boolean';
        };
        if (!Array.isArray(pages) || pages.length === 0 || !pages.every(wellFormed)) {
          return failure(502, { code: 'PULL_SHAPE', message: 'The server answered a pull with an unexpected shape' });
        }
        return { ok: true, pages: pages.map((page) => ({ table: page.table, rows: page.rows, cursor: page.cursor, hasMore: page.has_more })) };
      } catch (error) {
        return failure(0, { message: error instanceof Error ? error.message : String(error) });
      }
    },
    async countRows(tables, minYear): Promise<RowCountsOutcome> {
      const signal = timeout();
      try {
        const { data, error, status } = await rpc('pull_row_counts', { p_tables: [...tables], p_min_year: minYear ?? undefined }, signal);
        if (error) return failure(status, error, signal);
        if (!data || typeof data !== 'object' || Array.isArray(data)) {
          return failure(502, { code: 'COUNT_SHAPE', message: 'The server answered a row count with an unexpected shape' });
        }
        return { ok: true, counts: data as Record<string, number> };
      } catch (error) {
        return failure(0, { message: error instanceof Error ? error.message : String(error) });
      }
    },
  };
}
