/**
 * The front-end team tracker's rules: what each advisor's month adds up to, the score card
 * ratios, op code and survey shares against the fixed goals, and the month-end projection.
 * Figures are kept per advisor per month; a month may hold several dated rows, which add up.
 */
import type { TileStatus } from './kpi-math.ts';
import { asShown } from './colour-rules.ts';
import { formatPercent } from './format.ts';

/** A month's figures by field; null where nothing has been entered. */
export type Figures = Record<string, number | null>;

/** The advisor totals columns, in the order the Totals table shows them. */
export const totalsFields = [
  { key: 'parts_labour', label: 'Parts & Labour', money: true },
  { key: 'labour_sales', label: 'Labour Sales', money: true },
  { key: 'total_ros', label: 'Total ROs' },
  { key: 'total_hours', label: 'Total Hours' },
  { key: 'cp_labour', label: 'CP Labour', money: true },
  { key: 'cp_ros', label: 'CP ROs' },
  { key: 'cp_hours', label: 'CP Hours' },
  { key: 'internal_ros', label: 'Internal ROs' },
  { key: 'warranty_ros', label: 'Warranty ROs' },
] as const;

/** Op codes with their goals as a share of the advisor's ROs (percent): below `low` is behind. */
export const opCodeFields = [
  { key: 'alignments', label: 'Alignments', low: 6, target: 10 },
  { key: 'tire_sales', label: 'Tire Sales', low: 14, target: 15 },
  { key: 'batteries', label: 'Batteries', low: 2, target: 5 },
  { key: 'auto_trans_service', label: 'Auto Trans Service', low: 12, target: 20 },
  { key: 'coolant_service', label: 'Coolant Service', low: 6, target: 5 },
  { key: 'diff_service', label: 'Diff Service', low: 6, target: 6 },
  { key: 'front_brakes', label: 'Front Brakes', low: 2, target: 4 },
  { key: 'rear_brakes', label: 'Rear Brakes', low: 5, target: 6 },
] as const;

/** Survey goals in percent: the baseline every advisor should pass, and the targets. */
export const surveyGoals = { baseline: 19, mpiTarget: 50, npsTarget: 80 } as const;

export type ScoreCardKey = 'totalSalesPerRo' | 'rosPerDay' | 'labourPerRo' | 'labourPerDay' | 'elr' | 'cpRosPerDay' | 'cpHoursPerRo';

export const scoreCardColumns: ReadonlyArray<{ key: ScoreCardKey; label: string; money?: boolean; targetColumn: string }> = [
  { key: 'totalSalesPerRo', label: 'Total Sales / RO', money: true, targetColumn: 'total_sales_per_ro' },
  { key: 'rosPerDay', label: 'ROs / Day', targetColumn: 'ros_per_day' },
  { key: 'labourPerRo', label: 'Labour / RO', money: true, targetColumn: 'labour_per_ro' },
  { key: 'labourPerDay', label: 'Labour / Day', money: true, targetColumn: 'labour_per_day' },
  { key: 'elr', label: 'ELR', money: true, targetColumn: 'elr' },
  { key: 'cpRosPerDay', label: 'CP ROs / Day', targetColumn: 'cp_ros_per_day' },
  { key: 'cpHoursPerRo', label: 'CP Hours / RO', targetColumn: 'cp_hours_per_ro' },
];

/** Score card targets when the month has none stored (ELR has no standing target). */
export const defaultScoreCardTargets: Record<ScoreCardKey, number | null> = {
  totalSalesPerRo: 662,
  rosPerDay: 50,
  labourPerRo: 360,
  labourPerDay: 18000,
  elr: null,
  cpRosPerDay: 30,
  cpHoursPerRo: 2.5,
};

/** A division that reads 0 when there is nothing to divide by, as the tiles do. */
const ratio = (top: number, bottom: number) => (bottom > 0 ? top / bottom : 0);

/** Adds up the named fields over rows; non-numeric values count as 0, and a field nobody filled stays null. */
export function addUp(rows: ReadonlyArray<Record<string, unknown>>, keys: readonly string[]): Figures {
  const sums: Figures = Object.fromEntries(keys.map((key) => [key, null]));
  for (const row of rows)
    for (const key of keys) {
      if (row[key] === null || row[key] === undefined || row[key] === '') continue;
      const value = Number(row[key]);
      sums[key] = (sums[key] ?? 0) + (Number.isFinite(value) ? value : 0);
    }
  return sums;
}

/** The score card of one advisor (or the team, from its summed figures) for the month so far. */
export function scoreCard(totals: Figures, daysWorked: number): Record<ScoreCardKey, number> {
  const get = (key: string) => totals[key] ?? 0;
  return {
    totalSalesPerRo: ratio(get('parts_labour'), get('total_ros')),
    rosPerDay: ratio(get('total_ros'), daysWorked),
    labourPerRo: ratio(get('labour_sales'), get('total_ros')),
    labourPerDay: ratio(get('labour_sales'), daysWorked),
    elr: ratio(get('labour_sales'), get('total_hours')),
    cpRosPerDay: ratio(get('cp_ros'), daysWorked),
    cpHoursPerRo: ratio(get('cp_hours'), get('cp_ros')),
  };
}

/** The month's targets: stored values where set, else the standing ones. */
export function scoreCardTargets(stored: Record<string, unknown> | undefined): Record<ScoreCardKey, number | null> {
  const targets = { ...defaultScoreCardTargets };
  for (const column of scoreCardColumns) {
    const value = stored?.[column.targetColumn];
    if (value !== null && value !== undefined && Number.isFinite(Number(value))) targets[column.key] = Number(value);
  }
  return targets;
}

/**
 * Actual against target as the VS TARGET row shows it: the whole percent of target,
 * coloured by that shown percent with the KPI tiles' bands (green from 100%, amber from
 * 80%). "N/A" at a target of 0 (nothing to be a percentage of), "No Target" without one.
 */
export function comparison(actual: number, target: number | null): { percent: number | null; text: string; status: TileStatus } {
  if (target === null || target === 0 || !Number.isFinite(target)) return { percent: null, text: target === 0 ? 'N/A' : 'No Target', status: 'no-target' };
  const percent = (actual / target) * 100;
  const shown = asShown(percent, 0) ?? 0;
  const status: TileStatus = actual === 0 ? 'no-data' : shown >= 100 ? 'good' : shown >= 80 ? 'warning' : 'behind';
  return { percent, text: formatPercent(percent), status };
}

/**
 * A month-to-date amount carried to the month's end at the pace so far: the store's month
 * complete (percent of work days done). Null when no day is complete yet.
 */
export function projectToMonthEnd(monthToDate: number, monthCompletePercent: number): number | null {
  return monthCompletePercent > 0 ? (monthToDate / monthCompletePercent) * 100 : null;
}

export type GoalStatus = 'no-data' | 'behind' | 'warning' | 'good';

/**
 * An op code's share of ROs in percent (null without ROs) and where it stands against its
 * goals, judged on the whole percent shown, so an advisor and the team both showing "5%"
 * get one colour. Green at or above the target, amber at or above the low goal, red
 * below; where the low goal is not below the target (coolant 6% over 5%, diff 6% and 6%)
 * there is no amber band and the target alone decides.
 */
export function opCodeShare(count: number, ros: number, goal: { low: number; target: number }): { percent: number | null; status: GoalStatus } {
  if (!(ros > 0)) return { percent: null, status: 'no-data' };
  const percent = (count / ros) * 100;
  const shown = asShown(percent, 0) ?? 0;
  if (shown >= goal.target) return { percent, status: 'good' };
  return { percent, status: goal.low < goal.target && shown >= goal.low ? 'warning' : 'behind' };
}

/** A survey percentage against its target, with the baseline as the floor. */
export function surveyStatus(percent: number | null, target: number): GoalStatus {
  if (percent === null) return 'no-data';
  if (percent >= target) return 'good';
  return percent >= surveyGoals.baseline ? 'warning' : 'behind';
}

/** The survey NPS is kept as typed (it may be text); a number when it reads as one. */
export function npsPercent(value: unknown): number | null {
  if (value === null || value === undefined || String(value).trim() === '') return null;
  const number = Number(String(value).trim().replace(/%$/, ''));
  return Number.isFinite(number) ? number : null;
}
