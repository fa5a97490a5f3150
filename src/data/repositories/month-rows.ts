/**
 * Everything the month's screens read for one store and month, in one live query: the
 * daily values of the grid's dates, the month's week parts, its targets, the store's
 * settings and calendar, the monthly table's inputs and the month-end counts. One query
 * means one re-run per change instead of one per table.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useSyncExternalStore } from 'react';
import type { IsoDate } from '../../domain/calendar.ts';
import { gridRange } from '../../domain/month-grid.ts';
import type { MonthKey } from '../../domain/month.ts';
import type { LaborEntry, LaborType } from '../../domain/monthly-table.ts';
import { shiftMonth, yearAndMonth } from '../../domain/month.ts';
import type { EnteredDays, MonthDays, WorkPattern } from '../../domain/work-days.ts';
import { monthBounds, monthDays, monthWeekParts, workPattern } from '../../domain/work-days.ts';
import type { AppDatabase } from '../app-database.ts';
import type { Device } from '../device-context.tsx';
import { useDevice } from '../device-context.tsx';
import type { LocalRow, RowFields } from '../synced-tables.ts';
import { numberOrNull } from '../values.ts';
import { liveMonthsOf } from './live-months.ts';

export type MonthRows = {
  month: MonthKey;
  daily: LocalRow<'daily_inputs'>[];
  /** What was entered for each week part of the month, by the part's first day. */
  weeks: Map<IsoDate, EnteredDays>;
  targets: Record<string, number | null>;
  /** The settings the month uses: the store's, or a closed month's kept ones laid over them. */
  settings: RowFields<'store_settings'> | null;
  pattern: WorkPattern;
  laborGross: LocalRow<'monthly_labor_gross_inputs'>[];
  operational: LocalRow<'monthly_operational_inputs'> | null;
};

/** The store's work pattern with its calendar exceptions between two dates. */
export async function readWorkPattern(device: Pick<Device, 'db'>, storeId: string, from: IsoDate, to: IsoDate, settings?: RowFields<'store_settings'> | null): Promise<WorkPattern> {
  const stored = settings === undefined ? await device.db.mirror('store_settings').get([storeId]) : settings;
  const days = await device.db.mirror('store_calendar_days').where('[store_id+calendar_date]').between([storeId, from], [storeId, to], true, true).toArray();
  const exceptions = new Map<IsoDate, boolean>();
  for (const day of days) if (typeof day.is_work_day === 'boolean') exceptions.set(day.calendar_date, day.is_work_day);
  return workPattern(stored?.work_week, exceptions);
}

/** The dates of these daily rows that hold a figure: a work day counts as complete once it has one. */
export function daysWithFigures(daily: readonly Pick<LocalRow<'daily_inputs'>, 'entry_date' | 'value'>[]): Set<IsoDate> {
  return new Set(daily.filter((row) => numberOrNull(row.value) !== null).map((row) => String(row.entry_date)));
}

/** The dates of a store's daily figures between two dates. */
async function readFigureDays(device: Pick<Device, 'db'>, storeId: string, from: IsoDate, to: IsoDate): Promise<Set<IsoDate>> {
  return daysWithFigures(await device.db.keyRange('daily_inputs', [storeId, from], [storeId, to]).toArray());
}

/** What was entered for each week part of the month, and the work pattern that fills the gaps. */
export async function readMonthDayRows(device: Pick<Device, 'db'>, storeId: string, month: MonthKey, settings?: RowFields<'store_settings'> | null) {
  const bounds = monthBounds(month);
  const parts = monthWeekParts(month);
  const [weekRows, pattern] = await Promise.all([
    device.db.mirror('weekly_store_performance').bulkGet(parts.map((part) => [storeId, part.start])),
    readWorkPattern(device, storeId, bounds.first, bounds.last, settings),
  ]);
  const weeks = new Map<IsoDate, EnteredDays>();
  for (const row of weekRows) {
    if (row) weeks.set(row.week_start_date, { daysComplete: numberOrNull(row.days_complete), workDays: numberOrNull(row.work_days) });
  }
  return { weeks, pattern };
}

/**
 * A month's days for the screens that do not read its daily rows: its weeks and pattern,
 * and the dates with figures (a work day counts as complete once it has one).
 */
export async function readMonthDays(device: Pick<Device, 'db'>, storeId: string, month: MonthKey) {
  const bounds = monthBounds(month);
  const [{ weeks, pattern }, figureDays] = await Promise.all([
    readMonthDayRows(device, storeId, month),
    readFigureDays(device, storeId, bounds.first, bounds.last),
  ]);
  return { weeks, pattern, figureDays };
}

export function useMonthDayRows(storeId: string | null, month: MonthKey) {
  const device = useDevice();
  return useLiveQuery(async () => (storeId ? readMonthDays(device, storeId, month) : null), [device, storeId, month]);
}

export async function readMonthRows(device: Pick<Device, 'db'>, storeId: string, month: MonthKey): Promise<MonthRows> {
  const { db } = device;
  const { from, to } = gridRange(month);
  const { year, month: monthNumber } = yearAndMonth(month);
  const bounds = monthBounds(month);
  const [daily, targetRows, settings, laborGross, operational] = await Promise.all([
    db.keyRange('daily_inputs', [storeId, from], [storeId, to]).toArray(),
    db.keyRange('monthly_targets', [storeId, year, monthNumber]).toArray(),
    db.mirror('store_settings').get([storeId]),
    db.keyRange('monthly_labor_gross_inputs', [storeId, bounds.first]).toArray(),
    db.mirror('monthly_operational_inputs').get([storeId, year, monthNumber]),
  ]);
  const { weeks, pattern } = await readMonthDayRows(device, storeId, month, settings ?? null);
  return {
    month,
    daily,
    weeks,
    targets: Object.fromEntries(targetRows.map((row) => [row.metric_key, numberOrNull(row.target_value)])),
    settings: settings ?? null,
    pattern,
    laborGross,
    operational: operational ?? null,
  };
}

/** The live month rows of a device database (the screens' hook reads these). */
export const monthRowsOf = (db: AppDatabase) => liveMonthsOf(db, 'month-rows', (storeId, month) => readMonthRows({ db }, storeId, month));

/** A daily value as the grid's rows hold it. */
export type DailyCell = { date: IsoDate; row: string; metric: string; value: number | null };

/**
 * Shows daily values being saved in the months on screen at once, before the device
 * database has stored them, so a keystroke's figures change in the same frame; the
 * stored rows replace them when the database answers. Returns a function that takes
 * them back, for a save that failed.
 */
export function showDailyValuesBeingSaved(db: AppDatabase, storeId: string, cells: readonly DailyCell[]): () => void {
  return monthRowsOf(db).patch(storeId, (month, rows) => {
    const { from, to } = gridRange(month);
    const shown = cells.filter((cell) => cell.date >= from && cell.date <= to);
    if (shown.length === 0) return null;
    const daily = [...rows.daily];
    for (const cell of shown) {
      const index = daily.findIndex((row) => row.entry_date === cell.date && row.row_identifier === cell.row && row.metric_type === cell.metric);
      const existing = index >= 0 ? daily[index] : undefined;
      const row: LocalRow<'daily_inputs'> = existing
        ? { ...existing, value: cell.value }
        : { store_id: storeId, entry_date: cell.date, row_identifier: cell.row, metric_type: cell.metric, value: cell.value };
      if (index >= 0) daily[index] = row;
      else daily.push(row);
    }
    return { ...rows, daily };
  });
}

/**
 * The month's rows, kept current as they change; undefined while the device database
 * answers. The months before and after it are kept read too, for a month switch.
 */
export function useMonthRows(storeId: string | null, month: MonthKey): MonthRows | null | undefined {
  const { db } = useDevice();
  const live = monthRowsOf(db);
  if (storeId) live.prefetch(storeId, month);
  useEffect(() => (storeId ? live.watch(storeId, month) : undefined), [live, storeId, month]);
  const rows = useSyncExternalStore(live.subscribe, () => (storeId ? live.get(storeId, month) : null));
  // The months beside it once it is read (they would only slow its first answer), one at
  // a time when the page is idle: reading a month is tens of milliseconds of main thread
  // on a slow tablet, which opening a screen should not wait behind.
  const read = rows !== undefined;
  useEffect(() => {
    if (!storeId || !read) return;
    const releases: Array<() => void> = [];
    const stops = [shiftMonth(month, -1), shiftMonth(month, 1)].map((key, index) =>
      whenIdle(() => releases.push(live.watch(storeId, key)), index),
    );
    return () => {
      stops.forEach((stop) => stop());
      releases.forEach((release) => release());
    };
  }, [live, storeId, month, read]);
  return rows;
}

/**
 * The latest the months beside the one on screen are read, in milliseconds after it was:
 * before a month the screen let go of is dropped (live-months.ts keeps one for two
 * seconds), so a switch back and forth keeps both.
 */
const besideAtLatestMs = 1_000;

/**
 * Runs `work` once the page is idle, after `skip` idle periods (one piece of work per
 * idle period, for several); at the latest `besideAtLatestMs` from now. Returns a cancel.
 */
function whenIdle(work: () => void, skip = 0): () => void {
  const deadline = performance.now() + besideAtLatestMs;
  let handle: { cancel(): void };
  const wait = (left: number) => {
    const next = () => (left > 0 ? wait(left - 1) : work());
    // (An idle callback's timeout of 0 would mean none.)
    const remaining = Math.max(1, deadline - performance.now());
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(next, { timeout: remaining });
      handle = { cancel: () => cancelIdleCallback(id) };
    } else {
      const id = setTimeout(next, Math.min(remaining, 50));
      handle = { cancel: () => clearTimeout(id) };
    }
  };
  wait(skip);
  return () => handle.cancel();
}

/**
 * The year's dates with figures from today on: every earlier work day counts as complete
 * anyway, so a year's screen reads a few rows rather than the year's.
 */
export async function readYearFigureDaysFrom(device: Pick<Device, 'db'>, storeId: string, year: number, today: IsoDate): Promise<Set<IsoDate>> {
  const first = `${year}-01-01`;
  const last = `${year}-12-31`;
  if (today > last) return new Set();
  return readFigureDays(device, storeId, today > first ? today : first, last);
}

/** Each month's days complete and work days of a year (1 to 12), as the month screens count them. */
export async function readYearDays(device: Pick<Device, 'db'>, storeId: string, year: number, today: IsoDate): Promise<Map<number, MonthDays>> {
  const [weekRows, pattern, figureDays] = await Promise.all([
    device.db.mirror('weekly_store_performance').where('[store_id+year]').equals([storeId, year]).toArray(),
    readWorkPattern(device, storeId, `${year}-01-01`, `${year}-12-31`),
    readYearFigureDaysFrom(device, storeId, year, today),
  ]);
  const entries = new Map<IsoDate, EnteredDays>();
  for (const row of weekRows) entries.set(row.week_start_date, { daysComplete: numberOrNull(row.days_complete), workDays: numberOrNull(row.work_days) });
  const months = new Map<number, MonthDays>();
  for (let month = 1; month <= 12; month += 1) months.set(month, monthDays(`${year}-${String(month).padStart(2, '0')}`, entries, pattern, today, figureDays));
  return months;
}

export function useYearDays(storeId: string | null, year: number, today: IsoDate): Map<number, MonthDays> | null | undefined {
  const device = useDevice();
  return useLiveQuery(async () => (storeId ? readYearDays(device, storeId, year, today) : null), [device, storeId, year, today]);
}

/** The monthly table's entries by labour type, from its stored rows. */
export function laborEntriesOf(rows: readonly LocalRow<'monthly_labor_gross_inputs'>[]): Map<LaborType, LaborEntry> {
  return new Map(
    rows.map((row) => [row.labor_type as LaborType, { gross: numberOrNull(row.gross_value), subletSales: numberOrNull(row.direct_sales_value), repairOrders: numberOrNull(row.return_on_sales) }]),
  );
}
