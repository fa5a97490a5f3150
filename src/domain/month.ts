/**
 * The month every screen shows: "yyyy-MM" in the URL, moved one month at a time. Written
 * and checked from its numbers: date-fns's pattern formatting and parsing (with its
 * locale) would be a fifth of the JavaScript every screen loads before its first paint.
 */

export type MonthKey = string;

const pattern = /^\d{4}-(0[1-9]|1[0-2])$/;

export function monthKeyOf(date: Date): MonthKey {
  return `${String(date.getFullYear()).padStart(4, '0')}-${String(date.getMonth() + 1).padStart(2, '0')}`;
}

/** The month in the URL when valid (a year of four digits, a month from 01 to 12), else the current month. */
export function readMonth(value: string | null | undefined, today: Date): MonthKey {
  if (value && pattern.test(value)) return value;
  return monthKeyOf(today);
}

export function shiftMonth(month: MonthKey, by: number): MonthKey {
  const { year, month: number } = yearAndMonth(month);
  const index = year * 12 + (number - 1) + by;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** "November 2026" */
export function monthLabel(month: MonthKey): string {
  const { year, month: number } = yearAndMonth(month);
  return `${monthNames[number - 1] ?? ''} ${year}`;
}

export function yearAndMonth(month: MonthKey): { year: number; month: number } {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return { year, month: m };
}

/** The months' names, January first. */
export const monthNames: readonly string[] = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
