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
import type { Row, SyncedTable, TableSpec } from './synced-tables.ts';
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
  createdAt: number;
  updatedAt: number;
};

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

export type PullCursor = { table: SyncedTable; cursor: unknown; minYear: number | null; completedAt: number | null };
export type MetaRecord = { key: string; value: unknown };
export type StoredAuthItem = { key: string; value: string };

/** Dexie store definitions of these mirrors: the natural key, then the screens' indexes. */
function mirrorStores(names: readonly SyncedTable[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => {
    const spec: TableSpec = syncedTables[name];
    return [name, [`[${spec.key.join('+')}]`, ...spec.indexes].join(', ')];
  }));
}

/** The mirrors of the first version, as it shipped (a version's stores never change). */
const firstMirrors: SyncedTable[] = [
  'stores', 'store_settings', 'daily_inputs', 'weekly_store_performance', 'monthly_targets',
  'monthly_labor_gross_inputs', 'yearly_financial_inputs', 'user_dashboard_preferences',
  'front_end_team_advisors', 'front_end_team_daily_performance', 'front_end_team_advisor_totals',
  'front_end_team_advisor_op_codes', 'front_end_team_advisor_surveys', 'front_end_team_totals',
  'front_end_team_op_codes', 'front_end_team_surveys', 'front_end_team_targets', 'advisor_survey_data',
];

/** Each version's store definitions; Dexie needs every version that ever shipped. */
export const schemaVersions: Array<{ version: number; stores: Record<string, string> }> = [
  {
    version: 1,
    stores: {
      ...mirrorStores(firstMirrors),
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
    stores: mirrorStores(['store_calendar_days', 'monthly_operational_inputs']),
  },
  {
    // Closed months: a closed month's figures are refused by the server.
    version: 4,
    stores: mirrorStores(['month_closures']),
  },
];

export const latestSchemaVersion = schemaVersions.length;

export class AppDatabase extends Dexie {
  outbox!: Table<OutboxEntry, number>;
  deadLetters!: Table<DeadLetter, number>;
  conflicts!: Table<ConflictRecord, number>;
  cursors!: Table<PullCursor, SyncedTable>;
  meta!: Table<MetaRecord, string>;
  authStorage!: Table<StoredAuthItem, string>;

  /** `upTo` opens an older schema version (for upgrade tests); default the latest. */
  constructor(name: string, options: { upTo?: number; indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange } = {}) {
    super(name, options.indexedDB ? { indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange } : undefined);
    for (const { version, stores } of schemaVersions) {
      if (version > (options.upTo ?? latestSchemaVersion)) break;
      this.version(version).stores(stores);
    }
  }

  mirror(table: SyncedTable): Table<Row, unknown[]> {
    return this.table(table) as Table<Row, unknown[]>;
  }
}
