/**
 * The service department's KPI arithmetic (docs/figures.md, "KPI tiles"): month complete, per-day
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

export type { TileStatus } from './colour-rules.ts';

/** The tiles' colour for figures where more is better (docs/figures.md, "The colour rules"); see colour-rules.ts. */
export { higherIsBetter as tileStatus } from './colour-rules.ts';

export const defaultTargets = {
  hoursPerDay: 100,
  salesPerDay: 17500,
  cpElr: 180,
  warrantyElr: 180,
  internalElr: 180,
  cpHoursPerRo: 2.5,
} as const;

type StoredTargets = Readonly<Record<string, number | null | undefined>>;

/**
 * The targets the figures use: stored values (under either spelling of the ELR keys),
 * else the defaults of docs/figures.md. Total ELR stays null unless stored: month-figures.ts then
 * weighs the category targets by the month's hours. The operational tiles' targets are
 * null until a store sets them (there is no sensible default for a count of open ROs).
 */
export function effectiveTargets(stored: StoredTargets) {
  const pick = (...keys: string[]) => keys.map((k) => stored[k]).find((v) => v !== undefined && v !== null) ?? null;
  return {
    hoursPerDay: pick('hoursPerDay') ?? defaultTargets.hoursPerDay,
    salesPerDay: pick('salesPerDay') ?? defaultTargets.salesPerDay,
    cpElr: pick('cpElr') ?? defaultTargets.cpElr,
    warrantyElr: pick('warrantyElr', 'warElr') ?? defaultTargets.warrantyElr,
    internalElr: pick('internalElr', 'intElr') ?? defaultTargets.internalElr,
    totalElr: pick('totalElr'),
    cpHoursPerRo: pick('cpHoursPerRo') ?? defaultTargets.cpHoursPerRo,
    rosOver30Days: pick('rosOver30Days'),
    weOweOver30Days: pick('weOweOver30Days'),
    shopSupplies: pick('shopSupplies'),
  };
}
