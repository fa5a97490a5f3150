/**
 * Whether a store's month is closed, and closing or reopening it (the server stamps who
 * and when). A closed month is computed with the work week and Work Mix target it was
 * closed with, which the server keeps on the closure: the store may change them for the
 * months to come without changing a closed month's figures.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { IsoDate } from '../../domain/calendar.ts';
import type { MonthKey } from '../../domain/month.ts';
import type { EnteredDays, MonthDays } from '../../domain/work-days.ts';
import { isWorkWeek, monthDays, withClosedMonths } from '../../domain/work-days.ts';
import type { Device } from '../device-context.tsx';
import { useDevice, writeContext } from '../device-context.tsx';
import { saveRows } from '../local-writes.ts';
import type { LocalRow } from '../synced-tables.ts';

type Closure = LocalRow<'month_closures'>;
import { numberOrNull } from '../values.ts';
import type { MonthRows } from './month-rows.ts';
import { readWorkPattern, readYearFigureDaysFrom } from './month-rows.ts';

export type MonthClosure = { closed: boolean; closedBy: string | null; closedAt: string | null };

/** `month` is 'YYYY-MM'; null while the store has never closed it. */
export function useMonthClosure(storeId: string | null, month: string): MonthClosure | null | undefined {
  const device = useDevice();
  return useLiveQuery(async () => {
    if (!storeId) return null;
    const row = await device.db.mirror('month_closures').get([storeId, `${month}-01`]);
    if (!row || row.deleted_at) return null;
    return {
      closed: row.closed === true,
      closedBy: typeof row.closed_by_name === 'string' ? row.closed_by_name : null,
      closedAt: typeof row.closed_at === 'string' ? row.closed_at : null,
    };
  }, [device, storeId, month]);
}

/** Closes or reopens a month on the device; the server refuses a reopening by anyone but an admin. */
export function setMonthClosed(device: Device, storeId: string, month: string, closed: boolean) {
  return saveRows(
    device.db,
    [{ table: 'month_closures', row: { store_id: storeId, month_start: `${month}-01`, year: Number(month.slice(0, 4)), closed } }],
    writeContext(device),
  );
}

/**
 * A closure that keeps the settings its month was first closed with; it keeps them when
 * an admin reopens the month (docs/figures.md). A month closed on this device and not yet
 * confirmed by the server has none yet: it is computed with the store's settings of now,
 * which are what the server will keep.
 */
const keepsSettings = (row: Closure | null | undefined): row is Closure & { work_week: string } => !!row && !row.deleted_at && isWorkWeek(row.work_week);

/** The month's closure when it keeps the settings it was closed with; null otherwise. */
export async function readClosedMonth(device: Pick<Device, 'db'>, storeId: string, month: MonthKey): Promise<Closure | null> {
  const row = await device.db.mirror('month_closures').get([storeId, `${month}-01`]);
  return keepsSettings(row) ? row : null;
}

/** Undefined while the device database is answering. */
export function useClosedMonth(storeId: string | null, month: MonthKey): Closure | null | undefined {
  const device = useDevice();
  return useLiveQuery(async () => (storeId ? readClosedMonth(device, storeId, month) : null), [device, storeId, month]);
}

/** The month's rows as its figures are computed: a closed month with the work week and Work Mix target it was closed with. */
export function asClosedMonth(rows: MonthRows, closure: Closure | null | undefined): MonthRows {
  if (!keepsSettings(closure)) return rows;
  const mix = [closure.mix_target_cp, closure.mix_target_w, closure.mix_target_i].map(numberOrNull);
  return {
    ...rows,
    pattern: withClosedMonths(rows.pattern, new Map([[rows.month, closure.work_week]])),
    settings: mix.includes(null) ? rows.settings : { ...rows.settings, mix_target_cp: mix[0], mix_target_w: mix[1], mix_target_i: mix[2] },
  };
}

/** Each month's days complete and work days of a year (1 to 12), a closed month's with the work week it was closed with. */
export async function readYearDaysAsClosed(device: Pick<Device, 'db'>, storeId: string, year: number, today: IsoDate): Promise<Map<number, MonthDays>> {
  const [weekRows, pattern, closures, figureDays] = await Promise.all([
    device.db.mirror('weekly_store_performance').where('[store_id+year]').equals([storeId, year]).toArray(),
    readWorkPattern(device, storeId, `${year}-01-01`, `${year}-12-31`),
    device.db.keyRange('month_closures', [storeId, `${year}-01-01`], [storeId, `${year}-12-01`]).toArray(),
    readYearFigureDaysFrom(device, storeId, year, today),
  ]);
  const entries = new Map<IsoDate, EnteredDays>();
  for (const row of weekRows) entries.set(String(row.week_start_date), { daysComplete: numberOrNull(row.days_complete), workDays: numberOrNull(row.work_days) });
  const closedPattern = withClosedMonths(pattern, new Map(closures.filter(keepsSettings).map((row) => [String(row.month_start).slice(0, 7), row.work_week])));
  const months = new Map<number, MonthDays>();
  for (let month = 1; month <= 12; month += 1) months.set(month, monthDays(`${year}-${String(month).padStart(2, '0')}`, entries, closedPattern, today, figureDays));
  return months;
}

export function useYearDaysAsClosed(storeId: string | null, year: number, today: IsoDate): Map<number, MonthDays> | null | undefined {
  const device = useDevice();
  return useLiveQuery(async () => (storeId ? readYearDaysAsClosed(device, storeId, year, today) : null), [device, storeId, year, today]);
}
