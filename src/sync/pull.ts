/**
 * Pulls server changes from each table's cursor. Each page's rows and the cursor after
 * them are stored in one transaction, so an interrupted pull resumes where it stopped
 * and never skips. A device's first pull of a table starts at the previous year (the
 * current and previous year are what the screens show). Where the transport can, many
 * tables come in one request (a first sync of thousands of rows in a handful of
 * requests, an idle cycle in one), and such an answer is stored in one transaction;
 * otherwise table by table.
 */
import type { AppDatabase, PullCursor } from '../data/app-database.ts';
import { applyPullPage, applyPullPages, readCursor, readCursors } from '../data/sync-store.ts';
import type { SyncedTable } from '../data/synced-tables.ts';
import type { PullPage, SyncTransport } from './transport.ts';
import { SyncInterrupted } from './errors.ts';

export type PullContext = {
  db: AppDatabase;
  transport: SyncTransport;
  now: () => number;
  pageSize: number;
  /** Rows one multi-table request may bring. */
  requestRows?: number;
  /** Told after each stored page: its table, its row count, and whether the table is done. */
  onPage?: (table: SyncedTable, rows: number, finished: boolean) => void;
};

type TablePlace = { cursor: unknown; minYear: number | null; completedAt: number | null };

async function placeOf(ctx: PullContext, table: SyncedTable): Promise<TablePlace> {
  return placeFrom(ctx, await readCursor(ctx.db, table));
}

function placeFrom(ctx: PullContext, stored: PullCursor | undefined): TablePlace {
  return {
    cursor: stored?.cursor ?? null,
    minYear: stored ? stored.minYear : new Date(ctx.now()).getUTCFullYear() - 1,
    completedAt: stored?.completedAt ?? null,
  };
}

/** The cursor to store with a page: where the next pull starts, and when the table was last pulled to its end. */
function cursorAfter(ctx: PullContext, table: SyncedTable, place: TablePlace, page: PullPage): PullCursor {
  return { table, cursor: page.cursor, minYear: place.minYear, completedAt: page.hasMore ? place.completedAt : ctx.now() };
}

/** Moves the table's place past a stored page. */
function advance(ctx: PullContext, table: SyncedTable, place: TablePlace, page: PullPage, cursor: PullCursor): void {
  place.cursor = page.cursor;
  if (!page.hasMore) place.completedAt = cursor.completedAt;
  ctx.onPage?.(table, page.rows.length, !page.hasMore);
}

/** Stores one page with the cursor after it; returns the rows applied. */
async function storePage(ctx: PullContext, table: SyncedTable, place: TablePlace, page: PullPage): Promise<number> {
  const cursor = cursorAfter(ctx, table, place, page);
  const applied = await applyPullPage(ctx.db, table, page.rows, cursor, ctx.now());
  advance(ctx, table, place, page, cursor);
  return applied;
}

export async function pullTable(ctx: PullContext, table: SyncedTable): Promise<number> {
  const place = await placeOf(ctx, table);
  let applied = 0;
  for (;;) {
    const outcome = await ctx.transport.pull(table, place.cursor, ctx.pageSize, place.minYear);
    if (!outcome.ok) throw new SyncInterrupted(outcome);
    applied += await storePage(ctx, table, place, outcome.page);
    if (!outcome.page.hasMore) return applied;
  }
}

/** Pulls every given table to its end, several tables a request where the transport can. */
export async function pullTables(ctx: PullContext, tables: readonly SyncedTable[]): Promise<number> {
  const pullMany = ctx.transport.pullMany?.bind(ctx.transport);
  if (!pullMany || tables.length < 2) {
    let applied = 0;
    for (const table of tables) applied += await pullTable(ctx, table);
    return applied;
  }
  const stored = await readCursors(ctx.db, tables);
  const places = new Map<SyncedTable, TablePlace>(tables.map((table, index) => [table, placeFrom(ctx, stored[index])]));
  let remaining = [...tables];
  let applied = 0;
  while (remaining.length > 0) {
    const requests = remaining.map((table) => {
      const place = places.get(table) as TablePlace;
      return { table, cursor: place.cursor, minYear: place.minYear };
    });
    const outcome = await pullMany(requests, ctx.requestRows ?? ctx.pageSize);
    if (!outcome.ok) throw new SyncInterrupted(outcome);
    const finished = new Set<SyncedTable>();
    // Each page's cursor follows the one before it of the same table.
    const stored: Array<{ page: PullPage & { table: SyncedTable }; place: TablePlace; cursor: PullCursor }> = [];
    const next = new Map<SyncedTable, TablePlace>();
    for (const page of outcome.pages) {
      const place = places.get(page.table);
      // A page of a table not asked for would move a cursor nobody checked.
      if (!place || finished.has(page.table)) {
        throw new SyncInterrupted({ kind: 'transient', status: 502, code: 'PULL_SHAPE', message: `The server answered a pull with a page of ${page.table} it was not asked for` });
      }
      const before = next.get(page.table) ?? place;
      const cursor = cursorAfter(ctx, page.table, before, page);
      next.set(page.table, { cursor: page.cursor, minYear: place.minYear, completedAt: cursor.completedAt });
      stored.push({ page, place, cursor });
      if (!page.hasMore) finished.add(page.table);
    }
    // The whole answer in one transaction: the screens redraw once per request, not per page.
    const counts = await applyPullPages(
      ctx.db,
      stored.map(({ page, cursor }) => ({ table: page.table, rows: page.rows, cursor })),
      ctx.now(),
    );
    for (const [index, { page, place, cursor }] of stored.entries()) {
      applied += counts[index] ?? 0;
      advance(ctx, page.table, place, page, cursor);
    }
    remaining = remaining.filter((table) => !finished.has(table));
    // Every answer either finishes a table or fills its row budget, so this loop ends;
    // an answer that does neither would repeat forever, so it counts as a failed request.
    if (finished.size === 0 && outcome.pages.every((page) => page.rows.length === 0)) {
      throw new SyncInterrupted({ kind: 'transient', status: 502, code: 'PULL_SHAPE', message: 'The server answered a pull without progress' });
    }
  }
  return applied;
}

/** True when every table has finished at least one pull on this device. */
export async function initialPullDone(db: AppDatabase, tables: readonly SyncedTable[]): Promise<boolean> {
  const cursors = await readCursors(db, tables);
  return cursors.every((cursor) => cursor?.completedAt);
}
