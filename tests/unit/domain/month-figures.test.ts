import { describe, expect, it } from 'vitest';
import type { MonthInputs } from '../../../src/domain/month-figures.ts';
import { defaultMixTarget, monthFigures, noOperationalCounts, totalElrTarget } from '../../../src/domain/month-figures.ts';

/**
 * A month worked by hand: CP 100 h for $18,000, warranty 20 h for $3,400, internal 10 h
 * for $1,450 (130 h, $22,850) over 10 of 25 work days.
 */
const month = (overrides: Partial<MonthInputs> = {}): MonthInputs => ({
  totals: { CP: { hours: 100, sales: 18_000 }, W: { hours: 20, sales: 3_400 }, I: { hours: 10, sales: 1_450 } },
  daysComplete: 10,
  workDays: 25,
  patternWorkDays: 25,
  targets: { cpElr: 185 },
  cpRepairOrders: 50,
  operational: noOperationalCounts,
  mixTarget: defaultMixTarget,
  ...overrides,
});

describe('the month figures, worked by hand', () => {
  const figures = monthFigures(month());

  it('computes per-day figures over days complete', () => {
    expect(figures.hoursPerDay).toMatchObject({ value: 13, target: 100, headline: '13.0', status: 'behind' });
    expect(figures.salesPerDay).toMatchObject({ value: 2_285, headline: '$2,285', targetText: '$17,500', status: 'behind' });
    expect(figures.hoursPerDay.working).toBe('Hours Per Day = total hours / days complete = 130.0 h / 10 = 13.00');
  });

  it('computes each labour rate from its own sales and hours', () => {
    expect(figures.cpElr).toMatchObject({ value: 180, target: 185, headline: '$180', status: 'warning' });
    expect(figures.cpElr.working).toBe('CP ELR = CP sales / CP hours = $18,000.00 / 100.0 h = $180.00');
    expect(figures.warrantyElr).toMatchObject({ value: 170, target: 180, status: 'warning' });
    // 145 / 180 = 80.6%: still amber.
    expect(figures.internalElr).toMatchObject({ value: 145, target: 180, status: 'warning' });
  });

  it('weighs the category targets by hours for the total ELR target instead of adding them up', () => {
    // (185 × 100 + 180 × 20 + 180 × 10) / 130 = 23,900 / 130 = 183.846...; the spec would say 545.
    expect(figures.totalElr.target).toBeCloseTo(183.846, 3);
    expect(figures.totalElr.value).toBeCloseTo(175.769, 3);
    expect(figures.totalElr.targetText).toBe('$184 (category mix)');
    expect(figures.totalElr.status).toBe('warning');
    expect(figures.totalElr.working).toContain('Total ELR target = ($185.00 × 100.0 h + $180.00 × 20.0 h + $180.00 × 10.0 h) / 130.0 h = $183.85');
    expect(totalElrTarget({ totals: month().totals, targets: { totalElr: 175 } })).toMatchObject({ value: 175, derived: false });
    const noHours = { CP: { hours: 0, sales: 0 }, W: { hours: 0, sales: 0 }, I: { hours: 0, sales: 0 } };
    expect(totalElrTarget({ totals: noHours, targets: { cpElr: 190 } })).toMatchObject({ value: 190, derived: true });
  });

  it('takes CP hours per RO from the CP repair-order count, and says when there is none', () => {
    // 100 CP hours over 50 CP ROs = 2.00 against 2.5: 80%, amber.
    expect(figures.cpHoursPerRo).toMatchObject({ value: 2, headline: '2.00', status: 'warning' });
    const none = monthFigures(month({ cpRepairOrders: null })).cpHoursPerRo;
    expect(none).toMatchObject({ value: null, headline: 'no RO count', status: 'no-data' });
    expect(monthFigures(month({ cpRepairOrders: 0 })).cpHoursPerRo.headline).toBe('no RO count');
  });

  it('shows month progress without judging it, and the pattern beside a different entry', () => {
    expect(figures.monthComplete).toMatchObject({ value: 40, headline: '40%', actual: '10 days', targetText: '25 work days', status: 'progress' });
    expect(monthFigures(month({ patternWorkDays: 26 })).monthComplete.targetText).toBe('25 work days (pattern: 26)');
    expect(monthFigures(month({ daysComplete: 26 })).monthComplete.status).toBe('warning');
  });

  it('colours the work mix by its distance from the store\'s target', () => {
    // 76.9 / 15.4 / 7.7 against 40 / 30 / 30: (36.9 + 14.6 + 22.3) / 2 = 36.9 points away.
    expect(figures.workMixChart.value).toBeCloseTo(36.923, 3);
    expect(figures.workMixChart).toMatchObject({ status: 'behind', headline: 'CP 77%', actual: 'CP 77%, W 15%, I 8%', targetText: 'CP 40%, W 30%, I 30%' });
    const close = monthFigures(month({ mixTarget: { CP: 75, W: 15, I: 10 } })).workMixChart;
    // (1.9 + 0.4 + 2.3) / 2 = 2.3 points: green.
    expect(close.value).toBeCloseTo(2.308, 3);
    expect(close.status).toBe('good');
    const noHours = { CP: { hours: 0, sales: 0 }, W: { hours: 0, sales: 0 }, I: { hours: 0, sales: 0 } };
    expect(monthFigures(month({ totals: noHours })).workMixChart.status).toBe('no-data');
  });

  it('reads the month-end counts, where fewer open ROs and due bills is better', () => {
    const counts = (ros: number | null, target: number | null) =>
      monthFigures(month({ targets: { rosOver30Days: target }, operational: { ...noOperationalCounts, rosOver30Days: ros, asOf: '2026-11-23' } })).rosOver30Days;
    expect(counts(6, 8)).toMatchObject({ status: 'good', headline: '6', actual: '6 (as of 2026-11-23)', targetText: 'at most 8' });
    expect(counts(9, 8).status).toBe('warning'); // 8 / 9 = 89%
    expect(counts(11, 8).status).toBe('behind'); // 8 / 11 = 73%
    expect(counts(0, 0).status).toBe('good');
    expect(counts(1, 0).status).toBe('behind');
    expect(counts(null, 8)).toMatchObject({ status: 'no-data', headline: 'Not entered' });
    expect(counts(3, null).status).toBe('no-target');
    const dueBills = monthFigures(month({ targets: { weOweOver30Days: 2 }, operational: { ...noOperationalCounts, dueBillsOver30Days: 2 } })).dueBillsOver30Days;
    expect(dueBills).toMatchObject({ target: 2, status: 'good' });
  });

  it('paces shop supplies to the month end against the month target', () => {
    // $4,000 over 10 of 25 days paces $10,000 against $12,000: 83%, amber.
    const supplies = monthFigures(month({ targets: { shopSupplies: 12_000 }, operational: { ...noOperationalCounts, shopSupplies: 4_000 } })).shopSupplies;
    expect(supplies).toMatchObject({ value: 4_000, status: 'warning', actual: '$4,000 so far, pacing $10,000', targetText: '$12,000' });
    expect(monthFigures(month()).shopSupplies.status).toBe('no-target');
  });
});
