/**
 * The same month a year before, beside this one: the figure then and the change since,
 * in percent of the earlier figure. No change is given when either is missing or the
 * earlier figure is zero (a change from nothing is not a percentage).
 */

export function changePercent(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null || !Number.isFinite(current) || !Number.isFinite(previous) || previous === 0) return null;
  return ((current - previous) / Math.abs(previous)) * 100;
}

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0, signDisplay: 'exceptZero' });

/** "+5%", "−12%", "0%"; "-" without a change. */
export function formatChange(percent: number | null): string {
  return percent === null ? '-' : `${whole.format(percent).replace('-', '−')}%`;
}

/** "Last year: $172 (+4%)", or "Last year: no figures" when the month then has none. */
export function lastYearText(previousShown: string | null, percent: number | null): string {
  if (previousShown === null) return 'Last year: no figures';
  return `Last year: ${previousShown}${percent === null ? '' : ` (${formatChange(percent)})`}`;
}

/** A month's days: how many of its work days are done. */
export type MonthShare = { daysComplete: number; workDays: number };

/** Some but not all of the month's work days are done. */
export const isPartWay = (days: MonthShare | null | undefined): days is MonthShare => !!days && days.daysComplete > 0 && days.daysComplete < days.workDays;

/**
 * The figure a month a year before is compared with: the whole month, or, for a month
 * still part-way (some but not all of its work days done), last year's month at the same
 * share of its work days, as the Monthly table's PACING reads a month at its pace.
 */
export function lastYearBasis(previous: number | null, days: MonthShare | null | undefined): number | null {
  if (previous === null) return null;
  return isPartWay(days) ? (previous * days.daysComplete) / days.workDays : previous;
}
