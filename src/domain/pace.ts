/**
 * Pace to goal: what is needed on each remaining work day to reach the month's target,
 * and whether the month so far is ahead of or behind the pace that gets there. Remaining
 * days are the month's work days less its days complete (src/domain/work-days.ts).
 *
 * For an amount (hours, sales): the month target is the per-day target over the month's
 * work days; "expected by now" is that target over the days complete. For a rate (ELR):
 * the remaining hours are projected at the month's hours per day so far, and the rate
 * needed on them is what brings the month's sales over all its hours to the target rate.
 */
import type { TileStatus } from './colour-rules.ts';
import { higherIsBetter } from './colour-rules.ts';
import { formatCurrency, formatRatio } from './format.ts';

export type PaceStatus = 'ahead' | 'behind' | 'reached' | 'missed' | 'no-target' | 'no-data';

export type Pace = {
  remainingDays: number;
  /** Per remaining day for an amount, per remaining hour for a rate; null when nothing remains or it cannot be known. */
  needed: number | null;
  pace: PaceStatus;
  /** The colour, by the tiles' rule: the month so far against what the target needs by now. */
  status: TileStatus;
  words: string;
};

type Show = (value: number) => string;

function statusOf(pace: PaceStatus, actual: number, expected: number): TileStatus {
  if (pace === 'no-target') return 'no-target';
  if (pace === 'no-data') return 'no-data';
  if (pace === 'reached') return 'good';
  if (pace === 'missed') return 'behind';
  return higherIsBetter(actual, expected) === 'no-data' ? 'behind' : higherIsBetter(actual, expected);
}

/** An amount the month adds up day by day (hours, sales), against a per-day target. */
export function amountPace(soFar: number, perDayTarget: number | null, daysComplete: number, workDays: number, show: Show, unit = ''): Pace {
  const remainingDays = Math.max(workDays - daysComplete, 0);
  if (!perDayTarget || workDays === 0) return { remainingDays, needed: null, pace: 'no-target', status: 'no-target', words: 'No target set for this month.' };
  const monthTarget = perDayTarget * workDays;
  const left = monthTarget - soFar;
  if (remainingDays === 0) {
    const pace = left <= 0 ? 'reached' : 'missed';
    return { remainingDays, needed: null, pace, status: statusOf(pace, soFar, monthTarget), words: left <= 0 ? `Target of ${show(monthTarget)}${unit} reached.` : `Month complete, ${show(left)}${unit} short of ${show(monthTarget)}${unit}.` };
  }
  if (left <= 0) return { remainingDays, needed: 0, pace: 'reached', status: 'good', words: `Target of ${show(monthTarget)}${unit} already reached.` };
  const needed = left / remainingDays;
  const expected = (monthTarget * daysComplete) / workDays;
  const pace = soFar >= expected ? 'ahead' : 'behind';
  const where = daysComplete === 0 ? 'No day complete yet' : pace === 'ahead' ? `Ahead of pace by ${show(soFar - expected)}${unit}` : `Behind pace by ${show(expected - soFar)}${unit}`;
  return {
    remainingDays,
    needed,
    pace,
    status: daysComplete === 0 ? 'no-data' : statusOf(pace, soFar, expected),
    words: `${where}: needs ${show(needed)}${unit} a day on the ${remainingDays} remaining work day${remainingDays === 1 ? '' : 's'}.`,
  };
}

/** A rate (sales per hour) against a target rate, with the remaining hours projected at the month's pace. */
export function ratePace(sales: number, hours: number, target: number | null, daysComplete: number, workDays: number): Pace {
  const remainingDays = Math.max(workDays - daysComplete, 0);
  if (!target) return { remainingDays, needed: null, pace: 'no-target', status: 'no-target', words: 'No target set for this month.' };
  if (hours === 0 || daysComplete === 0) return { remainingDays, needed: null, pace: 'no-data', status: 'no-data', words: 'No hours yet.' };
  const rate = sales / hours;
  if (remainingDays === 0) {
    const pace = rate >= target ? 'reached' : 'missed';
    return { remainingDays, needed: null, pace, status: statusOf(pace, rate, target), words: pace === 'reached' ? `Month complete at ${formatCurrency(rate)} an hour: target reached.` : `Month complete at ${formatCurrency(rate)} an hour, under the ${formatCurrency(target)} target.` };
  }
  const remainingHours = (hours / daysComplete) * remainingDays;
  const needed = Math.max((target * (hours + remainingHours) - sales) / remainingHours, 0);
  const pace = rate >= target ? 'ahead' : 'behind';
  return {
    remainingDays,
    needed,
    pace,
    status: statusOf(pace, rate, target),
    words: `${pace === 'ahead' ? 'Ahead of' : 'Behind'} the ${formatCurrency(target)} target: needs ${formatCurrency(needed)} an hour on about ${formatRatio(remainingHours)} h still to come.`,
  };
}
