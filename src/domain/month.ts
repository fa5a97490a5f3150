/** The month every screen shows: "yyyy-MM" in the URL, moved one month at a time. */
import { addMonths, format, isValid, parse } from 'date-fns';

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
  return monthKeyOf(addMonths(parse(month, 'yyyy-MM', new Date(2000, 0, 1)), by));
}

/** "November 2026" */
export function monthLabel(month: MonthKey): string {
  return format(parse(month, 'yyyy-MM', new Date(2000, 0, 1)), 'MMMM yyyy');
}

export function yearAndMonth(month: MonthKey): { year: number; month: number } {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return { year, month: m };
}

/** The months' names, January first. */
export const monthNames: readonly string[] = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
