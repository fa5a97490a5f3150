/**
 * How a figure is coloured against its target. Every tile follows exactly one of these
 * rules (docs/figures.md lists which), so green, amber and red mean the same thing
 * everywhere:
 *  - higher is better: green at or above 100% of target, amber from 80%, red below;
 *  - lower is better (open ROs, due bills): green at or below target, amber up to 125%
 *    of it (the same 80% read the other way: target / actual), red above;
 *  - mix: green within 5 points of the target mix, amber within 15, red beyond, where
 *    the distance is the share of hours that would have to move category to hit it;
 *  - progress (Month Complete): no judgement, amber only when the figures contradict
 *    each other (more days complete than work days).
 * Grey "No Target" without a target and grey "No Data" without a figure, in every rule.
 */

export type TileStatus = 'no-target' | 'no-data' | 'good' | 'warning' | 'behind' | 'progress';

export type ColourRule = 'higher-is-better' | 'lower-is-better' | 'mix' | 'progress';

/** Amber begins at 80% of target; red below (docs/figures.md, "The colour rules"). */
export const amberFrom = 0.8;
/** Mix distances in percentage points: green within the first, amber within the second. */
export const mixBands = { green: 5, amber: 15 } as const;

/**
 * A figure rounded as it is shown (whole dollars and percents: 0 decimals; hours per day
 * 1, hours per RO 2). Statuses are judged on what the person reads, so "$177 / Target
 * $177" is never amber and two shares both shown as "5%" never differ in colour.
 */
export function asShown(value: number | null, decimals: number): number | null {
  if (value === null || !Number.isFinite(value)) return value;
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

/** Higher is better: a zero figure is "No Data" (docs/figures.md, "The colour rules"). */
export function higherIsBetter(actual: number | null, target: number | null): TileStatus {
  if (!target) return 'no-target';
  if (actual === null || !Number.isFinite(actual) || actual === 0) return 'no-data';
  const ratio = actual / target;
  if (ratio >= 1) return 'good';
  return ratio >= amberFrom ? 'warning' : 'behind';
}

/** Lower is better: zero open ROs is the best figure, not missing data; a target of zero is a real target. */
export function lowerIsBetter(actual: number | null, target: number | null): TileStatus {
  if (target === null || !Number.isFinite(target)) return 'no-target';
  if (actual === null || !Number.isFinite(actual)) return 'no-data';
  if (actual <= target) return 'good';
  return target > 0 && target / actual >= amberFrom ? 'warning' : 'behind';
}

/** A mix (shares in percent) against a target mix: half the summed differences, in points. */
export function mixDistance(actual: Readonly<Record<string, number>>, target: Readonly<Record<string, number>>): number {
  const keys = new Set([...Object.keys(actual), ...Object.keys(target)]);
  let total = 0;
  for (const key of keys) total += Math.abs((actual[key] ?? 0) - (target[key] ?? 0));
  return total / 2;
}

export function mixStatus(distance: number | null): TileStatus {
  if (distance === null) return 'no-data';
  if (distance <= mixBands.green) return 'good';
  return distance <= mixBands.amber ? 'warning' : 'behind';
}

/** Month progress: neutral, but amber when more days are complete than there are work days. */
export function progressStatus(daysComplete: number, workDays: number): TileStatus {
  if (workDays === 0 && daysComplete === 0) return 'no-data';
  return daysComplete > workDays ? 'warning' : 'progress';
}

export const statusText: Record<TileStatus, string> = {
  'no-target': 'No Target',
  'no-data': 'No Data',
  good: 'On target',
  warning: 'Close to target',
  behind: 'Behind target',
  progress: 'Month progress',
};
