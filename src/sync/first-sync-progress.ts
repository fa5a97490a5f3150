/**
 * A device's first sync, counted as it goes: in rows when the server says how many it
 * will bring, else in tables finished. Owned by the engine from the first sync's first
 * attempt until it completes, so a retry after a failed attempt neither asks for the
 * count again nor starts counting rows from zero.
 */
import type { SyncedTable } from '../data/synced-tables.ts';
import type { RowCountsOutcome } from './transport.ts';

export type FirstSyncReport = { done: number; total: number; unit: 'rows' | 'tables' };

export class FirstSyncProgress {
  private rows = 0;
  /** A retry asks again for tables an earlier attempt finished: each counts once. */
  private readonly finished = new Set<SyncedTable>();
  private total: number | null = null;
  private inTables = false;
  private readonly counted: Promise<void>;

  /**
   * `count` asks the server for the rows of the tables not yet finished; it is sent
   * beside the first pull, not before it, so it adds no round trip. A count that fails
   * (a busy backend, say) is not asked again: progress goes by tables.
   */
  constructor(
    private readonly tables: readonly SyncedTable[],
    unfinished: readonly SyncedTable[],
    count: ((tables: readonly SyncedTable[]) => Promise<RowCountsOutcome>) | undefined,
    private readonly report: (progress: FirstSyncReport) => void,
  ) {
    this.counted = (count?.(unfinished) ?? Promise.resolve(null))
      .catch(() => null)
      .then((answer) => {
        if (answer?.ok) this.total = unfinished.reduce((sum, table) => sum + (answer.counts[table] ?? 0), 0);
        else this.inTables = true;
        this.tell();
      });
  }

  /** A page stored: its rows, and whether its table is done. */
  readonly onPage = (table: SyncedTable, rows: number, tableDone: boolean): void => {
    this.rows += rows;
    if (tableDone) this.finished.add(table);
    this.tell();
  };

  /** Resolves once the count has answered, so the last report says every row arrived. */
  settle(): Promise<void> {
    return this.counted;
  }

  private tell(): void {
    if (this.inTables) this.report({ done: this.finished.size, total: this.tables.length, unit: 'tables' });
    else if (this.total !== null) this.report({ done: Math.min(this.total, this.rows), total: this.total, unit: 'rows' });
  }
}
