import { describe, expect, it } from 'vitest';
import { formatCurrency, formatCurrencyOrDash, formatHours, formatPercent, formatRatio } from '../../../src/domain/format.ts';
import {
  dailyAverage,
  effectiveTargets,
  elr,
  monthComplete,
  monthTarget,
  pacing,
  perDay,
  tileStatus,
} from '../../../src/domain/kpi-math.ts';
import { gridRange, monthGrid } from '../../../src/domain/month-grid.ts';
import { deriveYearlyRow, yearlySummary } from '../../../src/domain/yearly.ts';

describe('monthGrid', () => {
  it.each([
    // month, weeks, first grid day, last grid day (read off a calendar)
    ['2026-11', 5, '2026-11-01', '2026-12-05'], // starts on a Sunday
    ['2026-08', 6, '2026-07-26', '2026-09-05'], // starts on a Saturday: six rows
    ['2026-02', 4, '2026-02-01', '2026-02-28'], // 28 days from a Sunday: exactly four rows
    ['2024-02', 5, '2024-01-28', '2024-03-02'], // leap year
  ])('%s has %i weeks from %s to %s', (month, weeks, from, to) => {
    const grid = monthGrid(month);
    expect(grid).toHaveLength(weeks);
    expect(gridRange(month)).toEqual({ from, to });
    expect(grid.every((week) => week.days.length === 7)).toBe(true);
  });
  it('marks days outside the month', () => {
    const [first] = monthGrid('2026-08');
    expect(first?.days.map((d) => d.inMonth)).toEqual([false, false, false, false, false, false, true]);
    expect(first?.days[6]).toEqual({ date: '2026-08-01', day: 1, inMonth: true });
  });
});

describe('KPI arithmetic', () => {
  it('computes rates and per-day figures, with zero for empty denominators', () => {
    expect(elr(18450, 100)).toBe(184.5);
    expect(elr(500, 0)).toBe(0);
    expect(monthComplete(12, 24)).toBe(50);
    expect(monthComplete(0, 0)).toBe(0);
    expect(perDay(1200, 12)).toBe(100);
    expect(perDay(1200, 0)).toBe(0);
    expect(pacing(150_000, 10, 24)).toBe(360_000);
    expect(pacing(150_000, 0, 24)).toBe(0);
    expect(monthTarget(17_500, 24)).toBe(420_000);
  });
  it('averages a week over days complete, or over 1 when there are none', () => {
    expect(dailyAverage(300, 5)).toBe(60);
    expect(dailyAverage(300, 0)).toBe(300);
    expect(dailyAverage(300, null)).toBe(300);
  });
  it.each([
    [100, 0, 'no-target'],
    [100, null, 'no-target'],
    [0, 180, 'no-data'],
    [180, 180, 'good'],
    [200, 180, 'good'],
    [144, 180, 'warning'], // exactly 80%
    [143.9, 180, 'behind'],
    [1, 180, 'behind'],
  ] as const)('actual %d against %s is %s', (actual, target, status) => {
    expect(tileStatus(actual, target)).toBe(status);
  });
  it('uses the defaults and both spellings of the ELR keys; total ELR and the operational targets stay empty unless stored', () => {
    expect(effectiveTargets({})).toEqual({
      hoursPerDay: 100, salesPerDay: 17500, cpElr: 180, warrantyElr: 180, internalElr: 180, totalElr: null, cpHoursPerRo: 2.5,
      rosOver30Days: null, weOweOver30Days: null, shopSupplies: null,
    });
    expect(effectiveTargets({ cpElr: 190, warElr: 170, intElr: 150 })).toMatchObject({ warrantyElr: 170, internalElr: 150, totalElr: null });
    expect(effectiveTargets({ cpElr: 190, totalElr: 175 }).totalElr).toBe(175);
    expect(effectiveTargets({ rosOver30Days: 0 }).rosOver30Days).toBe(0);
    expect(effectiveTargets({ hoursPerDay: null }).hoursPerDay).toBe(100);
  });
});

describe('yearly derived values', () => {
  it('derives the percentages, hours per completed day and net profit of a month', () => {
    // 400,000 sales; 288,000 gross (72%); 2,000 hours over 25 days complete; expenses 90,000 + 30,000 + 20,000.
    expect(deriveYearlyRow({ sales: 400_000, gp_net: 288_000, ros: 2_000, personnel_exp: 90_000, semi_fixed_exp: 30_000, fixed_exp: 20_000 }, 25)).toEqual({
      sales: 400_000,
      gpNet: 288_000,
      gpPercentage: 72,
      hours: 2_000,
      hoursPerDay: 80,
      personnelExp: 90_000,
      personnelPercentage: 31.25,
      semiFixedExp: 30_000,
      semiFixedPercentage: (30_000 / 288_000) * 100,
      fixedExp: 20_000,
      netProfit: 148_000,
      netProfitMarginRos: 37,
    });
  });
  it('leaves hours per day and net profit unknown without completed days or expenses (the spec showed sales over hours, and the gross as net)', () => {
    const open = deriveYearlyRow({ sales: 300_000, gp_net: 210_000, ros: 1_500, personnel_exp: null, semi_fixed_exp: null, fixed_exp: null });
    expect(open).toMatchObject({ hoursPerDay: null, netProfit: null, netProfitMarginRos: null, gpPercentage: 70 });
    // One expense entered is enough to close the month: the others count as zero.
    expect(deriveYearlyRow({ sales: 300_000, gp_net: 210_000, ros: 1_500, personnel_exp: 60_000, semi_fixed_exp: null, fixed_exp: null }, 20)).toMatchObject({ hoursPerDay: 75, netProfit: 150_000, netProfitMarginRos: 50 });
  });
  it('sums net profit over the months whose expenses are entered, and hours per day over their days complete', () => {
    const month = (m: number, sales: number, gp: number, hours: number, expenses: number | null) => ({ month: m, sales, gp_net: gp, ros: hours, personnel_exp: expenses, semi_fixed_exp: null, fixed_exp: null });
    // January closed (net 100 - 40 = 60 on sales 200), February still open.
    const { total, average } = yearlySummary([month(1, 200, 100, 50, 40), month(2, 100, 70, 30, null)], new Map([[1, 25], [2, 15]]));
    expect(total).toMatchObject({ sales: 300, gpNet: 170, hours: 80, hoursPerDay: 2, netProfit: 60, netProfitMarginRos: 30 });
    expect(average).toMatchObject({ sales: 150, hoursPerDay: 2, netProfit: 60 });
  });
  it('averages over months with data, or over 12 when none has any', () => {
    const month = (m: number, sales: number | null) => ({ month: m, sales, gp_net: null, ros: null, personnel_exp: null, semi_fixed_exp: null, fixed_exp: null });
    const { total, average } = yearlySummary([month(1, 300), month(2, 0), month(3, 600)]);
    expect(total.sales).toBe(900);
    expect(average.sales).toBe(450);
    expect(yearlySummary([month(1, null)]).average.sales).toBe(0);
  });
});

describe('display formats', () => {
  it('shows currency in whole dollars, hours with 1-2 decimals, whole percentages, ratios with 1 decimal', () => {
    expect(formatCurrency(17499.6)).toBe('$17,500');
    expect(formatCurrency(0)).toBe('$0');
    expect(formatHours(41.5)).toBe('41.5');
    expect(formatHours(41)).toBe('41.0');
    expect(formatHours(41.256)).toBe('41.26');
    expect(formatPercent(72.4)).toBe('72%');
    expect(formatRatio(2.5)).toBe('2.5');
    expect(formatCurrencyOrDash(null)).toBe('-');
  });
});
