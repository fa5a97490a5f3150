import { describe, expect, it } from 'vitest';
import type { GoalAlert } from '../../../src/domain/goal-alerts.ts';
import { crossedThresholds, mergeAlerts } from '../../../src/domain/goal-alerts.ts';
import type { MonthInputs } from '../../../src/domain/month-figures.ts';
import { defaultMixTarget, monthFigures, noOperationalCounts } from '../../../src/domain/month-figures.ts';

const month = (cpSales: number): MonthInputs => ({
  totals: { CP: { hours: 100, sales: cpSales }, W: { hours: 20, sales: 3_600 }, I: { hours: 10, sales: 1_800 } },
  daysComplete: 10,
  workDays: 25,
  patternWorkDays: 25,
  targets: { cpElr: 185, hoursPerDay: 10, salesPerDay: 2_000 },
  cpRepairOrders: 50,
  operational: noOperationalCounts,
  mixTarget: defaultMixTarget,
});
const context = { storeId: 's', day: '2026-11-24', at: 1 };

describe('goal alerts', () => {
  it('alert when an entry moves a figure from green to amber, or down to red, and not when it improves', () => {
    // CP ELR: $190 (green) → $178 (96%, amber) → $140 (76%, red). Total ELR against the hours-weighted
    // target of (185 × 100 + 180 × 30) / 130 = $183.85: $187.69 (green) → $178.46 (97%, amber) → $149.23 (81%, still amber).
    // Sales per day against $2,000: $2,440 → $2,320 (both green) → $1,940 (97%, amber).
    const green = monthFigures(month(19_000));
    const amber = monthFigures(month(17_800));
    const red = monthFigures(month(14_000));
    expect(crossedThresholds(green, amber, context).map((a) => [a.kpi, a.level])).toEqual([['cpElr', 'amber'], ['totalElr', 'amber']]);
    expect(crossedThresholds(amber, red, context).map((a) => [a.kpi, a.level])).toEqual([['salesPerDay', 'amber'], ['cpElr', 'red']]);
    expect(crossedThresholds(red, green, context)).toEqual([]);
    expect(crossedThresholds(green, amber, context)[0]?.text).toBe('CP ELR fell to amber: $178 against a target of $185.');
  });

  it('keep one alert per figure per day, so a storm of entries makes one', () => {
    const alert = (kpi: GoalAlert['kpi'], day: string): GoalAlert => ({ storeId: 's', kpi, day, level: 'amber', text: kpi, at: 1 });
    const first = mergeAlerts([], [alert('cpElr', '2026-11-24')]);
    expect(first.added).toHaveLength(1);
    const again = mergeAlerts(first.all, [alert('cpElr', '2026-11-24'), alert('totalElr', '2026-11-24'), alert('cpElr', '2026-11-25')]);
    expect(again.added.map((a) => `${a.kpi} ${a.day}`)).toEqual(['totalElr 2026-11-24', 'cpElr 2026-11-25']);
    expect(mergeAlerts(again.all, [], 2).all).toHaveLength(2);
  });
});
