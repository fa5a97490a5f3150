/**
 * A month's work days and days complete. They belong to that month only: the grid shows
 * whole Sunday-to-Saturday weeks, but each week is kept as its parts inside each month (a
 * week part starts on a Sunday or on the 1st and ends on the Saturday or on the month's
 * last day). A part's figures are what a manager entered, or else what the store's work
 * pattern gives: its open days, and of those the ones complete: before today, or with
 * figures entered (today's, once typed), so a month's figures are divided by the days
 * they came from (docs/figures.md).
 */
import { addDays, differenceInCalendarDays, endOfMonth, format, getDay } from 'date-fns';
import type { IsoDate } from './calendar.ts';
import { isoDateOf, isoDayOfWeek, parseDate } from './calendar.ts';
import type { MonthKey } from './month.ts';
import { monthGrid } from './month-grid.ts';

/** Open ('1') or closed ('0') on each weekday, Monday first. */
export type WorkWeek = string;

/** Monday to Saturday: what a store is assumed to work until it says otherwise. */
export const defaultWorkWeek: WorkWeek = '1111110';

export const weekdayNames = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/**
 * The weekdays a store works and the dates that differ (true: open on a closed weekday;
 * false: a holiday). A closed month keeps the weekdays it was closed with (`closedMonths`),
 * so a pattern changed later changes only the months still open.
 */
export type WorkPattern = { workWeek: WorkWeek; exceptions: ReadonlyMap<IsoDate, boolean>; closedMonths?: ReadonlyMap<MonthKey, WorkWeek> };

export const isWorkWeek = (value: unknown): value is WorkWeek => typeof value === 'string' && /^[01]{7}$/.test(value);

export function workPattern(workWeek: unknown, exceptions: ReadonlyMap<IsoDate, boolean> = new Map()): WorkPattern {
  return { workWeek: isWorkWeek(workWeek) ? workWeek : defaultWorkWeek, exceptions };
}

/** The pattern with the weekdays each closed month was closed with (a closure without a valid one is left out). */
export function withClosedMonths(pattern: WorkPattern, closedWeeks: ReadonlyMap<MonthKey, unknown>): WorkPattern {
  const closedMonths = new Map<MonthKey, WorkWeek>();
  for (const [month, week] of closedWeeks) if (isWorkWeek(week)) closedMonths.set(month, week);
  return closedMonths.size === 0 ? pattern : { ...pattern, closedMonths };
}

export function isWorkDay(pattern: WorkPattern, date: IsoDate): boolean {
  const week = pattern.closedMonths?.get(date.slice(0, 7)) ?? pattern.workWeek;
  return pattern.exceptions.get(date) ?? week[isoDayOfWeek(date) - 1] === '1';
}

/** The part of a week inside one month: the row its days complete and work days are kept in. */
export type WeekPart = { weekIndex: number; start: IsoDate; end: IsoDate; days: number };

const iso = isoDateOf;

/** Where the part that starts on this date ends: its Saturday, or its month's last day if that comes first. */
export function weekPartEnd(start: IsoDate): IsoDate {
  const day = parseDate(start);
  const saturday = addDays(day, 6 - getDay(day));
  const monthEnd = endOfMonth(day);
  return iso(saturday < monthEnd ? saturday : monthEnd);
}

/** How many days the part that starts on this date has. */
export function weekPartLength(start: IsoDate): number {
  return differenceInCalendarDays(parseDate(weekPartEnd(start)), parseDate(start)) + 1;
}

/** True for a date a week part may start on: a Sunday, or the 1st of a month. */
export const isWeekPartStart = (date: IsoDate): boolean => getDay(parseDate(date)) === 0 || parseDate(date).getDate() === 1;

const partsByMonth = new Map<MonthKey, readonly WeekPart[]>();

/** The parts of the month's grid weeks that lie inside the month, in order (worked out once per month, frozen). */
export function monthWeekParts(month: MonthKey): readonly WeekPart[] {
  let parts = partsByMonth.get(month);
  if (!parts) {
    parts = Object.freeze(
      monthGrid(month).map((week) => {
        const inMonth = week.days.filter((day) => day.inMonth);
        const start = inMonth[0]?.date as IsoDate;
        return Object.freeze({ weekIndex: week.index, start, end: inMonth[inMonth.length - 1]?.date as IsoDate, days: inMonth.length });
      }),
    );
    partsByMonth.set(month, parts);
  }
  return parts;
}

function datesOf(part: Pick<WeekPart, 'start' | 'end'>): IsoDate[] {
  const dates: IsoDate[] = [];
  for (let day = parseDate(part.start); iso(day) <= part.end; day = addDays(day, 1)) dates.push(iso(day));
  return dates;
}

const noDays: ReadonlySet<IsoDate> = new Set();

/** The pattern's work days of a part, and of those the ones complete: before today, or with figures. */
export function patternDays(pattern: WorkPattern, part: Pick<WeekPart, 'start' | 'end'>, today: IsoDate, figureDays: ReadonlySet<IsoDate> = noDays) {
  const open = datesOf(part).filter((date) => isWorkDay(pattern, date));
  return { workDays: open.length, daysComplete: open.filter((date) => date < today || figureDays.has(date)).length };
}

/** What a manager entered for a part (null: nothing, the pattern's figure applies). */
export type EnteredDays = { daysComplete: number | null; workDays: number | null };

export type PartDays = {
  part: WeekPart;
  daysComplete: number;
  workDays: number;
  entered: EnteredDays;
  /** What the work pattern gives, shown beside an entry that differs. */
  pattern: { daysComplete: number; workDays: number };
};

export type MonthDays = {
  parts: PartDays[];
  daysComplete: number;
  workDays: number;
  pattern: { daysComplete: number; workDays: number };
  /** Notices for figures that do not add up: more days complete than work days. */
  warnings: string[];
};

const sum = (parts: PartDays[], pick: (part: PartDays) => number) => parts.reduce((total, part) => total + pick(part), 0);

/**
 * The month's days complete and work days from its parts' entries, the pattern filling the
 * gaps. `figureDays`: the dates with a figure entered (a work day counts once it has one).
 */
export function monthDays(
  month: MonthKey,
  entries: ReadonlyMap<IsoDate, EnteredDays>,
  pattern: WorkPattern,
  today: IsoDate,
  figureDays: ReadonlySet<IsoDate> = noDays,
): MonthDays {
  const parts = monthWeekParts(month).map((part): PartDays => {
    const entered = entries.get(part.start) ?? { daysComplete: null, workDays: null };
    const fromPattern = patternDays(pattern, part, today, figureDays);
    return {
      part,
      entered,
      pattern: fromPattern,
      daysComplete: entered.daysComplete ?? fromPattern.daysComplete,
      workDays: entered.workDays ?? fromPattern.workDays,
    };
  });
  const warnings = parts
    .filter((p) => p.daysComplete > p.workDays)
    .map((p) => `Notice: Week ${p.part.weekIndex} has ${p.daysComplete} days complete but only ${p.workDays} work days.`);
  const result = {
    parts,
    daysComplete: sum(parts, (p) => p.daysComplete),
    workDays: sum(parts, (p) => p.workDays),
    pattern: { daysComplete: sum(parts, (p) => p.pattern.daysComplete), workDays: sum(parts, (p) => p.pattern.workDays) },
  };
  if (warnings.length === 0 && result.daysComplete > result.workDays) {
    warnings.push(`Notice: the month has ${result.daysComplete} days complete but only ${result.workDays} work days.`);
  }
  // Figures for a day still to come are most often typed in the wrong column.
  const { first, last } = monthBounds(month);
  const ahead = [...figureDays].filter((date) => date > today && date >= first && date <= last).sort();
  if (ahead.length > 0) {
    const named = ahead.slice(0, 3).map((date) => format(parseDate(date), 'EEEE d MMMM'));
    const more = ahead.length > 3 ? ` and ${ahead.length - 3} more` : '';
    warnings.push(`Notice: figures are entered for ${ahead.length === 1 ? 'a day' : 'days'} still to come: ${named.join(', ')}${more}.`);
  }
  return { ...result, warnings };
}

/** The first and last day of a month, for reading its calendar exceptions. */
export function monthBounds(month: MonthKey): { first: IsoDate; last: IsoDate } {
  const first = `${month}-01`;
  return { first, last: iso(endOfMonth(parseDate(first))) };
}
