/**
 * Pulls server changes table by table from each table's cursor. Each page's rows and
 * the cursor after them are stored in one transaction, so an interrupted pull resumes
 * where it stopped and never skips. A device's first pull of a table starts at the
 * previous year (the current and previous year are what the screens show).
 */
import type { AppDatabase } from '../data/app-database.ts';
import { applyPullPage, readCursor } from '../data/sync-store.ts';
import type { SyncedTable } from '../data/synced-tables.ts';
import type { SyncTransport } from './transport.ts';
import { SyncInterrupted } from './errors.ts';

export type PullContext = { db: AppDatabase; transport: SyncTransport; now: () => number; pageSize: number };

export async function pullTable(ctx: PullContext, table: SyncedTable): Promise<number> {
  const stored = await readCursor(ctx.db, table);
  let cursor: unknown = stored?.cursor ?? null;
  const minYear = stored ? stored.minYear : new Date(ctx.now()).getUTCFullYear() - 1;
  let applied = 0;
  for (;;) {
    const outcome = await ctx.transport.pull(table, cursor, ctx.pageSize, minYear);
    if (!outcome.ok) throw new SyncInterrupted(outcome);
    const { rows, cursor: next, hasMore } = outcome.page;
    applied += await applyPullPage(
      ctx.db,
      table,
      rows,
      { table, cursor: next, minYear, completedAt: hasMore ? (stored?.completedAt ?? null) : ctx.now() },
      ctx.now(),
    );
    cursor = next;
    if (!hasMore) return applied;
  }
}

/** True when every table has finished at least one pull on this device. */
export async function initialPullDone(db: AppDatabase, tables: readonly SyncedTable[]): Promise<boolean> {
  const cursors = await Promise.all(tables.map((table) => readCursor(db, table)));
  return cursors.every((cursor) => cursor?.completedAt);
}
