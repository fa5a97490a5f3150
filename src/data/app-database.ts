/**
 * The device's database (IndexedDB through Dexie): a mirror of every synced server
 * table, the outbox of edits not yet confirmed by the server, the dead-letter list of
 * edits the server refused, the conflict log, pull cursors, sync metadata and the
 * stored sign-in session. Only the data layer opens it.
 *
 * Versions only ever get added: an upgrade must keep queued edits (the outbox).
 */
import Dexie from 'dexie';
import type { Table } from 'dexie';
import type { AnyTableSpec, LocalRow, Row, SyncedTable } from './synced-tables.ts';
import { syncedTables } from './synced-tables.ts';

/** An edit waiting for the server: one per row and user, coalescing repeated edits. */
export type OutboxEntry = {
  seq?: number;
  table: SyncedTable;
  key: string;
  keyValues: Row;
  /** Only the fields this device changed, with their newest values. */
  changes: Row;
  /** What each changed field held before this device changed it (the server's value as last seen). */
  base: Row;
  /** The signed-in user who made the edit: never pushed under anyone else's session. */
  userId: string;
  /** Bumped by every coalesced edit, so a push confirmation can tell it sent the newest. */
  rev: number;
  /**
   * What pushes of this entry sent and never heard back about (the answer may have been
   * lost after the server wrote it): the server may hold any of these values, and finding
   * one there is this device's own write, not another device's.
   */
  unconfirmed?: SentValues[];
  /**
   * Where the newest edit came from when it was not typed here ("imported from FILE"):
   * sent with the push for the server's change history. An edit typed over it clears it.
   */
  source?: string;
  createdAt: number;
  updatedAt: number;
};

/** The changes one push sent for an entry, at the entry's revision then. */
export type SentValues = { rev: number; changes: Row };

export type DeadLetter = {
  id?: number;
  table: SyncedTable;
  key: string;
  keyValues: Row;
  changes: Row;
  userId: string;
  code: string;
  message: string;
  createdAt: number;
  failedAt: number;
};

export type ConflictRecord = {
  id?: number;
  table: SyncedTable;
  key: string;
  field: string;
  /** The value both devices started from. */
  old: unknown;
  /** The other device's value, as the pull brought it. */
  theirs: unknown;
  /** This device's value, which will win when pushed (last writer by server arrival). */
  ours: unknown;
  at: number;
};

/**
 * A value typed in Submit mode and not submitted yet: a daily cell (date, row, metric) or
 * a week part's field. `seen` is what the screen showed before the first keystroke, the
 * base its submission is written over; `stamp` changes with every keystroke kept, so a
 * submission deletes only the drafts it wrote.
 */
export type SubmitDraft = {
  storeId: string;
  key: string;
  /** A cell's date, or the week part's first day. */
  date: string;
  cell?: { row: string; metric: string };
  weekField?: 'daysComplete' | 'workDays';
  value: number | null;
  seen: number | null;
  stamp: string;
  updatedAt: number;
};

export type PullCursor = { table: SyncedTable; cursor: unknown; minYear: number | null; completedAt: number | null };
export type MetaRecord = { key: string; value: unknown };
export type StoredAuthItem = { key: string; value: string };

/** Dexie store definitions of these mirrors: the natural key, then the screens' indexes. */
export function mirrorStores(names: readonly SyncedTable[]): Record<string, string> {
  const index = (columns: readonly string[]) => (columns.length === 1 ? String(columns[0]) : `[${columns.join('+')}]`);
  return Object.fromEntries(names.map((name) => {
    const spec: AnyTableSpec = syncedTables[name];
    return [name, [`[${spec.key.join('+')}]`, ...spec.indexes.map(index)].join(', ')];
  }));
}

/**
 * Each version's store definitions; Dexie needs every version that ever shipped, exactly
 * as it shipped, so past versions are written out rather than derived from today's specs.
 */
export const schemaVersions: Array<{ version: number; stores: Record<string, string> }> = [
  {
    version: 1,
    stores: {
      stores: '[id]',
      store_settings: '[store_id]',
      daily_inputs: '[store_id+entry_date+row_identifier+metric_type], [store_id+entry_date], [store_id+year+month]',
      weekly_store_performance: '[store_id+week_start_date], [store_id+year]',
      monthly_targets: '[store_id+year+month+metric_key], [store_id+year+month]',
      monthly_labor_gross_inputs: '[store_id+month_year+labor_type], [store_id+month_year]',
      yearly_financial_inputs: '[store_id+year+month], [store_id+year]',
      user_dashboard_preferences: '[user_id+store_id]',
      front_end_team_advisors: '[id], store_id',
      front_end_team_daily_performance: '[store_id+advisor_id+entry_date], [store_id+year+month]',
      front_end_team_advisor_totals: '[store_id+advisor_id+entry_date], [store_id+year+month]',
      front_end_team_advisor_op_codes: '[store_id+advisor_id+entry_date], [store_id+year+month]',
      front_end_team_advisor_surveys: '[store_id+advisor_id+entry_date], [store_id+year+month]',
      front_end_team_totals: '[store_id+entry_date], [store_id+year+month]',
      front_end_team_op_codes: '[store_id+entry_date], [store_id+year+month]',
      front_end_team_surveys: '[store_id+entry_date], [store_id+year+month]',
      front_end_team_targets: '[store_id+year+month]',
      advisor_survey_data: '[store_id+advisor_id+year+month], [store_id+year+month]',
      outbox: '++seq, &[table+key+userId], table',
      deadLetters: '++id, table',
      conflicts: '++id, table, at',
      cursors: 'table',
      meta: 'key',
      authStorage: 'key',
    },
  },
  {
    // The push reads one user's entries in order; before this it scanned the outbox.
    version: 2,
    stores: { outbox: '++seq, &[table+key+userId], table, [userId+seq]' },
  },
  {
    // The store's calendar (work pattern exceptions) and its month-end counts.
    version: 3,
    stores: { store_calendar_days: '[store_id+calendar_date], [store_id+year]', monthly_operational_inputs: '[store_id+year+month]' },
  },
  {
    // Closed months: a closed month's figures are refused by the server.
    version: 4,
    stores: { month_closures: '[store_id+month_start]' },
  },
  {
    // Indexes that repeated a prefix of the key (or that nothing read) are gone: a query
    // on a key's prefix uses the key itself, and every index is one more write per row,
    // most of a first sync's time on the device.
    version: 5,
    stores: mirrorStores(['daily_inputs', 'monthly_targets', 'monthly_labor_gross_inputs', 'yearly_financial_inputs']),
  },
  {
    // Values typed in Submit mode and not submitted yet: kept on the device, not in memory,
    // so that leaving the page or reloading it drops nothing (repositories/submit-drafts.ts).
    version: 6,
    stores: { submitDrafts: '[storeId+key]' },
  },
];

export const latestSchemaVersion = schemaVersions.length;

/**
 * Every store as the latest version defines it: the versions' definitions laid over one
 * another. Dexie opens a database of any earlier version with this alone (it reads the
 * installed stores and indexes and changes what differs; only a version with a data
 * upgrade function must stay declared), and parsing one version at every start instead
 * of all of them saves the start-up a few milliseconds per version.
 */
export const latestStores: Record<string, string> = Object.assign({}, ...schemaVersions.map(({ stores }) => stores));

export class AppDatabase extends Dexie {
  outbox!: Table<OutboxEntry, number>;
  deadLetters!: Table<DeadLetter, number>;
  conflicts!: Table<ConflictRecord, number>;
  cursors!: Table<PullCursor, SyncedTable>;
  meta!: Table<MetaRecord, string>;
  authStorage!: Table<StoredAuthItem, string>;
  submitDrafts!: Table<SubmitDraft, [string, string]>;

  /** `upTo` opens an older schema version, declared as it shipped (for upgrade tests); default the latest. */
  constructor(name: string, options: { upTo?: number; indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange } = {}) {
    super(name, options.indexedDB ? { indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange } : undefined);
    if (options.upTo === undefined) {
      this.version(latestSchemaVersion).stores(latestStores);
    } else {
      // An older version exactly as it shipped, version by version (for upgrade tests).
      for (const { version, stores } of schemaVersions) if (version <= options.upTo) this.version(version).stores(stores);
    }
  }

  /** A synced table's mirror, its rows typed as the database declares them (LocalRow). */
  mirror<T extends SyncedTable>(table: T): Table<LocalRow<T>, unknown[]> {
    return this.table(table) as Table<LocalRow<T>, unknown[]>;
  }

  /** Any synced table's mirror, for the code that handles every table alike (local writes, the sync). */
  anyMirror(table: SyncedTable): Table<Row, unknown[]> {
    return this.table(table) as Table<Row, unknown[]>;
  }

  /**
   * The mirror's rows whose key starts with `from` through those starting with `to`
   * (default `from`), in key order: a month's daily rows by store and dates, a month's
   * targets. Read on the key itself rather than on an index repeating its first columns
   * (one less write per row), and with plain bounds rather than Dexie's virtual index,
   * which its live-query cache cannot read. An empty array sorts after every string,
   * number and date, so `[...to, []]` is past every key that starts with `to`.
   */
  keyRange<T extends SyncedTable>(table: T, from: readonly unknown[], to: readonly unknown[] = from) {
    const spec: AnyTableSpec = syncedTables[table];
    return this.mirror(table).where(`[${spec.key.join('+')}]`).between([...from], [...to, []], true, true);
  }
}
