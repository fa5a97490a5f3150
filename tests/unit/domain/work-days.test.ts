import { describe, expect, it } from 'vitest';
import type { EnteredDays } from '../../../src/domain/work-days.ts';
import { isWeekPartStart, monthDays, monthWeekParts, patternDays, weekPartEnd, weekPartLength, workPattern } from '../../../src/domain/work-days.ts';

// Calendars read off a printed calendar: 1 Oct 2026 is a Thursday, 1 Aug 2026 a Saturday,
// 1 Feb 2024 a Thursday (a leap year), 1 Nov 2026 a Sunday.
const mondayToSaturday = workPattern(null);
const none = new Map<string, EnteredDays>();

describe('week parts', () => {
  it.each([
    ['2026-10', [['2026-10-01', '2026-10-03', 3], ['2026-10-04', '2026-10-10', 7], ['2026-10-11', '2026-10-17', 7], ['2026-10-18', '2026-10-24', 7], ['2026-10-25', '2026-10-31', 7]]],
    // Starts on a Saturday: a one-day first part and a six-row grid.
    ['2026-08', [['2026-08-01', '2026-08-01', 1], ['2026-08-02', '2026-08-08', 7], ['2026-08-09', '2026-08-15', 7], ['2026-08-16', '2026-08-22', 7], ['2026-08-23', '2026-08-29', 7], ['2026-08-30', '2026-08-31', 2]]],
    // Leap February: the last part ends on the 29th.
    ['2024-02', [['2024-02-01', '2024-02-03', 3], ['2024-02-04', '2024-02-10', 7], ['2024-02-11', '2024-02-17', 7], ['2024-02-18', '2024-02-24', 7], ['2024-02-25', '2024-02-29', 5]]],
  ] as const)('%s splits into the parts of its weeks inside the month', (month, expected) => {
    const parts = monthWeekParts(month);
    expect(parts.map((p) => [p.start, p.end, p.days])).toEqual(expected);
    expect(parts.map((p) => p.weekIndex)).toEqual(expected.map((_, i) => i + 1));
  });

  it('ends a part on its Saturday or its month end, whichever comes first', () => {
    expect(weekPartEnd('2026-09-27')).toBe('2026-09-30'); // Sunday 27 Sep: the month ends on Wednesday
    expect(weekPartEnd('2026-10-01')).toBe('2026-10-03');
    expect(weekPartEnd('2026-10-04')).toBe('2026-10-10');
    expect(weekPartEnd('2026-12-27')).toBe('2026-12-31');
    expect(weekPartLength('2026-09-27')).toBe(4);
    expect(weekPartLength('2024-02-25')).toBe(5);
    expect(isWeekPartStart('2026-10-01')).toBe(true);
    expect(isWeekPartStart('2026-10-04')).toBe(true);
    expect(isWeekPartStart('2026-10-05')).toBe(false);
  });
});

describe('work pattern days', () => {
  it('counts open days, and of those the ones before today', () => {
    // Thu 1, Fri 2, Sat 3 October: three open days; on Friday 2nd only Thursday is complete.
    expect(patternDays(mondayToSaturday, { start: '2026-10-01', end: '2026-10-03' }, '2026-10-02')).toEqual({ workDays: 3, daysComplete: 1 });
    // Sunday 6 to Saturday 12 September with Labor Day (Monday 7th) closed.
    const labourDay = workPattern(null, new Map([['2026-09-07', false]]));
    expect(patternDays(labourDay, { start: '2026-09-06', end: '2026-09-12' }, '2026-12-01')).toEqual({ workDays: 5, daysComplete: 5 });
    // Monday to Friday, with an extra opening on Saturday 10 October.
    const weekdays = workPattern('1111100', new Map([['2026-10-10', true]]));
    expect(patternDays(weekdays, { start: '2026-10-04', end: '2026-10-10' }, '2026-10-01')).toEqual({ workDays: 6, daysComplete: 0 });
  });

  it('falls back to Monday to Saturday for a missing or malformed pattern', () => {
    expect(workPattern(undefined).workWeek).toBe('1111110');
    expect(workPattern('111').workWeek).toBe('1111110');
    expect(workPattern('0000011').workWeek).toBe('0000011');
  });
});

describe('a month\'s days complete and work days', () => {
  it('counts October 2026 once: 27 work days (31 days less 4 Sundays), not the 30 whole weeks gave', () => {
    const days = monthDays('2026-10', none, mondayToSaturday, '2026-11-24');
    expect(days).toMatchObject({ daysComplete: 27, workDays: 27, pattern: { daysComplete: 27, workDays: 27 }, warnings: [] });
    expect(days.parts.map((p) => p.workDays)).toEqual([3, 6, 6, 6, 6]);
  });

  it('gives November 2026 25 work days, 24 with Thanksgiving closed, and counts days before today as complete', () => {
    expect(monthDays('2026-11', none, mondayToSaturday, '2026-12-01').workDays).toBe(25);
    const thanksgiving = workPattern(null, new Map([['2026-11-26', false]]));
    // On Tuesday 24 November: Mon 2 to Sat 21 is 18 open days, plus Monday 23rd.
    expect(monthDays('2026-11', none, thanksgiving, '2026-11-24')).toMatchObject({ workDays: 24, daysComplete: 19 });
  });

  it('lets an entry win over the pattern and keeps the pattern figure to show the difference', () => {
    const entries = new Map<string, EnteredDays>([['2026-10-04', { daysComplete: 5, workDays: 5 }]]);
    const days = monthDays('2026-10', entries, mondayToSaturday, '2026-11-24');
    expect(days).toMatchObject({ workDays: 26, daysComplete: 26, pattern: { workDays: 27 } });
    expect(days.parts[1]).toMatchObject({ workDays: 5, entered: { workDays: 5 }, pattern: { workDays: 6 } });
  });

  it('warns when a week has more days complete than work days, and when the month does', () => {
    const week = monthDays('2026-10', new Map([['2026-10-11', { daysComplete: 7, workDays: null }]]), mondayToSaturday, '2026-11-24');
    expect(week.warnings).toEqual(['Notice: Week 3 has 7 days complete but only 6 work days.']);
    expect(week.daysComplete).toBe(28);
  });

  it('adds up a month starting on a Saturday and a leap February', () => {
    // August 2026: 31 days, Sundays 2, 9, 16, 23, 30: 26 work days.
    expect(monthDays('2026-08', none, mondayToSaturday, '2027-01-01').workDays).toBe(26);
    // February 2024: 29 days, Sundays 4, 11, 18, 25: 25 work days; Monday to Friday: 21.
    expect(monthDays('2024-02', none, mondayToSaturday, '2025-01-01').workDays).toBe(25);
    expect(monthDays('2024-02', none, workPattern('1111100'), '2025-01-01').workDays).toBe(21);
  });
});
