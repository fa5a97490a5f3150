import { describe, expect, it } from 'vitest';
import { dailyCalendarColumns, isoDateOf, isoDayOfWeek, parseDate, weekOfMonth, yearWeek } from '../../../src/domain/calendar.ts';

describe('calendar columns of a day', () => {
  // Expected values read off a printed calendar, not computed.
  it.each([
    // date, ISO day (Sun = 7), week of month, ISO year-week
    ['2026-11-01', 7, 1, '2026-44'], // a month starting on Sunday
    ['2026-11-07', 6, 1, '2026-45'],
    ['2026-11-08', 7, 2, '2026-45'],
    ['2026-11-30', 1, 5, '2026-49'],
    ['2026-08-01', 6, 1, '2026-31'], // a month starting on Saturday
    ['2026-08-02', 7, 2, '2026-31'],
    ['2026-08-31', 1, 6, '2026-36'], // six grid rows
    ['2024-02-29', 4, 5, '2024-09'], // leap day
    ['2027-01-01', 5, 1, '2026-53'], // ISO year differs from the calendar year
    ['2025-12-29', 1, 5, '2026-01'],
  ])('%s: ISO day %i, week %i, %s', (date, isoDay, week, label) => {
    expect(isoDayOfWeek(date)).toBe(isoDay);
    expect(weekOfMonth(date)).toBe(week);
    expect(yearWeek(date)).toBe(label);
  });

  it('gives year and month from the date itself', () => {
    expect(dailyCalendarColumns('2026-12-31')).toEqual({
      year: 2026,
      month: 12,
      day_of_week_iso: 4,
      week_of_month_display: 5,
      year_week_actual: '2026-53',
    });
  });

  it.each(['2026-02-30', '2027-02-29', '2026-04-31', '2026-00-10', '2026-11-00', '26-11-01', '2026-13-01', ''])('refuses "%s"', (date) => {
    expect(() => parseDate(date)).toThrow();
  });

  it.each([
    ['2028-02-29', 2028, 1, 29, 2],
    ['2026-11-01', 2026, 10, 1, 7],
    ['0099-03-01', 99, 2, 1, 7],
  ])('reads %s as local midnight of that date', (date, year, monthIndex, day, isoDay) => {
    const parsed = parseDate(date);
    expect([parsed.getFullYear(), parsed.getMonth(), parsed.getDate(), parsed.getHours()]).toEqual([year, monthIndex, day, 0]);
    expect(isoDayOfWeek(date)).toBe(isoDay);
    expect(isoDateOf(parsed)).toBe(date);
  });
});
