/**
 * Goal alerts: a figure that an entry moves below its amber or red threshold says so once,
 * without a storm: at most one alert per figure per day. Only a move into a worse colour
 * counts (green to amber, green or amber to red); a figure without a target or without data
 * never alerts, and Month Complete has no threshold to cross.
 */
import type { TileStatus } from './colour-rules.ts';
import type { IsoDate } from './calendar.ts';
import type { KpiId } from './kpis.ts';
import type { MonthFigures } from './month-figures.ts';

export type GoalAlert = { storeId: string; kpi: KpiId; day: IsoDate; level: 'amber' | 'red'; text: string; at: number };

const rank: Partial<Record<TileStatus, number>> = { good: 2, warning: 1, behind: 0 };

/** The figures that crossed a threshold downwards between two readings of the same month. */
export function crossedThresholds(before: MonthFigures, after: MonthFigures, context: { storeId: string; day: IsoDate; at: number }): GoalAlert[] {
  const alerts: GoalAlert[] = [];
  for (const [id, figure] of Object.entries(after) as Array<[KpiId, MonthFigures[KpiId]]>) {
    const was = rank[before[id].status];
    const now = rank[figure.status];
    if (was === undefined || now === undefined || now >= was) continue;
    const level = now === 0 ? 'red' : 'amber';
    alerts.push({ ...context, kpi: id, level, text: `${figure.label} fell to ${level}: ${figure.headline} against a target of ${figure.targetText}.` });
  }
  return alerts;
}

/** Keeps one alert per store, figure and day, the newest last, at most `keep` of them. */
export function mergeAlerts(stored: readonly GoalAlert[], incoming: readonly GoalAlert[], keep = 50): { all: GoalAlert[]; added: GoalAlert[] } {
  const seen = new Set(stored.map((a) => `${a.storeId}|${a.kpi}|${a.day}`));
  const added = incoming.filter((a) => {
    const key = `${a.storeId}|${a.kpi}|${a.day}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { all: [...stored, ...added].slice(-keep), added };
}
