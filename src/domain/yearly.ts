/**
 * The yearly trend's derived columns (spec section 3, "Derived monthly values") and its
 * AVG and Total rows. ros holds the month's hours, as the spec reads it. Where the spec's
 * arithmetic gives a figure nobody could use, this differs (docs/figures.md):
 *  - Hours Per Day is the month's hours over its days complete (the Hours Per Day tile's
 *    figure), not sales over hours (that is the labour rate);
 *  - NET and ROS need the month's expenses: while none is entered (a month not yet closed
 *    in the books) they are unknown, not equal to the gross profit.
 */

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
  gpPercentage: number;
  hours: number;
  /** Null without a completed day. */
  hoursPerDay: number | null;
  personnelExp: number;
  personnelPercentage: number;
  semiFixedExp: number;
  semiFixedPercentage: number;
  fixedExp: number;
  /** Null while no expense of the month is entered. */
  netProfit: number | null;
  netProfitMarginRos: number | null;
};

const n = (value: number | null | undefined) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const percentOf = (part: number, whole: number) => (whole === 0 ? 0 : (part / whole) * 100);

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
    gpPercentage: percentOf(gpNet, sales),
    hours,
    hoursPerDay: daysComplete && daysComplete > 0 ? hours / daysComplete : null,
    personnelExp,
    personnelPercentage: percentOf(personnelExp, gpNet),
    semiFixedExp,
    semiFixedPercentage: percentOf(semiFixedExp, gpNet),
    fixedExp,
    netProfit,
    netProfitMarginRos: netProfit === null ? null : percentOf(netProfit, sales),
  };
}

export function hasYearlyData(input: Amounts): boolean {
  return [input.sales, input.gp_net, input.ros, input.personnel_exp, input.semi_fixed_exp, input.fixed_exp].some((v) => n(v) !== 0);
}

/**
 * Total sums the amounts; AVG divides them by the months with data (12 when none has
 * any); percentages of both rows are derived from their amounts, not averaged. Hours Per
 * Day of both is the hours of the months with data over their days complete, and NET
 * counts only the months whose expenses are entered.
 */
export function yearlySummary(months: YearlyInput[], daysComplete: ReadonlyMap<number, number> = new Map()): { total: YearlyRow; average: YearlyRow } {
  const withData = months.filter(hasYearlyData);
  const sum = (key: keyof Amounts) => months.reduce((acc, m) => acc + n(m[key]), 0);
  const anyEntered = (key: keyof Amounts) => (months.some((m) => m[key] !== null && m[key] !== undefined) ? sum(key) : null);
  const totals: Amounts = {
    sales: sum('sales'),
    gp_net: sum('gp_net'),
    ros: sum('ros'),
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
  const total = { ...deriveYearlyRow(totals, days), netProfit: net, netProfitMarginRos: net === null ? null : percentOf(net, closedSales) };
  const averaged = { ...deriveYearlyRow(average, days / count), netProfit: net === null ? null : net / (closed.length || 1), netProfitMarginRos: total.netProfitMarginRos };
  return { total, average: averaged };
}
