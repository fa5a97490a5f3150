/**
 * The day's recap for the team's chat, on a month worked out by hand. The month's figures
 * and paces are given as the Daily screen computes them (monthFigures, monthPaces,
 * monthlyTable); every number in the expected text is computed in the comments.
 */
import { describe, expect, it } from 'vitest';
import type { RecapInput } from '../../../src/domain/day-recap.ts';
import { dayRecapText, latestDayWithFigures, topAdvisor } from '../../../src/domain/day-recap.ts';
import type { Totals } from '../../../src/domain/kpi-math.ts';
import { effectiveTargets } from '../../../src/domain/kpi-math.ts';
import { defaultMixTarget, monthFigures, noOperationalCounts, totalElrTarget } from '../../../src/domain/month-figures.ts';
import { monthlyTable } from '../../../src/domain/monthly-table.ts';
import { monthPaces } from '../../../src/domain/pace.ts';

/** The month as the screens compute it, from its totals and days, with the default targets. */
function monthOf(totals: Totals, daysComplete: number, workDays: number): Pick<RecapInput, 'month' | 'figures' | 'paces' | 'salesPacing'> {
  const figures = monthFigures({ totals, daysComplete, workDays, patternWorkDays: workDays, targets: {}, cpRepairOrders: null, operational: noOperationalCounts, mixTarget: defaultMixTarget });
  const paces = monthPaces({ totals, daysComplete, workDays, targets: { ...effectiveTargets({}), totalElr: totalElrTarget({ totals, targets: {} }).value } });
  const table = monthlyTable(totals, new Map(), { daysComplete, workDays }, effectiveTargets({}).salesPerDay);
  return { month: { totals, daysComplete, workDays }, figures, paces, salesPacing: { pacing: table.pacing, target: table.target } };
}

const none: Totals = { CP: { hours: 0, sales: 0 }, W: { hours: 0, sales: 0 }, I: { hours: 0, sales: 0 } };

describe("the day's recap", () => {
  it('says the day, the month to date, the pace and the top advisor with the screens\' figures', () => {
    // July 2026: 25 work days, 10 complete. The month so far: CP 400 h $76,000, W 150 h $24,000, I 100 h $12,000,
    // 650 h and $112,000 in all. Default targets: 100 h and $17,500 a day, every ELR $180.
    const month = monthOf({ CP: { hours: 400, sales: 76_000 }, W: { hours: 150, sales: 24_000 }, I: { hours: 100, sales: 12_000 } }, 10, 25);
    const text = dayRecapText({
      storeName: 'Demo Motors',
      // Tuesday July 14: CP 32 h $6,080, W 16.5 h $2,640, I 10 h $1,200: 58.5 h, $9,920.
      day: { date: '2026-07-14', totals: { CP: { hours: 32, sales: 6_080 }, W: { hours: 16.5, sales: 2_640 }, I: { hours: 10, sales: 1_200 } } },
      ...month,
      advisors: [
        { name: 'Sam Lee', labourSales: 38_000, hours: 200 },
        { name: 'Jane Smith', labourSales: 45_000, hours: 240 },
        { name: 'Chris Doe', labourSales: null, hours: null },
      ],
    });
    expect(text.split('\n')).toEqual([
      'Demo Motors: service numbers for Tuesday, July 14, 2026',
      // 9,920 / 58.5 = 169.57: $170.
      'Day: 58.5 h, $9,920, ELR $170',
      // 6,080 / 32 = 190; 2,640 / 16.5 = 160; 1,200 / 10 = 120.
      'CP 32.0 h, $6,080, ELR $190; W 16.5 h, $2,640, ELR $160; I 10.0 h, $1,200, ELR $120',
      // 112,000 / 650 = 172.31: $172 (the Total ELR tile).
      'Month to date (10 of 25 work days complete): 650.0 h, $112,000, ELR $172',
      // 76,000 / 400 = 190; 24,000 / 150 = 160; 12,000 / 100 = 120 (the CP, Warranty and Internal ELR tiles).
      'CP 400.0 h, $76,000, ELR $190; W 150.0 h, $24,000, ELR $160; I 100.0 h, $12,000, ELR $120',
      // PACING 112,000 / 10 × 25 = 280,000; TARGET 17,500 × 25 = 437,500.
      'Sales pacing $280,000 against a target of $437,500.',
      // 2,500 h for the month, 1,000 expected by now: 350 behind; (2,500 − 650) / 15 = 123.33 a day.
      'Hours: Behind pace by 350.0 h: needs 123.3 h a day on the 15 remaining work days.',
      // $437,500 for the month, $175,000 expected by now: $63,000 behind; (437,500 − 112,000) / 15 = 21,700 a day.
      'Sales: Behind pace by $63,000: needs $21,700 a day on the 15 remaining work days.',
      // Target $180 (every category's is $180). 650 h / 10 days × 15 = 975 h to come;
      // (180 × 1,625 − 112,000) / 975 = 180,500 / 975 = 185.13 an hour.
      'Total ELR: Behind the $180 target: needs $185 an hour on about 975.0 h still to come.',
      // Jane's $45,000 beats Sam's $38,000.
      'Top advisor: Jane Smith, $45,000 labour sales on 240.0 h this month',
    ]);
  });

  it('says so when nothing is entered yet, leaves out rates without hours and the advisor line without figures', () => {
    // A month of 26 work days, none complete; no targets met or missed yet.
    const month = monthOf(none, 0, 26);
    const text = dayRecapText({ storeName: null, day: null, ...month, advisors: [{ name: 'Chris Doe', labourSales: null, hours: null }] });
    expect(text.split('\n')).toEqual([
      'service numbers: nothing entered this month yet',
      'Month to date (0 of 26 work days complete): 0.0 h, $0',
      'CP 0.0 h, $0; W 0.0 h, $0; I 0.0 h, $0',
      // PACING 0; TARGET 17,500 × 26 = 455,000.
      'Sales pacing $0 against a target of $455,000.',
      // 2,600 h over 26 days: 100 a day; $455,000: $17,500 a day.
      'Hours: No day complete yet: needs 100.0 h a day on the 26 remaining work days.',
      'Sales: No day complete yet: needs $17,500 a day on the 26 remaining work days.',
      'Total ELR: No hours yet.',
    ]);
  });

  it('recaps the latest day with figures up to today, and picks the advisor with the most labour sales', () => {
    const day = (hours: number): Totals => ({ ...none, CP: { hours, sales: hours * 180 } });
    const days = new Map([
      ['2026-07-13', day(30)],
      ['2026-07-14', none],
      ['2026-07-15', day(20)],
    ]);
    // The 15th is after today (the 14th), and the 14th has nothing yet: the 13th.
    expect(latestDayWithFigures(days, '2026-07-14')).toBe('2026-07-13');
    expect(latestDayWithFigures(days, '2026-07-15')).toBe('2026-07-15');
    expect(latestDayWithFigures(new Map([['2026-07-01', none]]), '2026-07-14')).toBeNull();
    expect(topAdvisor([{ name: 'A', labourSales: 0, hours: 1 }, { name: 'B', labourSales: null, hours: null }])).toBeNull();
    expect(topAdvisor([{ name: 'A', labourSales: 10, hours: 1 }, { name: 'B', labourSales: 10, hours: 2 }])?.name).toBe('A');
  });
});
