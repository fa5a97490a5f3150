/**
 * The front-end team tracker's records: advisors' days worked and pay, the advisor and
 * team totals, op codes and surveys per day, monthly targets and survey figures.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { Device } from '../device-context.tsx';
import { useDevice, writeContext } from '../device-context.tsx';
import { saveRows } from '../local-writes.ts';
import type { Row } from '../synced-tables.ts';

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
    const mirror = device.db.anyMirror(table);
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

export type AdvisorMonthTable = 'front_end_team_daily_performance' | 'front_end_team_advisor_totals' | 'front_end_team_advisor_op_codes';

/**
 * Sets one of an advisor's month figures (days worked, a total, an op code count). The
 * tracker keeps them on the month's first day; should the month hold other dated rows for
 * the advisor, the first day takes the difference, so the month adds up to what was typed.
 */
export async function saveAdvisorMonthFigure(
  device: Device,
  table: AdvisorMonthTable,
  target: { storeId: string; advisorId: string; year: number; month: number },
  field: string,
  value: number | null,
) {
  const { storeId, advisorId, year, month } = target;
  const firstDay = `${year}-${String(month).padStart(2, '0')}-01`;
  const monthRows = await device.db.anyMirror(table).where('[store_id+year+month]').equals([storeId, year, month]).toArray();
  const otherDays = monthRows
    .filter((row) => row.advisor_id === advisorId && row.entry_date !== firstDay)
    .reduce((sum, row) => sum + (Number(row[field] ?? 0) || 0), 0);
  const stored = value === null || otherDays === 0 ? value : value - otherDays;
  return saveTeamRows(device, table, [{ store_id: storeId, advisor_id: advisorId, entry_date: firstDay, year, month, [field]: stored }]);
}
