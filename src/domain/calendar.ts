/**
 * Calendar rules of the daily grid: weeks start on Sunday; a date's week of the month
 * counts from the Sunday on or before the 1st; ISO day of week has Sunday = 7; the
 * year-week label is the ISO week-numbering year and week.
 */
import { differenceInCalendarDays, getISOWeek, getISOWeekYear, startOfMonth, startOfWeek } from 'date-fns';

/** A calendar date as yyyy-MM-dd (no time zone: a date on the shop floor is a date). */
export type IsoDate = string;

const isoDatePattern = /^\d{4}-\d{2}-\d{2}$/;

/** Local midnight of the date. Built from its numbers: the month screens parse thousands of dates a render. */
export function parseDate(date: IsoDate): Date {
  if (!isoDatePattern.test(date)) throw new Error(`not a yyyy-MM-dd date: ${date}`);
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const day = Number(date.slice(8, 10));
  const parsed = new Date(year, month - 1, day);
  // Years below 100 would be taken as 19xx.
  parsed.setFullYear(year);
  if (parsed.getMonth() !== month - 1 || parsed.getDate() !== day) throw new Error(`not a real date: ${date}`);
  return parsed;
}

/** The date as yyyy-MM-dd, in local time (the way parseDate reads it). */
export function isoDateOf(date: Date): IsoDate {
  return `${String(date.getFullYear()).padStart(4, '0')}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

export function isoDayOfWeek(date: IsoDate): number {
  return parseDate(date).getDay() || 7;
}

/** 1-based index of the grid row (Sunday-to-Saturday week) the date falls in. */
export function weekOfMonth(date: IsoDate): number {
  const day = parseDate(date);
  const gridStart = startOfWeek(startOfMonth(day), { weekStartsOn: 0 });
  return Math.floor(differenceInCalendarDays(day, gridStart) / 7) + 1;
}

/** The ISO week label, e.g. "2026-48". */
export function yearWeek(date: IsoDate): string {
  const day = parseDate(date);
  return `${getISOWeekYear(day)}-${String(getISOWeek(day)).padStart(2, '0')}`;
}

/** The calendar columns stored with every daily value. */
export function dailyCalendarColumns(date: IsoDate) {
  const day = parseDate(date);
  return {
    year: day.getFullYear(),
    month: day.getMonth() + 1,
    day_of_week_iso: isoDayOfWeek(date),
    week_of_month_display: weekOfMonth(date),
    year_week_actual: yearWeek(date),
  };
}
