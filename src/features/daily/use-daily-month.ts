/**
 * Everything the daily screens show for a month, from the device database: the grid's
 * stored values by day, the weeks' days complete and work days, the month's targets, and
 * the KPI figures computed from them (only days inside the month count).
 */
import { useDailyInputs } from '../../data/repositories/daily-inputs.ts';
import type { LabourRow, Metric } from '../../data/repositories/daily-inputs.ts';
import { useMonthlyTargets, useWeeks } from '../../data/repositories/store-month.ts';
import type { Row } from '../../data/synced-tables.ts';
import type { IsoDate } from '../../domain/calendar.ts';
import type { Totals } from '../../domain/kpi-math.ts';
import { cpHoursPerRo, effectiveTargets, elr, monthComplete, perDay, totalHours, totalSales } from '../../domain/kpi-math.ts';
import type { GridWeek } from '../../domain/month-grid.ts';
import { gridRange, monthGrid } from '../../domain/month-grid.ts';
import type { MonthKey } from '../../domain/month.ts';
import { yearAndMonth } from '../../domain/month.ts';

export type CellKey = `${IsoDate}|${LabourRow}|${Metric}`;
export const cellKey = (date: IsoDate, row: LabourRow, metric: Metric): CellKey => `${date}|${row}|${metric}`;

export type WeekFigures = { daysComplete: number | null; workDays: number | null; totals: Totals };

export type DailyMonth = {
  grid: GridWeek[];
  values: Map<CellKey, number | null>;
  weeks: Map<IsoDate, WeekFigures>;
  kpis: ReturnType<typeof monthKpis>;
};

const emptyTotals = (): Totals => ({ CP: { hours: 0, sales: 0 }, W: { hours: 0, sales: 0 }, I: { hours: 0, sales: 0 } });

function add(totals: Totals, row: LabourRow, metric: Metric, value: number | null) {
  if (value === null || !Number.isFinite(value)) return;
  totals[row][metric === 'hours' ? 'hours' : 'sales'] += value;
}

export function monthKpis(totals: Totals, daysComplete: number, workDays: number, storedTargets: Record<string, number | null>) {
  const targets = effectiveTargets(storedTargets);
  const hours = totalHours(totals);
  const sales = totalSales(totals);
  return {
    daysComplete,
    workDays,
    monthComplete: monthComplete(daysComplete, workDays),
    hoursPerDay: { actual: perDay(hours, daysComplete), target: targets.hoursPerDay },
    salesPerDay: { actual: perDay(sales, daysComplete), target: targets.salesPerDay },
    cpElr: { actual: elr(totals.CP.sales, totals.CP.hours), target: targets.cpElr },
    warrantyElr: { actual: elr(totals.W.sales, totals.W.hours), target: targets.warrantyElr },
    internalElr: { actual: elr(totals.I.sales, totals.I.hours), target: targets.internalElr },
    totalElr: { actual: elr(sales, hours), target: targets.totalElr },
    cpHoursPerRo: { actual: cpHoursPerRo(totals.CP.hours, daysComplete), target: targets.cpHoursPerRo },
    totals,
  };
}

const storedCount = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** Each grid week's stored days complete and work days (null when not entered). */
function weekDays(grid: GridWeek[], weekRows: Row[]) {
  return grid.map((week) => {
    const stored = weekRows.find((w) => w.week_start_date === week.start);
    return { start: week.start, daysComplete: storedCount(stored?.days_complete), workDays: storedCount(stored?.work_days) };
  });
}

/** The month's days complete and work days: the sums over the weeks of its grid. */
export function useMonthDays(storeId: string | null, month: MonthKey): { daysComplete: number; workDays: number } | undefined {
  const grid = monthGrid(month);
  const weekRows = useWeeks(storeId, grid.map((week) => week.start));
  if (!weekRows) return undefined;
  const weeks = weekDays(grid, weekRows);
  return { daysComplete: weeks.reduce((sum, w) => sum + (w.daysComplete ?? 0), 0), workDays: weeks.reduce((sum, w) => sum + (w.workDays ?? 0), 0) };
}

/** Undefined while the device database is still answering. */
export function useDailyMonth(storeId: string | null, month: MonthKey): DailyMonth | undefined {
  const grid = monthGrid(month);
  const { from, to } = gridRange(month);
  const { year, month: monthNumber } = yearAndMonth(month);
  const rows = useDailyInputs(storeId, from, to);
  const weekRows = useWeeks(storeId, grid.map((week) => week.start));
  const targets = useMonthlyTargets(storeId, year, monthNumber);
  if (!rows || !weekRows || !targets) return undefined;

  const values = new Map<CellKey, number | null>();
  for (const row of rows) {
    values.set(cellKey(String(row.entry_date), row.row_identifier as LabourRow, row.metric_type as Metric), row.value === null ? null : Number(row.value));
  }
  const inMonth = new Set(grid.flatMap((week) => week.days.filter((d) => d.inMonth).map((d) => d.date)));
  const monthTotals = emptyTotals();
  const weeks = new Map<IsoDate, WeekFigures>();
  let daysComplete = 0;
  let workDays = 0;
  const days = weekDays(grid, weekRows);
  for (const [index, week] of grid.entries()) {
    const totals = emptyTotals();
    for (const day of week.days) {
      if (!day.inMonth) continue;
      for (const row of ['CP', 'W', 'I'] as const) {
        for (const metric of ['hours', 'sales'] as const) {
          const value = values.get(cellKey(day.date, row, metric)) ?? null;
          add(totals, row, metric, value);
          if (inMonth.has(day.date)) add(monthTotals, row, metric, value);
        }
      }
    }
    const figures: WeekFigures = { daysComplete: days[index]?.daysComplete ?? null, workDays: days[index]?.workDays ?? null, totals };
    daysComplete += figures.daysComplete ?? 0;
    workDays += figures.workDays ?? 0;
    weeks.set(week.start, figures);
  }
  return { grid, values, weeks, kpis: monthKpis(monthTotals, daysComplete, workDays, targets) };
}
