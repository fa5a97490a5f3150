/**
 * Applying the field limits of limits.ts: the limit of a column for a given row, whether a
 * value keeps to it, how to name the field and its range in a sentence, and which field a
 * database constraint name stands for. Pure: the device's parsing, the data layer's
 * check before queueing, and the sync panel's explanations all build on it.
 */
import type { CodeLimit, FieldLimit, ListLimit, NumberLimit, TextLimit } from './limits.ts';
import { fieldLimits } from './limits.ts';
import { monthNames } from './month.ts';
import { isWeekPartStart, weekPartLength } from './work-days.ts';

export type RowValues = Readonly<Record<string, unknown>>;
export type ResolvedLimit = NumberLimit | TextLimit | CodeLimit | ListLimit;

const tables: Readonly<Record<string, Readonly<Record<string, FieldLimit>>>> = fieldLimits;

/**
 * The limit of one column for this row: a dependent limit (daily value, target value)
 * picks the case its row names. Undefined when the column has no limit, or when the row
 * names a case the table does not know (the code column's own limit refuses that).
 */
export function limitOf(table: string, column: string, row: RowValues = {}): ResolvedLimit | undefined {
  const limit = Object.hasOwn(tables, table) && Object.hasOwn(tables[table] ?? {}, column) ? tables[table]?.[column] : undefined;
  if (!limit || limit.kind !== 'depends') return limit && narrowedByRow(table, column, limit, row);
  const on = row[limit.on];
  return typeof on === 'string' && Object.hasOwn(limit.cases, on) ? limit.cases[on] : limit.otherwise;
}

/**
 * A week part holds at most its own days (a week's first days in a month may be only one
 * or two): the database's week_holds_* rules. The row's start date says which part it is.
 */
function narrowedByRow(table: string, column: string, limit: Exclude<FieldLimit, { kind: 'depends' }>, row: RowValues): ResolvedLimit {
  const start = row.week_start_date;
  if (table !== 'weekly_store_performance' || (column !== 'days_complete' && column !== 'work_days')) return limit;
  if (!isNumberLimit(limit) || typeof start !== 'string' || !isoDate.test(start)) return limit;
  if (!isWeekPartStart(start)) return limit;
  return { ...limit, max: Math.min(limit.max, weekPartLength(start)) };
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/** The number limit of a column a person types into; throws when the column is not a number (a programming error). */
export function numberLimitOf(table: string, column: string, row: RowValues = {}): NumberLimit {
  const limit = limitOf(table, column, row);
  if (!limit || !isNumberLimit(limit)) throw new Error(`${table}.${column} has no number limit`);
  return limit;
}

export function isNumberLimit(limit: ResolvedLimit): limit is NumberLimit {
  return limit.kind !== 'text' && limit.kind !== 'code' && limit.kind !== 'list';
}

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** "a whole number from 0 to 7", "a number from -10,000,000 to 10,000,000". */
export function rangeText(limit: NumberLimit): string {
  // Years are written without a thousands separator.
  const show = (n: number) => (limit.kind === 'year' ? String(n) : grouped.format(n));
  return `a ${limit.whole ? 'whole ' : ''}number from ${show(limit.min)} to ${show(limit.max)}`;
}

/** Decimal places of a finite number as JavaScript writes it (the shortest form that reads back the same). */
export function decimalPlaces(value: number): number {
  const [mantissa = '', exponent = '0'] = String(Math.abs(value)).split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

/** What is wrong with a number for its limit ("enter a number from 0 to 24"), or null when it keeps to it. */
export function numberProblem(limit: NumberLimit, value: number): string | null {
  if (!Number.isFinite(value) || value < limit.min || value > limit.max) return `enter ${rangeText(limit)}`;
  if (limit.whole && !Number.isInteger(value)) return `enter ${rangeText(limit)}`;
  if (decimalPlaces(value) > limit.decimals) return `enter ${rangeText(limit)} with at most ${limit.decimals} decimals`;
  return null;
}

/** Characters as Postgres counts them (code points), not UTF-16 units: an emoji is one. */
export const characterCount = (text: string) => [...text].length;

/** What is wrong with a stored value for its limit, or null when it keeps to it (null values always do, but for required text). */
export function valueProblem(limit: ResolvedLimit, value: unknown): string | null {
  if (value === null || value === undefined) return limit.kind === 'text' && limit.required ? 'must not be empty' : null;
  switch (limit.kind) {
    case 'text':
      if (typeof value !== 'string') return 'must be text';
      if (limit.required && value.trim() === '') return 'must not be empty';
      return characterCount(value) > limit.maxLength ? `enter at most ${grouped.format(limit.maxLength)} characters` : null;
    case 'code':
      if (typeof value !== 'string' || characterCount(value) > limit.maxLength) return `is not a known ${limit.label.toLowerCase()}`;
      if (limit.values && !limit.values.includes(value)) return `must be one of ${limit.values.join(', ')}`;
      if (limit.pattern && !new RegExp(limit.pattern).test(value)) return `"${value}" is not a valid ${limit.label.toLowerCase()}`;
      return null;
    case 'list':
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return 'must be a list of names';
      return value.length > limit.maxItems ? `can hold at most ${limit.maxItems} items` : null;
    default:
      if (typeof value !== 'number') return `"${shorten(String(value))}" is not a number; enter ${rangeText(limit)}`;
      return numberProblem(limit, value);
  }
}


/** Where a row sits in time, as people say it: "2026-11-03", "week of 2026-09-27", "March 2026". */
function rowWhen(row: RowValues): string | null {
  if (typeof row.entry_date === 'string') return row.entry_date;
  if (typeof row.week_start_date === 'string') return `week of ${row.week_start_date}`;
  const [y, m] = typeof row.month_year === 'string' ? row.month_year.split('-').map(Number) : [Number(row.year), Number(row.month)];
  return y && m && monthNames[m - 1] ? `${monthNames[m - 1]} ${y}` : null;
}

/**
 * A field named for a person: the same words the screen's cell uses where the row says
 * enough ("CP Hours 2026-11-03"), else the field's label with the row's date or month.
 */
export function fieldName(table: string, column: string, row: RowValues = {}): string {
  const label = limitOf(table, column, row)?.label ?? column;
  if (table === 'daily_inputs' && column === 'value' && typeof row.row_identifier === 'string') {
    return [row.row_identifier, label, row.entry_date].filter(Boolean).join(' ');
  }
  const what = typeof row.labor_type === 'string' ? `${label} (${row.labor_type})` : label;
  const when = rowWhen(row);
  return when ? `${what} ${when}` : what;
}

export type FieldProblem = { table: string; column: string; value: unknown; message: string };

/** The first field of a row (only the fields it carries) that breaks its limit, as a sentence; null when none does. */
export function rowProblem(table: string, row: RowValues): FieldProblem | null {
  for (const [column, value] of Object.entries(row)) {
    const limit = limitOf(table, column, row);
    const problem = limit ? valueProblem(limit, value) : null;
    if (problem) return { table, column, value, message: `${fieldName(table, column, row)}: ${problem}.` };
  }
  return null;
}

/** Constraint names the migrations give each limited column: ours (_in_range, _length) and Postgres' default (_check). */
const constraintIndex = new Map<string, { table: string; column: string }>(
  Object.entries(tables).flatMap(([table, columns]) =>
    Object.keys(columns).flatMap((column) =>
      ['in_range', 'length', 'check'].map((suffix) => [`${table}_${column}_${suffix}`, { table, column }] as const),
    ),
  ),
);

/** Rules across fields that still guard one field's value: a week part's days. */
const rowRuleFields: Record<string, { table: string; column: string }> = {
  weekly_store_performance_week_holds_days_complete: { table: 'weekly_store_performance', column: 'days_complete' },
  weekly_store_performance_week_holds_work_days: { table: 'weekly_store_performance', column: 'work_days' },
};

/** The field a CHECK constraint guards, from its name; undefined for constraints across fields. */
export function constraintField(name: string): { table: string; column: string } | undefined {
  return constraintIndex.get(name) ?? rowRuleFields[name];
}

/** Long pasted text is shown by its start only. */
export function shorten(text: string, max = 24): string {
  const characters = [...text];
  return characters.length > max ? `${characters.slice(0, max).join('')}…` : text;
}
