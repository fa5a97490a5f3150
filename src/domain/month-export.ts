/**
 * The month-end pack's CSV files: the month's daily inputs (a row per day), the monthly
 * table with last year beside it, and each advisor's figures with their score card.
 * Each is one header row and plain values (src/domain/csv.ts).
 */
import type { IsoDate } from './calendar.ts';
import type { CsvCell } from './csv.ts';
import { toCsv } from './csv.ts';
import type { Figures, ScoreCardKey } from './front-end-team.ts';
import { scoreCardColumns, totalsFields } from './front-end-team.ts';
import type { Category } from './kpi-math.ts';
import type { MonthShare } from './last-year.ts';
import { changePercent } from './last-year.ts';
import type { MonthlyTable } from './monthly-table.ts';
import { salesLastYear, sharedDays } from './monthly-table.ts';

export type DayValues = { date: IsoDate; values: Record<Category, { hours: number | null; sales: number | null }> };

const categories: Category[] = ['CP', 'W', 'I'];

export function dailyInputsCsv(days: readonly DayValues[]): string {
  const header = ['Date', ...categories.flatMap((c) => [`${c} Hours`, `${c} Sales`])];
  return toCsv(header, days.map((day) => [day.date, ...categories.flatMap((c) => [day.values[c].hours, day.values[c].sales])]));
}

/** `days`: this month's work days done; while it is under way last year's month is taken at the same share, and the heading says so. */
export function monthlyTableCsv(table: MonthlyTable, lastYear: MonthlyTable | null, days?: MonthShare): string {
  const salesBefore = salesLastYear(lastYear, days);
  const lastYearHeading = salesBefore.share ? `Sales Last Year (${sharedDays(salesBefore.share)})` : 'Sales Last Year';
  const header = ['Labour Type', "RO's", 'Hours', 'Sales', 'Gross', 'Gross %', lastYearHeading, 'Change %'];
  const rows: CsvCell[][] = table.rows.map((row, index) => {
    const before = salesBefore.rows[index] ?? null;
    return [row.label, row.repairOrders, row.hours, row.sales, row.gross, row.grossPercent, before, changePercent(row.sales, before)];
  });
  rows.push(['TOTAL LABOUR', table.repairOrders, table.hours, null, table.totalLabour, table.totalLabourPercent, null, null]);
  rows.push(['TOTAL SALES', null, null, table.totalSales, null, null, salesBefore.total, changePercent(table.totalSales, salesBefore.total)]);
  rows.push(['PACING', null, null, table.pacing, null, null, null, null]);
  rows.push(['TARGET', null, null, table.target, null, null, null, null]);
  return toCsv(header, rows);
}

export type AdvisorMonth = { name: string; daysWorked: number | null; pay: number | null; totals: Figures; score: Record<ScoreCardKey, number> };

export function advisorsCsv(advisors: readonly AdvisorMonth[]): string {
  const header = ['Advisor', 'Days Worked', 'Pay', ...totalsFields.map((f) => f.label), ...scoreCardColumns.map((c) => c.label)];
  return toCsv(
    header,
    advisors.map((a) => [a.name, a.daysWorked, a.pay, ...totalsFields.map((f) => a.totals[f.key] ?? null), ...scoreCardColumns.map((c) => a.score[c.key])]),
  );
}
