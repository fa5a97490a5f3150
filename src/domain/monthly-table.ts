/**
 * The Monthly Performance table (docs/figures.md, "Monthly table"): five labour rows with their repair
 * orders, hours, sales, gross and gross percentage, and the footer. Each total adds up
 * exactly what its column shows: TOTAL SALES the SALES column (customer pay, warranty and
 * internal from the daily grid, sublet as entered), TOTAL LABOUR the GROSS column (all
 * five rows, sublet and unapplied time included). An empty entry shows "-", never 0%.
 * PACING and TARGET are the Sales Per Day tile's figures over the month's work days.
 */
import type { Category, Totals } from './kpi-math.ts';
import { monthTarget, pacing, totalHours, totalSales as gridSales } from './kpi-math.ts';
import type { MonthShare } from './last-year.ts';
import { isPartWay, lastYearBasis } from './last-year.ts';

export type LaborType = 'customerPay' | 'warranty' | 'internal' | 'sublet' | 'unappliedTime';

export const laborRows: ReadonlyArray<{ type: LaborType; label: string; category?: Category }> = [
  { type: 'customerPay', label: 'CUSTOMER PAY', category: 'CP' },
  { type: 'warranty', label: 'WARRANTY', category: 'W' },
  { type: 'internal', label: 'INTERNAL', category: 'I' },
  { type: 'sublet', label: 'SUBLET' },
  { type: 'unappliedTime', label: 'UNAPPLIED TIME' },
];

/** What the manager entered for a labour type this month. */
export type LaborEntry = { gross: number | null; subletSales: number | null; repairOrders: number | null };

export type TableRow = {
  type: LaborType;
  label: string;
  repairOrders: number | null;
  /** Null where the row has no hours (sublet, unapplied time). */
  hours: number | null;
  /** Null where the row has no sales (unapplied time), or sublet sales are not entered. */
  sales: number | null;
  gross: number | null;
  /** Gross as a share of sales, null when either is missing. */
  grossPercent: number | null;
};

export type MonthlyTable = {
  rows: TableRow[];
  repairOrders: number;
  hours: number;
  /** TOTAL SALES: the SALES column. */
  totalSales: number;
  /** TOTAL LABOUR: the GROSS column; null while no gross is entered at all ("-", not $0). */
  totalLabour: number | null;
  totalLabourPercent: number | null;
  /**
   * The daily grid's sales carried to the month's end at the pace so far: the figure the
   * Sales Per Day target is set for (sublet is not typed day by day), so PACING and
   * TARGET compare like with like.
   */
  pacing: number;
  /** The sales per day target over the month's work days. */
  target: number;
};

const percentOf = (part: number | null, whole: number | null) => (part === null || whole === null || whole === 0 ? null : (part / whole) * 100);
const add = (values: Array<number | null>) => values.reduce<number>((sum, value) => sum + (value ?? 0), 0);

export function monthlyTable(
  totals: Totals,
  entries: ReadonlyMap<LaborType, LaborEntry>,
  days: { daysComplete: number; workDays: number },
  salesPerDayTarget: number,
): MonthlyTable {
  const rows = laborRows.map(({ type, label, category }): TableRow => {
    const entry = entries.get(type);
    const sales = category ? totals[category].sales : type === 'sublet' ? (entry?.subletSales ?? null) : null;
    const gross = entry?.gross ?? null;
    return { type, label, repairOrders: entry?.repairOrders ?? null, hours: category ? totals[category].hours : null, sales, gross, grossPercent: percentOf(gross, sales) };
  });
  const totalSales = add(rows.map((row) => row.sales));
  const totalLabour = rows.some((row) => row.gross !== null) ? add(rows.map((row) => row.gross)) : null;
  return {
    rows,
    repairOrders: add(rows.map((row) => row.repairOrders)),
    hours: totalHours(totals),
    totalSales,
    totalLabour,
    totalLabourPercent: percentOf(totalLabour, totalSales),
    pacing: pacing(gridSales(totals), days.daysComplete, days.workDays),
    target: monthTarget(salesPerDayTarget, days.workDays),
  };
}

/** "1 of 27 days": the share of its work days a month under way has done. */
export const sharedDays = (share: MonthShare) => `${share.daysComplete} of ${share.workDays} days`;

/**
 * The SALES LAST YEAR column of a month a year before: each row's sales and the total,
 * or no figure at all ("-", as every other missing figure) when that month has no
 * figures, instead of $0 for a year the store was not using the app. While this month is
 * under way (`days`: its work days done), last year's month is taken at the same share of
 * its work days, as Yearly compares it, and `share` says so: a month's second day set
 * against the whole of last year's month read −96%.
 */
export function salesLastYear(
  table: MonthlyTable | null | undefined,
  days?: MonthShare,
): { rows: Array<number | null>; total: number | null; share: MonthShare | null } {
  const hasFigures = !!table && (table.totalSales !== 0 || table.hours !== 0 || table.totalLabour !== null || table.repairOrders !== 0);
  if (!table || !hasFigures) return { rows: laborRows.map(() => null), total: null, share: null };
  return {
    rows: table.rows.map((row) => lastYearBasis(row.sales, days)),
    total: lastYearBasis(table.totalSales, days),
    share: isPartWay(days) ? { daysComplete: days.daysComplete, workDays: days.workDays } : null,
  };
}
