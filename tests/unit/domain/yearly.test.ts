import { describe, expect, it } from 'vitest';
import type { YearlyInput } from '../../../src/domain/yearly.ts';
import { lastYearBasis } from '../../../src/domain/last-year.ts';
import { deriveYearlyRow, likeForLike, monthsLabel, yearlySummary } from '../../../src/domain/yearly.ts';

const empty = (month: number): YearlyInput => ({ month, sales: null, gp_net: null, ros: null, personnel_exp: null, semi_fixed_exp: null, fixed_exp: null });
const withSales = (month: number, sales: number): YearlyInput => ({ ...empty(month), sales, gp_net: sales * 0.7, ros: sales / 175 });

/**
 * Last year: $100,000 every month ($1,200,000). This year: $103,000 in each of January to
 * October (3% up) and November part-way: 18 of its 24 work days done, $77,250 so far
 * (103,000 × 18 / 24, the same 3% pace). December has not begun.
 */
const lastYear = Array.from({ length: 12 }, (_, i) => withSales(i + 1, 100_000));
const thisYear = Array.from({ length: 12 }, (_, i) => (i < 10 ? withSales(i + 1, 103_000) : i === 10 ? withSales(11, 77_250) : empty(12)));
const days = new Map(Array.from({ length: 12 }, (_, i) => [i + 1, i < 10 ? { daysComplete: 25, workDays: 25 } : i === 10 ? { daysComplete: 18, workDays: 24 } : { daysComplete: 0, workDays: 25 }]));

describe('the yearly totals, like for like', () => {
  it('compares the months begun this year with the same months last year, the part-way month at the same share of its days', () => {
    const compared = likeForLike(thisYear, lastYear, days);
    // This year: 10 × 103,000 + 77,250 = 1,107,250.
    // Last year, same months: 10 × 100,000 + 100,000 × 18 / 24 = 1,000,000 + 75,000 = 1,075,000.
    // Change: (1,107,250 − 1,075,000) / 1,075,000 = 32,250 / 1,075,000 = +3.0%.
    // (Against last year's whole 12 months: 1,107,250 / 1,200,000 − 1 = −7.7%, the figure that misled.)
    expect(compared).toMatchObject({ months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], label: 'Jan-Nov', current: 1_107_250, previous: 1_075_000 });
    expect(compared?.partWay).toEqual({ month: 11, daysComplete: 18, workDays: 24 });
    expect(((compared!.current - compared!.previous) / compared!.previous) * 100).toBeCloseTo(3, 6);
    // AVG: the same months on both sides, 11 of them: 1,107,250 / 11 against 1,075,000 / 11.
    expect(compared?.count).toBe(11);
  });

  it('leaves out a month without figures in either year', () => {
    const gap = thisYear.map((m) => (m.month === 3 ? empty(3) : m));
    const compared = likeForLike(gap, lastYear.map((m) => (m.month === 5 ? empty(5) : m)), days);
    // March missing this year, May last year: 9 months; 8 whole at 103,000 + 77,250 = 901,250
    // against 8 × 100,000 + 75,000 = 875,000.
    expect(compared).toMatchObject({ months: [1, 2, 4, 6, 7, 8, 9, 10, 11], label: 'Jan-Feb, Apr, Jun-Nov', current: 901_250, previous: 875_000, count: 9 });
  });

  it('compares nothing when no month has figures in both years', () => {
    expect(likeForLike(thisYear, Array.from({ length: 12 }, (_, i) => empty(i + 1)), days)).toBeNull();
  });

  it("counts a part-way month's last year at the share of its work days done, and a whole month whole", () => {
    expect(lastYearBasis(100_000, { daysComplete: 18, workDays: 24 })).toBe(75_000); // 100,000 × 18 / 24
    expect(lastYearBasis(100_000, { daysComplete: 25, workDays: 25 })).toBe(100_000);
    expect(lastYearBasis(100_000, undefined)).toBe(100_000);
    expect(lastYearBasis(null, { daysComplete: 3, workDays: 24 })).toBeNull();
  });

  it('names the months compared', () => {
    expect(monthsLabel([1, 2, 3])).toBe('Jan-Mar');
    expect(monthsLabel([5])).toBe('May');
    expect(monthsLabel([1, 3, 4])).toBe('Jan, Mar-Apr');
  });
});

describe('a month without figures', () => {
  it('has no percentages ("-"), not 0%', () => {
    const row = deriveYearlyRow(empty(4), 25);
    expect(row.gpPercentage).toBeNull();
    expect(row.hoursPerDay).toBeNull(); // no hours entered: "-", not 0.0 over its 25 days
    expect(row.personnelPercentage).toBeNull();
    expect(row.semiFixedPercentage).toBeNull();
  });

  it('keeps the percentages of a month with figures, and "-" for an expense not entered', () => {
    // GP% = 70,000 / 100,000 × 100 = 70; Personnel % = 21,000 / 70,000 × 100 = 30.
    const row = deriveYearlyRow({ ...empty(4), sales: 100_000, gp_net: 70_000, personnel_exp: 21_000 });
    expect(row.gpPercentage).toBe(70);
    expect(row.personnelPercentage).toBe(30);
    expect(row.semiFixedPercentage).toBeNull();
  });

  it('a year without figures has none in its Total and AVG either', () => {
    const { total, average } = yearlySummary(Array.from({ length: 12 }, (_, i) => empty(i + 1)));
    expect(total.gpPercentage).toBeNull();
    expect(average.gpPercentage).toBeNull();
  });
});

describe('the expenses of the Total and AVG rows', () => {
  // January and February are closed in the books; March has its sales and gross but no
  // expenses yet. Worked by hand: Personnel 15,000 + 20,000 = 35,000 over the closed
  // months' gross 50,000 + 60,000 = 110,000 is 31.8%, not 35,000 / 150,000 = 23.3%; the
  // closed months average 17,500 a month, not 35,000 / 3.
  const months: YearlyInput[] = [
    { month: 1, sales: 100_000, gp_net: 50_000, ros: 500, personnel_exp: 15_000, semi_fixed_exp: 5_000, fixed_exp: 2_000 },
    { month: 2, sales: 100_000, gp_net: 60_000, ros: 520, personnel_exp: 20_000, semi_fixed_exp: 6_000, fixed_exp: 3_000 },
    { month: 3, sales: 80_000, gp_net: 40_000, ros: 410, personnel_exp: null, semi_fixed_exp: null, fixed_exp: null },
  ];

  it('takes each expense as a share of the gross of the months it is entered for', () => {
    const { total, average } = yearlySummary(months);
    expect(total.personnelPercentage).toBeCloseTo(31.818, 3);
    expect(total.semiFixedPercentage).toBeCloseTo(10, 6);
    expect(average.personnelPercentage).toBeCloseTo(31.818, 3);
    expect(average.semiFixedPercentage).toBeCloseTo(10, 6);
  });

  it('averages each expense over the months it is entered for, and keeps the totals whole', () => {
    const { total, average } = yearlySummary(months);
    expect([total.personnelExp, total.semiFixedExp, total.fixedExp]).toEqual([35_000, 11_000, 5_000]);
    expect([average.personnelExp, average.semiFixedExp, average.fixedExp]).toEqual([17_500, 5_500, 2_500]);
    // The gross is still every month's: 150,000 in all, 50,000 a month.
    expect([total.gpNet, average.gpNet]).toEqual([150_000, 50_000]);
  });
});
