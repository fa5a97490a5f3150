import { describe, expect, it } from 'vitest';
import { comparison, opCodeFields, opCodeShare } from '../../../src/domain/front-end-team.ts';
import type { MonthInputs } from '../../../src/domain/month-figures.ts';
import { defaultMixTarget, lastYearLine, monthFigures, noOperationalCounts } from '../../../src/domain/month-figures.ts';
import type { LaborEntry, LaborType } from '../../../src/domain/monthly-table.ts';
import { monthlyTable, salesLastYear } from '../../../src/domain/monthly-table.ts';

const coolant = opCodeFields.find((f) => f.key === 'coolant_service')!;

const month = (overrides: Partial<MonthInputs> = {}): MonthInputs => ({
  totals: { CP: { hours: 100, sales: 17_680 }, W: { hours: 0, sales: 0 }, I: { hours: 0, sales: 0 } },
  daysComplete: 10,
  workDays: 25,
  patternWorkDays: 25,
  targets: {},
  cpRepairOrders: 40,
  operational: noOperationalCounts,
  mixTarget: defaultMixTarget,
  ...overrides,
});

describe('a figure is judged as it is shown', () => {
  it('Total ELR shown equal to its target is on target, not amber', () => {
    // 17,680 / 100 h = $176.80, shown "$177"; target $177.20, shown "$177": 177 ≥ 177, green.
    const elr = monthFigures(month({ targets: { totalElr: 177.2 } })).totalElr;
    expect(elr.headline).toBe('$177');
    expect(elr.targetText).toBe('$177');
    expect(elr.status).toBe('good');
    // $176.40 shows "$176" against "$177": 176 / 177 = 99.4%, amber as before.
    expect(monthFigures(month({ totals: { CP: { hours: 100, sales: 17_640 }, W: { hours: 0, sales: 0 }, I: { hours: 0, sales: 0 } }, targets: { totalElr: 177.2 } })).totalElr.status).toBe('warning');
  });

  it("an advisor's coolant share and the team's are coloured by the same whole percent they show", () => {
    // Coolant: the spec's low goal 6% sits above its target 5%, so the target alone decides.
    expect(coolant).toMatchObject({ low: 6, target: 5 });
    // An advisor: 23 of 500 ROs = 4.6%, shown "5%": at the 5% target, green (red before).
    expect(opCodeShare(23, 500, coolant).status).toBe('good');
    // The team: 52 of 1,000 = 5.2%, shown "5%": green.
    expect(opCodeShare(52, 1_000, coolant).status).toBe('good');
    // 22 of 500 = 4.4%, shown "4%": under the target and no amber band below it, red.
    expect(opCodeShare(22, 500, coolant).status).toBe('behind');
  });

  it('the score card compares the shown percent of target; a zero target reads N/A', () => {
    // CP hours per RO 2.49 against 2.5: 99.6%, shown "100%": on target.
    expect(comparison(2.49, 2.5)).toMatchObject({ text: '100%', status: 'good' });
    // 2.0 against 2.5 = 80%: amber.
    expect(comparison(2, 2.5)).toMatchObject({ text: '80%', status: 'warning' });
    expect(comparison(2.1, 0)).toMatchObject({ text: 'N/A', percent: null, status: 'no-target' });
    expect(comparison(2.1, null)).toMatchObject({ text: 'No Target', percent: null, status: 'no-target' });
  });

  it('the CP Hours Per RO tile reads N/A at a zero target', () => {
    // 100 CP hours / 40 CP ROs = 2.50 against a target of 0.
    const tile = monthFigures(month({ targets: { cpHoursPerRo: 0 } })).cpHoursPerRo;
    expect(tile).toMatchObject({ headline: '2.50', targetText: 'N/A', status: 'no-target' });
  });
});

describe('sales last year', () => {
  const none = { CP: { hours: 0, sales: 0 }, W: { hours: 0, sales: 0 }, I: { hours: 0, sales: 0 } };
  it('is no figure (shown "-") for a month last year without figures, not $0', () => {
    const table = monthlyTable(none, new Map(), { daysComplete: 0, workDays: 25 }, 17_500);
    expect(salesLastYear(table)).toEqual({ rows: [null, null, null, null, null], total: null, share: null });
    expect(salesLastYear(null)).toEqual({ rows: [null, null, null, null, null], total: null, share: null });
  });

  it("is the month's sales when it has figures, a real zero kept", () => {
    const entries = new Map<LaborType, LaborEntry>([['sublet', { gross: 250, subletSales: 1_000, repairOrders: 3 }]]);
    const table = monthlyTable({ ...none, CP: { hours: 10, sales: 1_800 } }, entries, { daysComplete: 5, workDays: 25 }, 17_500);
    // CP 1,800, W 0 and I 0 typed as nothing, sublet 1,000, unapplied time has no sales; total 2,800.
    expect(salesLastYear(table)).toEqual({ rows: [1_800, 0, 0, 1_000, null], total: 2_800, share: null });
  });

  it('is taken at the share of its work days this month has done while this month is under way', () => {
    const lastYear = monthlyTable({ ...none, CP: { hours: 500, sales: 108_000 } }, new Map(), { daysComplete: 27, workDays: 27 }, 17_500);
    // 2 December: 1 of 27 work days done. Last December's $108,000 at 1/27 is $4,000, so a
    // first day of $4,400 reads +10%, not −96% against the whole of last December.
    const early = salesLastYear(lastYear, { daysComplete: 1, workDays: 27 });
    expect(early).toEqual({ rows: [4_000, 0, 0, null, null], total: 4_000, share: { daysComplete: 1, workDays: 27 } });
    // Done, or not begun: the whole month.
    expect(salesLastYear(lastYear, { daysComplete: 27, workDays: 27 })).toMatchObject({ total: 108_000, share: null });
    expect(salesLastYear(lastYear, { daysComplete: 0, workDays: 27 })).toMatchObject({ total: 108_000, share: null });
  });
});

describe("the Month Complete tile's last year", () => {
  it('shows how far last year got, without a change: being part-way through a month is not a fall', () => {
    const now = monthFigures(month({ daysComplete: 1, workDays: 27 })).monthComplete;
    const then = monthFigures(month({ daysComplete: 27, workDays: 27 })).monthComplete;
    expect(lastYearLine(now, then)).toBe(`Last year: ${then.headline}`);
  });
});
