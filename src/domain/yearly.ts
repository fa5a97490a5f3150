/**
 * The yearly trend's derived columns (spec section 3, "Derived monthly values") and its
 * AVG and Total rows. ros holds the month's hours, as the spec reads it.
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
  hoursPerDay: number;
  personnelExp: number;
  personnelPercentage: number;
  semiFixedExp: number;
  semiFixedPercentage: number;
  fixedExp: number;
  netProfit: number;
  netProfitMarginRos: number;
};

const n = (value: number | null | undefined) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const percentOf = (part: number, whole: number) => (whole === 0 ? 0 : (part / whole) * 100);

export function deriveYearlyRow(input: Omit<YearlyInput, 'month'>): YearlyRow {
  const sales = n(input.sales);
  const gpNet = n(input.gp_net);
  const hours = n(input.ros);
  const personnelExp = n(input.personnel_exp);
  const semiFixedExp = n(input.semi_fixed_exp);
  const fixedExp = n(input.fixed_exp);
  const netProfit = gpNet - personnelExp - semiFixedExp - fixedExp;
  return {
    sales,
    gpNet,
    gpPercentage: percentOf(gpNet, sales),
    hours,
    hoursPerDay: hours === 0 ? 0 : sales / hours,
    personnelExp,
    personnelPercentage: percentOf(personnelExp, gpNet),
    semiFixedExp,
    semiFixedPercentage: percentOf(semiFixedExp, gpNet),
    fixedExp,
    netProfit,
    netProfitMarginRos: percentOf(netProfit, sales),
  };
}

export function hasYearlyData(input: Omit<YearlyInput, 'month'>): boolean {
  return [input.sales, input.gp_net, input.ros, input.personnel_exp, input.semi_fixed_exp, input.fixed_exp].some((v) => n(v) !== 0);
}

/**
 * Total sums the amounts; AVG divides them by the months with data (12 when none has
 * any); percentages of both rows are derived from their amounts, not averaged.
 */
export function yearlySummary(months: YearlyInput[]): { total: YearlyRow; average: YearlyRow } {
  const sum = (key: keyof Omit<YearlyInput, 'month'>) => months.reduce((acc, m) => acc + n(m[key]), 0);
  const totals = {
    sales: sum('sales'),
    gp_net: sum('gp_net'),
    ros: sum('ros'),
    personnel_exp: sum('personnel_exp'),
    semi_fixed_exp: sum('semi_fixed_exp'),
    fixed_exp: sum('fixed_exp'),
  };
  const withData = months.filter(hasYearlyData).length || 12;
  const average = Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, v / withData])) as typeof totals;
  return { total: deriveYearlyRow(totals), average: deriveYearlyRow(average) };
}
