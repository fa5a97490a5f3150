/**
 * The daily calendar grid: whole Sunday-to-Saturday weeks spanning the month, seven
 * columns, days outside the month marked so the grid can fade and disable them.
 */
import { addDays, endOfMonth, endOfWeek, startOfWeek } from 'date-fns';
import type { IsoDate } from './calendar.ts';
import { isoDateOf, parseDate } from './calendar.ts';
import type { MonthKey } from './month.ts';

export type GridDay = { date: IsoDate; day: number; inMonth: boolean };
export type GridWeek = { index: number; start: IsoDate; end: IsoDate; days: readonly GridDay[] };

const grids = new Map<MonthKey, readonly GridWeek[]>();

/**
 * The month's grid weeks. Worked out once per month and frozen: every screen of the month
 * asks for it on every render, and date arithmetic was a visible share of a render.
 */
export function monthGrid(month: MonthKey): readonly GridWeek[] {
  let grid = grids.get(month);
  if (!grid) {
    grid = Object.freeze(buildGrid(month));
    grids.set(month, grid);
  }
  return grid;
}

function buildGrid(month: MonthKey): GridWeek[] {
  const first = parseDate(`${month}-01`);
  const last = endOfMonth(first);
  const weeks: GridWeek[] = [];
  for (let start = startOfWeek(first, { weekStartsOn: 0 }); start <= last; start = addDays(start, 7)) {
    const days = Array.from({ length: 7 }, (_, i) => {
      const date = addDays(start, i);
      return Object.freeze({ date: isoDateOf(date), day: date.getDate(), inMonth: date.getMonth() === first.getMonth() });
    });
    weeks.push(Object.freeze({ index: weeks.length + 1, start: days[0]?.date as IsoDate, end: isoDateOf(endOfWeek(start, { weekStartsOn: 0 })), days: Object.freeze(days) }));
  }
  return weeks;
}

/** The most weeks any month's grid has (a 31-day month starting on a Friday or Saturday, a 30-day one on a Saturday). */
export const maxGridWeeks = 6;

const padded = new Map<MonthKey, readonly GridWeek[]>();

/**
 * The month's grid weeks followed by the weeks after them, up to six: a grid that keeps
 * the same inputs for every month has six weeks of them and hides those past the month's
 * own weeks. Every padded day is outside the month.
 */
export function paddedGrid(month: MonthKey): readonly GridWeek[] {
  let grid = padded.get(month);
  if (!grid) {
    const weeks = [...monthGrid(month)];
    while (weeks.length < maxGridWeeks) {
      const start = addDays(parseDate(weeks[weeks.length - 1]?.end as IsoDate), 1);
      const days = Array.from({ length: 7 }, (_, i) => {
        const date = addDays(start, i);
        return Object.freeze({ date: isoDateOf(date), day: date.getDate(), inMonth: false });
      });
      weeks.push(Object.freeze({ index: weeks.length + 1, start: days[0]?.date as IsoDate, end: days[6]?.date as IsoDate, days: Object.freeze(days) }));
    }
    grid = Object.freeze(weeks);
    padded.set(month, grid);
  }
  return grid;
}

/** The first and last dates the grid shows (what the daily screen reads). */
export function gridRange(month: MonthKey): { from: IsoDate; to: IsoDate } {
  const weeks = monthGrid(month);
  return { from: weeks[0]?.start as IsoDate, to: weeks[weeks.length - 1]?.end as IsoDate };
}
