/**
 * Everything the month's screens show, from the device database: the grid's stored values
 * by day, each week's part inside the month with its days complete and work days (entered,
 * or from the store's work pattern), the month's totals of its own days, and its figures.
 */
import { useMemo } from 'react';
import type { LabourRow, Metric } from './repositories/daily-inputs.ts';
import type { MonthRows } from './repositories/month-rows.ts';
import { daysWithFigures, laborEntriesOf, useMonthDayRows, useMonthRows } from './repositories/month-rows.ts';
import { asClosedMonth, useClosedMonth } from './repositories/month-closures.ts';
import type { MonthlyTable } from '../domain/monthly-table.ts';
import { monthlyTable } from '../domain/monthly-table.ts';
import { numberOrNull } from './values.ts';
import type { IsoDate } from '../domain/calendar.ts';
import type { Category, Totals } from '../domain/kpi-math.ts';
import type { Mix, MonthFigures } from '../domain/month-figures.ts';
import { defaultMixTarget, monthFigures, totalElrTarget } from '../domain/month-figures.ts';
import { effectiveTargets } from '../domain/kpi-math.ts';
import type { PaceLine } from '../domain/pace.ts';
import { monthPaces } from '../domain/pace.ts';
import type { GridWeek } from '../domain/month-grid.ts';
import { monthGrid } from '../domain/month-grid.ts';
import type { MonthKey } from '../domain/month.ts';
import type { MonthDays, PartDays } from '../domain/work-days.ts';
import { monthDays, withClosedMonths, workPattern } from '../domain/work-days.ts';

export type CellKey = `${IsoDate}|${LabourRow}|${Metric}`;
export const cellKey = (date: IsoDate, row: LabourRow, metric: Metric): CellKey => `${date}|${row}|${metric}`;

/** A grid week's part inside the month: its days, and the hours and sales of those days. */
export type WeekFigures = PartDays & { totals: Totals };

export type DailyMonth = {
  month: MonthKey;
  grid: readonly GridWeek[];
  values: Map<CellKey, number | null>;
  /** By grid week start. */
  weeks: Map<IsoDate, WeekFigures>;
  days: MonthDays;
  totals: Totals;
  figures: MonthFigures;
  /** What each remaining work day needs to reach the month's targets. */
  paces: PaceLine[];
  rows: MonthRows;
};

export const emptyTotals = (): Totals => ({ CP: { hours: 0, sales: 0 }, W: { hours: 0, sales: 0 }, I: { hours: 0, sales: 0 } });

const categories: Category[] = ['CP', 'W', 'I'];

/** The device's date, as the work pattern counts days complete: the days before it, and those with figures. */
export const todayIso = (now = new Date()): IsoDate =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

/** The store's Work Mix target, or the default while it has none. */
export function mixTargetOf(settings: MonthRows['settings']): Mix {
  const cp = numberOrNull(settings?.mix_target_cp);
  const w = numberOrNull(settings?.mix_target_w);
  const i = numberOrNull(settings?.mix_target_i);
  return cp === null || w === null || i === null ? defaultMixTarget : { CP: cp, W: w, I: i };
}

/** The month's view from its rows; pure, so every screen computes it the same way. */
export function dailyMonthOf(rows: MonthRows, today: IsoDate): DailyMonth {
  const grid = monthGrid(rows.month);
  const values = new Map<CellKey, number | null>();
  for (const row of rows.daily) {
    values.set(cellKey(String(row.entry_date), row.row_identifier as LabourRow, row.metric_type as Metric), numberOrNull(row.value));
  }
  const days = monthDays(rows.month, rows.weeks, rows.pattern, today, daysWithFigures(rows.daily));
  const totals = emptyTotals();
  const weeks = new Map<IsoDate, WeekFigures>();
  for (const [index, week] of grid.entries()) {
    const weekTotals = emptyTotals();
    for (const day of week.days) {
      if (!day.inMonth) continue;
      for (const category of categories) {
        for (const metric of ['hours', 'sales'] as const) {
          const value = values.get(cellKey(day.date, category, metric)) ?? null;
          if (value === null) continue;
          weekTotals[category][metric] += value;
          totals[category][metric] += value;
        }
      }
    }
    const part = days.parts[index];
    if (part) weeks.set(week.start, { ...part, totals: weekTotals });
  }
  const cpRos = rows.laborGross.find((row) => row.labor_type === 'customerPay');
  const figures = monthFigures({
    totals,
    daysComplete: days.daysComplete,
    workDays: days.workDays,
    patternWorkDays: days.pattern.workDays,
    targets: rows.targets,
    cpRepairOrders: numberOrNull(cpRos?.return_on_sales),
    operational: {
      rosOver30Days: numberOrNull(rows.operational?.ros_over_30_days),
      dueBillsOver30Days: numberOrNull(rows.operational?.due_bills_over_30_days),
      shopSupplies: numberOrNull(rows.operational?.shop_supplies),
      asOf: typeof rows.operational?.as_of_date === 'string' ? rows.operational.as_of_date : null,
    },
    mixTarget: mixTargetOf(rows.settings),
  });
  const targets = effectiveTargets(rows.targets);
  const paces = monthPaces({
    totals,
    daysComplete: days.daysComplete,
    workDays: days.workDays,
    targets: { ...targets, totalElr: totalElrTarget({ totals, targets: rows.targets }).value },
  });
  return { month: rows.month, grid, values, weeks, days, totals, figures, paces, rows };
}

/**
 * The month's days complete and work days alone, for screens that do not show the grid.
 * A closed month's come from the work week it was closed with (docs/figures.md).
 */
export function useMonthDays(storeId: string | null, month: MonthKey): MonthDays | undefined {
  const rows = useMonthDayRows(storeId, month);
  const closure = useClosedMonth(storeId, month);
  return useMemo(() => {
    if (rows === undefined) return undefined;
    const pattern = withClosedMonths(rows?.pattern ?? workPattern(null), new Map([[month, closure?.work_week]]));
    return monthDays(month, rows?.weeks ?? new Map(), pattern, todayIso(), rows?.figureDays);
  }, [rows, closure, month]);
}

/**
 * Undefined while the device database is still answering; null without a store. A closed
 * month is computed with the settings it was closed with; while its closure is still
 * being read (a single key lookup) the month is shown as open rather than held back,
 * which differs only when its settings changed after closing.
 */
export function useDailyMonth(storeId: string | null, month: MonthKey): DailyMonth | undefined {
  const rows = useMonthRows(storeId, month);
  const closure = useClosedMonth(storeId, month);
  // The same rows object while the month is open, so each month's computed view is reused.
  const asComputed = useMemo(() => (rows ? asClosedMonth(rows, closure) : rows), [rows, closure]);
  return useMemo(
    () => (asComputed === undefined ? undefined : asComputed === null ? dailyMonthOf(emptyRows(month), todayIso()) : computedMonth(asComputed, todayIso())),
    [asComputed, month],
  );
}

/** Each month's view, computed once per version of its rows (and day): switching back to a month reuses it. */
const computed = new WeakMap<MonthRows, { today: IsoDate; month: DailyMonth }>();

function computedMonth(rows: MonthRows, today: IsoDate): DailyMonth {
  const kept = computed.get(rows);
  if (kept?.today === today) return kept.month;
  const month = dailyMonthOf(rows, today);
  computed.set(rows, { today, month });
  return month;
}

function emptyRows(month: MonthKey): MonthRows {
  return { month, daily: [], weeks: new Map(), targets: {}, settings: null, pattern: workPattern(null), laborGross: [], operational: null };
}

/** The month's Monthly Performance table, as the Monthly page, Today and the print pack show it. */
export function monthlyTableOf(month: DailyMonth): MonthlyTable {
  return monthlyTable(month.totals, laborEntriesOf(month.rows.laborGross), month.days, effectiveTargets(month.rows.targets).salesPerDay);
}
