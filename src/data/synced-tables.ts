/**
 * The server tables the device mirrors, each with its natural key: the columns the
 * server's unique constraint and the push's upsert conflict target name. The local copy
 * of a row is keyed by the same columns, so a row created on two devices offline is one
 * row everywhere, whatever id either device would have given it.
 *
 * Typed against the database's generated types (database.types.ts): every table of the
 * API schema that has the sync columns must be listed here, and every key or index column
 * named must exist, or the compiler says so. The server's own copy of the keys is
 * private.synced_tables (supabase/schemas/tables); a test keeps the two equal.
 */
import type { Database } from './database.types.ts';

/** A row of any synced table, where the code handles every table alike (the outbox, the sync). */
export type Row = Record<string, unknown>;

type PublicTables = Database['public']['Tables'];

/** Every table of the API schema that carries sync_xid is synced: pulls page by it. */
export type SyncedTable = { [T in keyof PublicTables]: PublicTables[T]['Row'] extends { sync_xid: unknown } ? T : never }[keyof PublicTables];

/** A synced table's row as pulls bring it: every column but sync_xid. */
export type ServerRow<T extends SyncedTable> = Omit<PublicTables[T]['Row'], 'sync_xid'>;

/** A column of a synced table, as pulls bring it. */
export type ColumnOf<T extends SyncedTable> = keyof ServerRow<T> & string;

export type TableSpec<T extends SyncedTable> = {
  /** Natural key, in order: Dexie's compound primary key and the upsert conflict target. */
  key: readonly ColumnOf<T>[];
  /**
   * Extra Dexie indexes the screens query by, each a list of columns. A query on a prefix
   * of the key (daily inputs by store and date) needs none: Dexie reads it from the key.
   */
  indexes: readonly (readonly ColumnOf<T>[])[];
};

const byStoreMonth = [['store_id', 'year', 'month']] as const;

export const syncedTables = {
  stores: { key: ['id'], indexes: [] },
  store_settings: { key: ['store_id'], indexes: [] },
  daily_inputs: { key: ['store_id', 'entry_date', 'row_identifier', 'metric_type'], indexes: [] },
  weekly_store_performance: { key: ['store_id', 'week_start_date'], indexes: [['store_id', 'year']] },
  monthly_targets: { key: ['store_id', 'year', 'month', 'metric_key'], indexes: [] },
  monthly_labor_gross_inputs: { key: ['store_id', 'month_year', 'labor_type'], indexes: [] },
  yearly_financial_inputs: { key: ['store_id', 'year', 'month'], indexes: [] },
  user_dashboard_preferences: { key: ['user_id', 'store_id'], indexes: [] },
  front_end_team_advisors: { key: ['id'], indexes: [['store_id']] },
  front_end_team_daily_performance: { key: ['store_id', 'advisor_id', 'entry_date'], indexes: byStoreMonth },
  front_end_team_advisor_totals: { key: ['store_id', 'advisor_id', 'entry_date'], indexes: byStoreMonth },
  front_end_team_advisor_op_codes: { key: ['store_id', 'advisor_id', 'entry_date'], indexes: byStoreMonth },
  front_end_team_advisor_surveys: { key: ['store_id', 'advisor_id', 'entry_date'], indexes: byStoreMonth },
  front_end_team_totals: { key: ['store_id', 'entry_date'], indexes: byStoreMonth },
  front_end_team_op_codes: { key: ['store_id', 'entry_date'], indexes: byStoreMonth },
  front_end_team_surveys: { key: ['store_id', 'entry_date'], indexes: byStoreMonth },
  front_end_team_targets: { key: ['store_id', 'year', 'month'], indexes: [] },
  advisor_survey_data: { key: ['store_id', 'advisor_id', 'year', 'month'], indexes: byStoreMonth },
  store_calendar_days: { key: ['store_id', 'calendar_date'], indexes: [['store_id', 'year']] },
  monthly_operational_inputs: { key: ['store_id', 'year', 'month'], indexes: [] },
  month_closures: { key: ['store_id', 'month_start'], indexes: [] },
} as const satisfies { [T in SyncedTable]: TableSpec<T> };

/** A table's spec where the code handles every table alike. */
export type AnyTableSpec = { key: readonly string[]; indexes: readonly (readonly string[])[] };

/** The columns of a synced table's natural key. */
export type KeyColumn<T extends SyncedTable> = (typeof syncedTables)[T]['key'][number];

/**
 * The device's copy of a row: its key always, the other columns as far as this device has
 * them (a pulled row has every column; a row created here holds what was typed until the
 * server's answer brings the rest).
 */
export type LocalRow<T extends SyncedTable> = Pick<ServerRow<T>, KeyColumn<T> & keyof ServerRow<T>> & Partial<ServerRow<T>>;

/** The fields of a synced table's row that an edit may set: any column, each optional. */
export type RowFields<T extends SyncedTable> = Partial<ServerRow<T>>;

export const syncedTableNames = Object.keys(syncedTables) as SyncedTable[];

export function isSyncedTable(name: string): name is SyncedTable {
  return Object.hasOwn(syncedTables, name);
}

/** The key values of a row, in key order; throws when one is missing (a malformed row). */
export function keyOf(table: SyncedTable, row: Row): unknown[] {
  const spec: AnyTableSpec = syncedTables[table];
  return spec.key.map((column) => {
    const value = row[column];
    if (value === undefined || value === null || value === '') {
      throw new Error(`${table} row has no ${column}`);
    }
    return value;
  });
}

/** A stable text form of a key, for the outbox index. */
export function keyText(key: readonly unknown[]): string {
  return JSON.stringify(key);
}
