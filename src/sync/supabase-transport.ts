/**
 * The sync transport over supabase-js. Every call has its own timeout and goes by POST
 * (rpc), which supabase-js never retries, so a dead network fails fast here and the
 * engine's own backoff decides when to try again.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Row } from '../data/synced-tables.ts';
import { classifyFailure } from './errors.ts';
import type { SessionKeeper } from './session-keeper.ts';
import type { PullOutcome, PushOutcome, SyncTransport } from './transport.ts';

type PostgrestFailure = { code?: string; message?: string } | null;

function failure(status: number, error: PostgrestFailure) {
  const code = error?.code ?? '';
  return { ok: false as const, kind: classifyFailure(status, code), status, code, message: error?.message ?? `HTTP ${status}` };
}

export function supabaseTransport(
  client: SupabaseClient,
  sessions: SessionKeeper,
  options: { timeoutMs?: number } = {},
): SyncTransport {
  const timeout = () => AbortSignal.timeout(options.timeoutMs ?? 20_000);

  return {
    session: () => sessions.current(),
    refreshSession: () => sessions.refresh(),
    async push(table, rows): Promise<PushOutcome> {
      try {
        const { data, error, status } = await client
          .rpc('push_changes', { p_table: table, p_rows: rows })
          .abortSignal(timeout());
        if (error) return failure(status, error);
        if (!Array.isArray(data)) return failure(502, { code: 'PUSH_SHAPE', message: 'The server answered a push with an unexpected shape' });
        return { ok: true, rows: data as Row[] };
      } catch (error) {
        return failure(0, { message: error instanceof Error ? error.message : String(error) });
      }
    },
    async pull(table, cursor, limit, minYear): Promise<PullOutcome> {
      try {
        const { data, error, status } = await client
          .rpc('pull_changes', { p_table: table, p_cursor: cursor ?? null, p_limit: limit, p_min_year: minYear })
          .abortSignal(timeout());
        if (error) return failure(status, error);
        const page = data as { rows?: unknown; cursor?: unknown; has_more?: unknown } | null;
        if (!page || !Array.isArray(page.rows) || typeof page.has_more !== 'boolean') {
          return failure(502, { code: 'PULL_SHAPE', message: 'The server answered a pull with an unexpected shape' });
        }
        return { ok: true, page: { rows: page.rows as Row[], cursor: page.cursor, hasMore: page.has_more } };
      } catch (error) {
        return failure(0, { message: error instanceof Error ? error.message : String(error) });
      }
    },
  };
}
