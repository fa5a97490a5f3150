/**
 * The server tables the device mirrors, each with its natural key: the columns the
 * server's unique constraint and the push's upsert conflict target name. The local copy
 * of a row is keyed by the same columns, so a row created on two devices offline is one
 * row everywhere, whatever id either device would have given it.
 */

export type Row = Record<string, unknown>;

export type TableSpec = {
  /** Natural key, in order: Dexie's compound primary key and the upsert conflict target. */
  key: readonly string[];
  /**
   * Extra Dexie indexes the screens query by. A query on a prefix of the key (daily
   * inputs by store and date) needs none: Dexie reads it from the key.
   */
  indexes: readonly string[];
};

const byStoreMonth = ['[store_id+year+month]'];

export const syncedTables = {
  stores: { key: ['id'], indexes: [] },
  store_settings: { key: ['store_id'], indexes: [] },
  daily_inputs: { key: ['store_id', 'entry_date', 'row_identifier', 'metric_type'], indexes: [] },
  weekly_store_performance: { key: ['store_id', 'week_start_date'], indexes: ['[store_id+year]'] },
  monthly_targets: { key: ['store_id', 'year', 'month', 'metric_key'], indexes: [] },
  monthly_labor_gross_inputs: { key: ['store_id', 'month_year', 'labor_type'], indexes: [] },
  yearly_financial_inputs: { key: ['store_id', 'year', 'month'], indexes: [] },
  user_dashboard_preferences: { key: ['user_id', 'store_id'], indexes: [] },
  front_end_team_advisors: { key: ['id'], indexes: ['store_id'] },
  front_end_team_daily_performance: { key: ['store_id', 'advisor_id', 'entry_date'], indexes: byStoreMonth },
  front_end_team_advisor_totals: { key: ['store_id', 'advisor_id', 'entry_date'], indexes: byStoreMonth },
  front_end_team_advisor_op_codes: { key: ['store_id', 'advisor_id', 'entry_date'], indexes: byStoreMonth },
  front_end_team_advisor_surveys: { key: ['store_id', 'advisor_id', 'entry_date'], indexes: byStoreMonth },
  front_end_team_totals: { key: ['store_id', 'entry_date'], indexes: byStoreMonth },
  front_end_team_op_codes: { key: ['store_id', 'entry_date'], indexes: byStoreMonth },
  front_end_team_surveys: { key: ['store_id', 'entry_date'], indexes: byStoreMonth },
  front_end_team_targets: { key: ['store_id', 'year', 'month'], indexes: [] },
  advisor_survey_data: { key: ['store_id', 'advisor_id', 'year', 'month'], indexes: byStoreMonth },
  store_calendar_days: { key: ['store_id', 'calendar_date'], indexes: ['[store_id+year]'] },
  monthly_operational_inputs: { key: ['store_id', 'year', 'month'], indexes: [] },
  month_closures: { key: ['store_id', 'month_start'], indexes: [] },
} as const satisfies Record<string, TableSpec>;

export type SyncedTable = keyof typeof syncedTables;

export const syncedTableNames = Object.keys(syncedTables) as SyncedTable[];

export function isSyncedTable(name: string): name is SyncedTable {
  return Object.hasOwn(syncedTables, name);
}

/** The key values of a row, in key order; throws when one is missing (a malformed row). */
export function keyOf(table: SyncedTable, row: Row): unknown[] {
  return syncedTables[table].key.map((column) => {
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
