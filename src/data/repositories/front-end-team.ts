/**
 * The front-end team tracker's records: advisors' days worked and pay, the advisor and
 * team totals, op codes and surveys per day, monthly targets and survey figures.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { Device } from '../device-context.tsx';
import { useDevice, writeContext } from '../device-context.tsx';
import { saveRows } from '../local-writes.ts';
import type { Row, SyncedTable } from '../synced-tables.ts';

export type TeamDailyTable =
  | 'front_end_team_daily_performance'
  | 'front_end_team_advisor_totals'
  | 'front_end_team_advisor_op_codes'
  | 'front_end_team_advisor_surveys'
  | 'front_end_team_totals'
  | 'front_end_team_op_codes'
  | 'front_end_team_surveys';

export type TeamMonthTable = 'front_end_team_targets' | 'advisor_survey_data';

/** A month's rows of a team table, ordered by entry date where it has one. */
export function useTeamMonth(table: TeamDailyTable | TeamMonthTable, storeId: string | null, year: number, month: number): Row[] | undefined {
  const device = useDevice();
  return useLiveQuery(async () => {
    if (!storeId) return [];
    const mirror = device.db.mirror(table as SyncedTable);
    if (table === 'front_end_team_targets') {
      const row = await mirror.get([storeId, year, month]);
      return row ? [row] : [];
    }
    const rows = await mirror.where('[store_id+year+month]').equals([storeId, year, month]).toArray();
    return rows.sort((a, b) => String(a.entry_date ?? '').localeCompare(String(b.entry_date ?? '')));
  }, [device, table, storeId, year, month]);
}

/** Saves rows of a team table; each row carries its natural key (store, advisor, date or month). */
export function saveTeamRows(device: Device, table: TeamDailyTable | TeamMonthTable, rows: Row[]) {
  return saveRows(device.db, rows.map((row) => ({ table, row })), writeContext(device));
}
