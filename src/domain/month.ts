/** The month every screen shows: "yyyy-MM" in the URL, moved one month at a time. */
import { format, isValid, parse } from 'date-fns';

export type MonthKey = string;

const pattern = /^\d{4}-(0[1-9]|1[0-2])$/;

export function monthKeyOf(date: Date): MonthKey {
  return format(date, 'yyyy-MM');
}

/** The month in the URL when valid, else the current month. */
export function readMonth(value: string | null | undefined, today: Date): MonthKey {
  if (value && pattern.test(value) && isValid(parse(value, 'yyyy-MM', today))) return value;
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
