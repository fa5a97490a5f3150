/**
 * The yearly trend's derived columns and its AVG and Total rows (docs/figures.md,
 * "Yearly"). The stored field `ros` holds the month's hours. Where the specified
 * arithmetic gives a figure nobody could use, this differs (docs/figures.md, "Where this
 * differs from the specification"):
 *  - Hours Per Day is the month's hours over its days complete (the Hours Per Day tile's
 *    figure), not sales over hours (that is the labour rate);
 *  - NET and ROS need the month's expenses: while none is entered (a month not yet closed
 *    in the books) they are unknown, not equal to the gross profit.
 */

import type { MonthShare } from './last-year.ts';
import { isPartWay, lastYearBasis } from './last-year.ts';
import { monthNames } from './month.ts';

export type YearlyInput = {
  month: number;
  sales: number | null;
  gp_net: number | null;
  ros: number | null;
  personnel_exp: number | null;
  semi_fixed_exp: number | null;
  fixed_exp: number | null;
};

export type YearlyRow = {
  sales: number;
  gpNet: number;
  /** Null without sales or gross ("-", never 0% for a month without figures). */
  gpPercentage: number | null;
  hours: number;
  /** Null without a completed day. */
  hoursPerDay: number | null;
  personnelExp: number;
  /** Null while the expense is not entered or there is no gross. */
  personnelPercentage: number | null;
  semiFixedExp: number;
  semiFixedPercentage: number | null;
  fixedExp: number;
  /** Null while no expense of the month is entered. */
  netProfit: number | null;
  netProfitMarginRos: number | null;
};

const n = (value: number | null | undefined) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const percentOf = (part: number, whole: number) => (whole === 0 ? 0 : (part / whole) * 100);
const entered = (value: number | null | undefined) => value !== null && value !== undefined;
/** A share of an entered amount; null when the part is not entered or the whole is nothing. */
const shareOf = (part: number | null | undefined, whole: number) => (entered(part) && whole !== 0 ? (n(part) / whole) * 100 : null);

type Amounts = Omit<YearlyInput, 'month'>;

/** `daysComplete`: the month's completed work days (from the weeks or the work pattern). */
export function deriveYearlyRow(input: Amounts, daysComplete: number | null = null): YearlyRow {
  const sales = n(input.sales);
  const gpNet = n(input.gp_net);
  const hours = n(input.ros);
  const personnelExp = n(input.personnel_exp);
  const semiFixedExp = n(input.semi_fixed_exp);
  const fixedExp = n(input.fixed_exp);
  const expensesEntered = [input.personnel_exp, input.semi_fixed_exp, input.fixed_exp].some((v) => v !== null && v !== undefined);
  const netProfit = expensesEntered ? gpNet - personnelExp - semiFixedExp - fixedExp : null;
  return {
    sales,
    gpNet,
    gpPercentage: shareOf(input.gp_net, sales),
    hours,
    hoursPerDay: daysComplete && daysComplete > 0 && entered(input.ros) ? hours / daysComplete : null,
    personnelExp,
    personnelPercentage: shareOf(input.personnel_exp, gpNet),
    semiFixedExp,
    semiFixedPercentage: shareOf(input.semi_fixed_exp, gpNet),
    fixedExp,
    netProfit,
    netProfitMarginRos: netProfit === null ? null : percentOf(netProfit, sales),
  };
}

export function hasYearlyData(input: Amounts): boolean {
  return [input.sales, input.gp_net, input.ros, input.personnel_exp, input.semi_fixed_exp, input.fixed_exp].some((v) => n(v) !== 0);
}

type ExpenseKey = 'personnel_exp' | 'semi_fixed_exp' | 'fixed_exp';

/**
 * An expense over the months it is entered for (those closed in the books): its share of
 * their gross, and its average a month. Over every month, a month whose sales are in but
 * whose expenses are not yet would lower both.
 */
function expenseOverEnteredMonths(months: YearlyInput[], key: ExpenseKey): { share: number | null; perMonth: number } {
  const closed = months.filter((m) => entered(m[key]));
  if (closed.length === 0) return { share: null, perMonth: 0 };
  const expense = closed.reduce((acc, m) => acc + n(m[key]), 0);
  const gross = closed.reduce((acc, m) => acc + n(m.gp_net), 0);
  return { share: gross === 0 ? null : (expense / gross) * 100, perMonth: expense / closed.length };
}

/**
 * Total sums the amounts; AVG divides them by the months with data (12 when none has
 * any); percentages of both rows are derived from their amounts, not averaged. Hours Per
 * Day of both is the hours of the months with data over their days complete; NET, and
 * each expense's share of the gross and its average, count only the months whose
 * expenses are entered.
 */
export function yearlySummary(months: YearlyInput[], daysComplete: ReadonlyMap<number, number> = new Map()): { total: YearlyRow; average: YearlyRow } {
  const withData = months.filter(hasYearlyData);
  const sum = (key: keyof Amounts) => months.reduce((acc, m) => acc + n(m[key]), 0);
  const anyEntered = (key: keyof Amounts) => (months.some((m) => m[key] !== null && m[key] !== undefined) ? sum(key) : null);
  const totals: Amounts = {
    sales: sum('sales'),
    gp_net: anyEntered('gp_net'),
    ros: anyEntered('ros'),
    personnel_exp: anyEntered('personnel_exp'),
    semi_fixed_exp: anyEntered('semi_fixed_exp'),
    fixed_exp: anyEntered('fixed_exp'),
  };
  const days = withData.reduce((acc, m) => acc + (daysComplete.get(m.month) ?? 0), 0);
  const count = withData.length || 12;
  const average = Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, v === null ? null : v / count])) as Amounts;
  // NET is only known for months with expenses: the months still open in the books count out of it.
  const closed = months.filter((m) => [m.personnel_exp, m.semi_fixed_exp, m.fixed_exp].some((v) => v !== null && v !== undefined));
  const net = closed.length ? closed.reduce((acc, m) => acc + n(m.gp_net) - n(m.personnel_exp) - n(m.semi_fixed_exp) - n(m.fixed_exp), 0) : null;
  const closedSales = closed.reduce((acc, m) => acc + n(m.sales), 0);
  const personnel = expenseOverEnteredMonths(months, 'personnel_exp');
  const semiFixed = expenseOverEnteredMonths(months, 'semi_fixed_exp');
  const fixed = expenseOverEnteredMonths(months, 'fixed_exp');
  const shares = { personnelPercentage: personnel.share, semiFixedPercentage: semiFixed.share };
  const total = { ...deriveYearlyRow(totals, days), ...shares, netProfit: net, netProfitMarginRos: net === null ? null : percentOf(net, closedSales) };
  const averaged = {
    ...deriveYearlyRow(average, days / count),
    ...shares,
    personnelExp: personnel.perMonth,
    semiFixedExp: semiFixed.perMonth,
    fixedExp: fixed.perMonth,
    netProfit: net === null ? null : net / (closed.length || 1),
    netProfitMarginRos: total.netProfitMarginRos,
  };
  return { total, average: averaged };
}

const shortName = (month: number) => (monthNames[month - 1] ?? '').slice(0, 3);

/** "Jan-Nov"; runs of months joined, gaps listed: "Jan-Feb, Apr, Jun-Nov". */
export function monthsLabel(months: readonly number[]): string {
  const runs: Array<[number, number]> = [];
  for (const month of months) {
    const last = runs[runs.length - 1];
    if (last && last[1] === month - 1) last[1] = month;
    else runs.push([month, month]);
  }
  return runs.map(([from, to]) => (from === to ? shortName(from) : `${shortName(from)}-${shortName(to)}`)).join(', ');
}

export type LikeForLike = {
  /** The months compared: figures in both years, begun this year (no month not yet started). */
  months: number[];
  label: string;
  /** This year's sales over those months. */
  current: number;
  /** Last year's sales over the same months, a part-way month at the same share of its days. */
  previous: number;
  count: number;
  partWay: ({ month: number } & MonthShare) | null;
};

/**
 * This year's sales against the same months a year before, so a year still under way is
 * not set against a whole one: the months with figures in both years that have begun
 * (days complete above 0 where known), the current part-way month counted on both sides
 * at the share of its work days done. Null when no month has figures in both years.
 */
export function likeForLike(current: readonly YearlyInput[], previous: readonly YearlyInput[], days: ReadonlyMap<number, MonthShare>): LikeForLike | null {
  const before = new Map(previous.map((m) => [m.month, m]));
  const compared = current.filter((m) => {
    const then = before.get(m.month);
    const share = days.get(m.month);
    return hasYearlyData(m) && !!then && hasYearlyData(then) && !(share && share.daysComplete === 0);
  });
  if (compared.length === 0) return null;
  const partMonth = compared.find((m) => isPartWay(days.get(m.month)));
  const partDays = partMonth ? days.get(partMonth.month) : undefined;
  return {
    months: compared.map((m) => m.month),
    label: monthsLabel(compared.map((m) => m.month)),
    current: compared.reduce((acc, m) => acc + n(m.sales), 0),
    previous: compared.reduce((acc, m) => acc + (lastYearBasis(n(before.get(m.month)?.sales), days.get(m.month)) ?? 0), 0),
    count: compared.length,
    partWay: partMonth && partDays ? { month: partMonth.month, daysComplete: partDays.daysComplete, workDays: partDays.workDays } : null,
  };
}
