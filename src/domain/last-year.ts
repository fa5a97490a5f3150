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
