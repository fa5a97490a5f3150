/**
 * Numbers and dates as a dealer system's export writes them, read the way the store's
 * mapping says: a decimal point with thousands commas (1,234.50) or a decimal comma with
 * thousands points or spaces (1.234,50), and one date layout. Nothing is guessed per
 * cell: "1,2,3" is not a number in either way of writing, and a date that does not fit
 * the layout (or is not in the calendar) is refused, never read another way.
 * docs/import.md.
 */
import type { IsoDate } from '../calendar.ts';
import { shorten } from '../field-rules.ts';

export type DecimalMark = '.' | ',';

export type ReadValue<T> = { ok: true; value: T } | { ok: false; problem: string };

/** How a person recognises each way of writing numbers. */
export const decimalMarkExamples: Record<DecimalMark, string> = { '.': '1,234.50', ',': '1.234,50' };

// Digits in groups of three after the first one to three, or no grouping at all; decimals after the mark.
const pointNumber = /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$|^\.\d+$/;
const commaNumber = /^(?:\d{1,3}(?:[. ]\d{3})+|\d+)(?:,\d+)?$|^,\d+$/;

/**
 * A number cell: null when blank (the report has no figure there), the number when it is
 * one as the mapping writes them. A currency sign and a minus sign or accounting
 * parentheses are read (the field limits then refuse a negative figure with their reason).
 */
export function readNumber(text: string, mark: DecimalMark): ReadValue<number | null> {
  // No-break and thin spaces are thousands separators in some locales' exports.
  let body = text.replace(/[\u00a0\u202f]/g, ' ').trim();
  if (body === '') return { ok: true, value: null };
  let negative = false;
  if (/^\(.*\)$/.test(body)) {
    negative = true;
    body = body.slice(1, -1).trim();
  }
  body = body.replace(/^[$€£]\s*|\s*[$€£]$/g, '').trim();
  if (body.startsWith('-')) {
    negative = !negative;
    body = body.slice(1).trim();
  } else if (body.startsWith('+')) body = body.slice(1).trim();
  const pattern = mark === '.' ? pointNumber : commaNumber;
  if (!pattern.test(body)) {
    return { ok: false, problem: `"${shorten(text.trim())}" is not a number written as ${decimalMarkExamples[mark]}` };
  }
  const plain = mark === '.' ? body.replaceAll(',', '') : body.replace(/[. ]/g, '').replace(',', '.');
  const value = Number(plain) * (negative ? -1 : 1) + 0;
  return Number.isFinite(value) ? { ok: true, value } : { ok: false, problem: `"${shorten(text.trim())}" is not a number written as ${decimalMarkExamples[mark]}` };
}

export const dateFormats = ['YYYY-MM-DD', 'MM/DD/YYYY', 'DD/MM/YYYY', 'DD.MM.YYYY', 'DD-MM-YYYY', 'MM/DD/YY', 'DD/MM/YY', 'DD.MM.YY', 'YYYYMMDD'] as const;
export type DateFormat = (typeof dateFormats)[number];

export function isDateFormat(value: unknown): value is DateFormat {
  return typeof value === 'string' && (dateFormats as readonly string[]).includes(value);
}

/** July 14, 2026 in each layout, for the mapping's choices. */
export const dateFormatExamples: Record<DateFormat, string> = {
  'YYYY-MM-DD': '2026-07-14',
  'MM/DD/YYYY': '07/14/2026',
  'DD/MM/YYYY': '14/07/2026',
  'DD.MM.YYYY': '14.07.2026',
  'DD-MM-YYYY': '14-07-2026',
  'MM/DD/YY': '07/14/26',
  'DD/MM/YY': '14/07/26',
  'DD.MM.YY': '14.07.26',
  YYYYMMDD: '20260714',
};

type Parts = { year: number; month: number; day: number };

// Day and month may be written with one digit; Excel's copies often carry a midnight time after the date.
const time = String.raw`(?:[ T]\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:\s*[AaPp][Mm])?)?`;
const layouts: Record<DateFormat, { pattern: RegExp; parts(match: RegExpExecArray): Parts }> = {
  'YYYY-MM-DD': { pattern: new RegExp(`^(\\d{4})-(\\d{1,2})-(\\d{1,2})${time}$`), parts: (m) => ({ year: +m[1]!, month: +m[2]!, day: +m[3]! }) },
  'MM/DD/YYYY': { pattern: new RegExp(`^(\\d{1,2})/(\\d{1,2})/(\\d{4})${time}$`), parts: (m) => ({ year: +m[3]!, month: +m[1]!, day: +m[2]! }) },
  'DD/MM/YYYY': { pattern: new RegExp(`^(\\d{1,2})/(\\d{1,2})/(\\d{4})${time}$`), parts: (m) => ({ year: +m[3]!, month: +m[2]!, day: +m[1]! }) },
  'DD.MM.YYYY': { pattern: new RegExp(`^(\\d{1,2})\\.(\\d{1,2})\\.(\\d{4})${time}$`), parts: (m) => ({ year: +m[3]!, month: +m[2]!, day: +m[1]! }) },
  'DD-MM-YYYY': { pattern: new RegExp(`^(\\d{1,2})-(\\d{1,2})-(\\d{4})${time}$`), parts: (m) => ({ year: +m[3]!, month: +m[2]!, day: +m[1]! }) },
  // Two-digit years are this century's: the product keeps 2000 to 2100.
  'MM/DD/YY': { pattern: new RegExp(`^(\\d{1,2})/(\\d{1,2})/(\\d{2})${time}$`), parts: (m) => ({ year: 2000 + +m[3]!, month: +m[1]!, day: +m[2]! }) },
  'DD/MM/YY': { pattern: new RegExp(`^(\\d{1,2})/(\\d{1,2})/(\\d{2})${time}$`), parts: (m) => ({ year: 2000 + +m[3]!, month: +m[2]!, day: +m[1]! }) },
  'DD.MM.YY': { pattern: new RegExp(`^(\\d{1,2})\\.(\\d{1,2})\\.(\\d{2})${time}$`), parts: (m) => ({ year: 2000 + +m[3]!, month: +m[2]!, day: +m[1]! }) },
  YYYYMMDD: { pattern: /^(\d{4})(\d{2})(\d{2})$/, parts: (m) => ({ year: +m[1]!, month: +m[2]!, day: +m[3]! }) },
};

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A date cell in the mapping's layout, as yyyy-MM-dd; refused when it does not fit the layout or the calendar. */
export function readDate(text: string, format: DateFormat): ReadValue<IsoDate> {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, problem: 'no date' };
  const layout = layouts[format];
  const match = layout.pattern.exec(trimmed);
  if (!match) return { ok: false, problem: `"${shorten(trimmed)}" is not a date written as ${format} (${dateFormatExamples[format]})` };
  const { year, month, day } = layout.parts(match);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) {
    return { ok: false, problem: `"${shorten(trimmed)}" read as ${format} is no day of the calendar` };
  }
  return { ok: true, value: `${pad(year, 4)}-${pad(month)}-${pad(day)}` };
}

/** Words a report's total line carries in its date column: such a line is no day. */
export function isTotalLabel(text: string): boolean {
  return /^(grand\s+)?totals?\b|^sum(me)?\b|^gesamt|^total\s/i.test(text.trim());
}
