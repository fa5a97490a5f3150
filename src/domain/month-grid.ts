/**
 * The daily calendar grid: whole Sunday-to-Saturday weeks spanning the month, seven
 * columns, days outside the month marked so the grid can fade and disable them.
 */
import { addDays, endOfMonth, endOfWeek, format, parse, startOfMonth, startOfWeek } from 'date-fns';
import type { IsoDate } from './calendar.ts';
import type { MonthKey } from './month.ts';

export type GridDay = { date: IsoDate; day: number; inMonth: boolean };
export type GridWeek = { index: number; start: IsoDate; end: IsoDate; days: GridDay[] };

export function monthGrid(month: MonthKey): GridWeek[] {
  const first = startOfMonth(parse(month, 'yyyy-MM', new Date(2000, 0, 1)));
  const last = endOfMonth(first);
  const weeks: GridWeek[] = [];
  for (let start = startOfWeek(first, { weekStartsOn: 0 }); start <= last; start = addDays(start, 7)) {
    const days = Array.from({ length: 7 }, (_, i) => {
      const date = addDays(start, i);
      return { date: format(date, 'yyyy-MM-dd'), day: date.getDate(), inMonth: date.getMonth() === first.getMonth() };
    });
    weeks.push({ index: weeks.length + 1, start: days[0]?.date as IsoDate, end: format(endOfWeek(start, { weekStartsOn: 0 }), 'yyyy-MM-dd'), days });
  }
  return weeks;
}

/** The first and last dates the grid shows (what the daily screen reads). */
export function gridRange(month: MonthKey): { from: IsoDate; to: IsoDate } {
  const weeks = monthGrid(month);
  return { from: weeks[0]?.start as IsoDate, to: weeks[weeks.length - 1]?.end as IsoDate };
}
