/**
 * The service department's KPI arithmetic (spec section 9): month complete, per-day
 * figures, effective labour rates, CP hours per RO, pacing and targets, tile status.
 * Every division by zero has a defined answer, so a new month shows zeros, not NaN.
 */

export type Category = 'CP' | 'W' | 'I';
export type Totals = Record<Category, { hours: number; sales: number }>;

const safeDivide = (a: number, b: number) => (b === 0 ? 0 : a / b);

/** Effective labour rate: sales per hour, 0 when there are no hours. */
export function elr(sales: number, hours: number): number {
  return safeDivide(sales, hours);
}

export function totalHours(totals: Totals): number {
  return totals.CP.hours + totals.W.hours + totals.I.hours;
}

export function totalSales(totals: Totals): number {
  return totals.CP.sales + totals.W.sales + totals.I.sales;
}

/** Days complete as a share of work days, in percent. */
export function monthComplete(daysComplete: number, workDays: number): number {
  return safeDivide(daysComplete, workDays) * 100;
}

export function perDay(value: number, daysComplete: number): number {
  return safeDivide(value, daysComplete);
}

/** The spec's CP hours per RO: CP hours / days complete * 0.5. */
export function cpHoursPerRo(cpHours: number, daysComplete: number): number {
  return safeDivide(cpHours, daysComplete) * 0.5;
}

/** Where the month ends at the current pace: month-to-date / days complete * work days. */
export function pacing(monthToDate: number, daysComplete: number, workDays: number): number {
  return safeDivide(monthToDate, daysComplete) * workDays;
}

/** A monthly target from a per-day target. */
export function monthTarget(perDayTarget: number, workDays: number): number {
  return perDayTarget * workDays;
}

/** The weekly summary's average: the total over days complete, or over 1 when none. */
export function dailyAverage(total: number, daysComplete: number | null): number {
  return total / (daysComplete && daysComplete > 0 ? daysComplete : 1);
}

export type TileStatus = 'no-target' | 'no-data' | 'good' | 'warning' | 'behind';

/** Green from 100% of target, amber from 80%, red above 0; grey without target or data. */
export function tileStatus(actual: number, target: number | null): TileStatus {
  if (!target) return 'no-target';
  const ratio = actual / target;
  if (!actual || !ratio) return 'no-data';
  if (ratio >= 1) return 'good';
  if (ratio >= 0.8) return 'warning';
  return 'behind';
}

export const defaultTargets = {
  hoursPerDay: 100,
  salesPerDay: 17500,
  cpElr: 180,
  warrantyElr: 180,
  internalElr: 180,
  totalElr: 180,
  cpHoursPerRo: 2.5,
} as const;

type StoredTargets = Record<string, number | null | undefined>;

/**
 * The targets the tiles use: stored values (under either spelling of the ELR keys),
 * else the defaults; without a stored total ELR, the sum of the three category targets.
 */
export function effectiveTargets(stored: StoredTargets) {
  const pick = (...keys: string[]) => keys.map((k) => stored[k]).find((v) => v !== undefined && v !== null);
  const cp = pick('cpElr') ?? defaultTargets.cpElr;
  const warranty = pick('warrantyElr', 'warElr') ?? defaultTargets.warrantyElr;
  const internal = pick('internalElr', 'intElr') ?? defaultTargets.internalElr;
  return {
    hoursPerDay: pick('hoursPerDay') ?? defaultTargets.hoursPerDay,
    salesPerDay: pick('salesPerDay') ?? defaultTargets.salesPerDay,
    cpElr: cp,
    warrantyElr: warranty,
    internalElr: internal,
    totalElr: pick('totalElr') ?? cp + warranty + internal,
    cpHoursPerRo: pick('cpHoursPerRo') ?? defaultTargets.cpHoursPerRo,
  };
}
