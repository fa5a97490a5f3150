/**
 * The store's mapping of its dealer system's export: which column holds the date, how
 * dates and numbers are written, and where the hours and sales of each labour category
 * are. Two layouts cover the reports dealer systems write: a line per date and pay type
 * (a pay-type column whose codes the store maps to customer pay, warranty and internal,
 * beside one hours and one sales column), or a line per date with hours and sales columns
 * per category. The mapping is saved once for the store (store_settings.import_mapping,
 * as JSON) and found again in the next file by its headings, wherever the headings line
 * sits below the report's title lines. docs/import.md.
 */
import type { Category } from '../kpi-math.ts';
import { characterCount } from '../field-rules.ts';
import { fieldLimits, importLimits } from '../limits.ts';
import type { CsvFile, CsvRecord, Delimiter } from './csv-file.ts';
import { delimiters } from './csv-file.ts';
import type { DateFormat, DecimalMark } from './report-values.ts';
import { dateFormats, isDateFormat, readDate, readNumber } from './report-values.ts';

export const categories: readonly Category[] = ['CP', 'W', 'I'];
export const categoryNames: Record<Category, string> = { CP: 'customer pay', W: 'warranty', I: 'internal' };

type Common = { delimiter: Delimiter; decimalMark: DecimalMark; dateFormat: DateFormat; dateColumn: string };
/** A line per date and pay type: the pay type's code says the category. */
export type PayTypeMapping = Common & {
  layout: 'pay-type';
  payTypeColumn: string;
  hoursColumn: string | null;
  salesColumn: string | null;
  /** The codes of each category, as the file writes them (compared without case). */
  payTypes: Record<Category, string[]>;
};
export type CategoryColumns = Record<Category, { hours: string | null; sales: string | null }>;
/** A line per date, hours and sales columns per category. */
export type ColumnsMapping = Common & { layout: 'columns'; columns: CategoryColumns };
export type ImportMapping = PayTypeMapping | ColumnsMapping;

/** Headings match without regard to case or repeated spaces: exports differ in both from one version to the next. */
export const headingKey = (heading: string) => heading.trim().replace(/\s+/g, ' ').toLowerCase();
export const sameHeading = (a: string, b: string) => headingKey(a) === headingKey(b);
export const codeKey = headingKey;

/** Every heading the mapping names, with what it is for. */
export function mappedHeadings(mapping: ImportMapping): Array<{ heading: string; role: string }> {
  const named: Array<{ heading: string | null; role: string }> = [{ heading: mapping.dateColumn, role: 'the date' }];
  if (mapping.layout === 'pay-type') {
    named.push({ heading: mapping.payTypeColumn, role: 'the pay type' }, { heading: mapping.hoursColumn, role: 'the hours' }, { heading: mapping.salesColumn, role: 'the sales' });
  } else {
    for (const category of categories) {
      named.push({ heading: mapping.columns[category].hours, role: `${categoryNames[category]} hours` }, { heading: mapping.columns[category].sales, role: `${categoryNames[category]} sales` });
    }
  }
  return named.filter((entry): entry is { heading: string; role: string } => typeof entry.heading === 'string' && entry.heading.trim() !== '');
}

/** What keeps a mapping from being used, as a sentence; null when it is complete. */
export function mappingProblem(mapping: ImportMapping): string | null {
  if (!mapping.dateColumn.trim()) return 'Choose the column that holds the date.';
  const named = mappedHeadings(mapping);
  const long = named.find((entry) => characterCount(entry.heading) > importLimits.headingLength);
  if (long) return `The heading of ${long.role} is longer than ${importLimits.headingLength} characters.`;
  const twice = named.find((entry, index) => named.findIndex((other) => sameHeading(other.heading, entry.heading)) !== index);
  if (twice) return `The column "${twice.heading}" is chosen for two things; each figure needs its own column.`;
  if (mapping.layout === 'pay-type') {
    if (!mapping.payTypeColumn.trim()) return 'Choose the column that holds the pay type.';
    if (!mapping.hoursColumn && !mapping.salesColumn) return 'Choose the column of the hours, of the sales, or both.';
    const codes = categories.flatMap((category) => mapping.payTypes[category]);
    if (codes.length === 0) return 'Give the pay-type codes of customer pay, warranty or internal work (for example CP, W, I).';
    for (const category of categories) {
      const list = mapping.payTypes[category];
      if (list.length > importLimits.payTypeCodes) return `At most ${importLimits.payTypeCodes} pay-type codes for ${categoryNames[category]}.`;
      const tooLong = list.find((code) => characterCount(code) > importLimits.payTypeCodeLength);
      if (tooLong) return `The pay-type code "${tooLong.slice(0, 20)}…" is longer than ${importLimits.payTypeCodeLength} characters.`;
    }
    const repeated = codes.find((code, index) => codes.findIndex((other) => codeKey(other) === codeKey(code)) !== index);
    if (repeated) return `The pay-type code "${repeated}" is given for two categories (or twice); give each code once.`;
  } else if (named.length === 1) {
    return 'Choose at least one column of hours or sales.';
  }
  return characterCount(serializeMapping(mapping)) > fieldLimits.store_settings.import_mapping.maxLength
    ? 'This mapping is too long to save; use shorter headings or fewer pay-type codes.'
    : null;
}

/** The mapping as the store keeps it: JSON with a version, so a later release can read an older one. */
export function serializeMapping(mapping: ImportMapping): string {
  return JSON.stringify({ version: 1, ...mapping });
}

const isText = (value: unknown, max: number): value is string => typeof value === 'string' && characterCount(value) <= max;
const isHeading = (value: unknown): value is string => isText(value, importLimits.headingLength) && value.trim() !== '';
const isOptionalHeading = (value: unknown): value is string | null => value === null || isHeading(value);

/** The store's saved mapping, or null when there is none or it is not one this release reads (it is then mapped again). */
export function parseSavedMapping(saved: unknown): ImportMapping | null {
  if (typeof saved !== 'string' || saved === '') return null;
  let data: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(saved);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    data = parsed as Record<string, unknown>;
  } catch {
    return null;
  }
  const delimiter = delimiters.find((d) => d === data.delimiter);
  const decimalMark = data.decimalMark === '.' || data.decimalMark === ',' ? data.decimalMark : null;
  if (data.version !== 1 || !delimiter || !decimalMark || !isDateFormat(data.dateFormat) || !isHeading(data.dateColumn)) return null;
  const common: Common = { delimiter, decimalMark, dateFormat: data.dateFormat, dateColumn: data.dateColumn };
  let mapping: ImportMapping;
  if (data.layout === 'pay-type') {
    const payTypes = data.payTypes as Record<string, unknown> | null;
    if (!isHeading(data.payTypeColumn) || !isOptionalHeading(data.hoursColumn) || !isOptionalHeading(data.salesColumn) || !payTypes || typeof payTypes !== 'object') return null;
    const codes = {} as Record<Category, string[]>;
    for (const category of categories) {
      const list = payTypes[category];
      if (!Array.isArray(list) || !list.every((code) => isText(code, importLimits.payTypeCodeLength) && code.trim() !== '')) return null;
      codes[category] = list as string[];
    }
    mapping = { ...common, layout: 'pay-type', payTypeColumn: data.payTypeColumn, hoursColumn: data.hoursColumn, salesColumn: data.salesColumn, payTypes: codes };
  } else if (data.layout === 'columns') {
    const columns = data.columns as Record<string, { hours?: unknown; sales?: unknown } | undefined> | null;
    if (!columns || typeof columns !== 'object') return null;
    const read = {} as CategoryColumns;
    for (const category of categories) {
      const entry = columns[category];
      if (!entry || !isOptionalHeading(entry.hours ?? null) || !isOptionalHeading(entry.sales ?? null)) return null;
      read[category] = { hours: (entry.hours as string | null) ?? null, sales: (entry.sales as string | null) ?? null };
    }
    mapping = { ...common, layout: 'columns', columns: read };
  } else {
    return null;
  }
  return mappingProblem(mapping) ? null : mapping;
}

/** Lines looked at for the headings: a report's title block is a few lines. */
const headingSearchLines = 50;

/** The index of the headings line: the first line holding every heading the mapping names; -1 when none does. */
export function findHeadingsFor(records: readonly CsvRecord[], mapping: ImportMapping): number {
  const wanted = mappedHeadings(mapping).map((entry) => headingKey(entry.heading));
  return records.slice(0, headingSearchLines).findIndex((record) => {
    const keys = new Set(record.cells.map(headingKey));
    return wanted.every((key) => keys.has(key));
  });
}

/** The headings the mapping names that the file's best headings line lacks (for the message when none has them all). */
export function missingHeadings(records: readonly CsvRecord[], mapping: ImportMapping): { line: CsvRecord | null; missing: string[] } {
  const named = mappedHeadings(mapping);
  let best: { line: CsvRecord | null; missing: string[] } = { line: null, missing: named.map((entry) => entry.heading) };
  for (const record of records.slice(0, headingSearchLines)) {
    const keys = new Set(record.cells.map(headingKey));
    const missing = named.filter((entry) => !keys.has(headingKey(entry.heading))).map((entry) => entry.heading);
    if (missing.length < best.missing.length) best = { line: record, missing };
  }
  return best;
}

const hasLetter = /\p{L}/u;

/**
 * The headings line of a file never mapped: of the first lines whose cells are all words
 * (no figures), two or more, with a line of figures at least as wide right below, the one
 * with the most such cells. A report's title lines ("Store,Demo Motors") are narrower
 * than its table.
 */
export function guessHeadings(records: readonly CsvRecord[]): number {
  let best = { index: records.length > 0 ? 0 : -1, width: 0 };
  for (let index = 0; index < Math.min(records.length, headingSearchLines); index += 1) {
    const filled = (records[index] as CsvRecord).cells.filter((cell) => cell.trim() !== '');
    if (filled.length <= best.width || !filled.every((cell) => hasLetter.test(cell))) continue;
    const below = records[index + 1];
    if (below && below.cells.length >= filled.length && below.cells.some((cell) => /\d/.test(cell))) best = { index, width: filled.length };
  }
  return best.index;
}

// Words dealer systems and spreadsheets use in these headings (English, with the German, French and Spanish of European exports).
const dateWords = /^(date|day|datum|fecha|jour|tag)$|\bdate\b|datum/i;
const payTypeWords = /pay\s*type|paytype|pay\s*code|labou?r\s*type|sale\s*type|lohnart|zahlart|^type$|^pay$|type\s*de\s*paie|tipo/i;
const hoursWords = /hours|\bhrs?\b|stunden|\bstd\b|heures|horas/i;
const salesWords = /sales|amount|revenue|umsatz|betrag|\$|€|montant|ventas|importe|dollars/i;
const categoryWords: Record<Category, RegExp> = {
  CP: /\b(cp|c\/p|cust(omer)?|retail|kunde|client)\b|^c\s/i,
  W: /\b(w|wty|war|warr|warranty|garantie|gew(ä|ae)hrleistung|garant[ií]a)\b|^w\s/i,
  I: /\b(i|int|internal|intern|interne?|interno)\b|^i\s/i,
};

/** Pay-type codes dealer systems commonly write for each category (compared without case). */
const knownCodes: Record<Category, readonly string[]> = {
  CP: ['cp', 'c', 'cust', 'customer', 'customer pay', 'retail', 'r', 'k', 'kunde', 'client'],
  W: ['w', 'wp', 'wty', 'war', 'warr', 'warranty', 'g', 'gw', 'garantie', 'garantia'],
  I: ['i', 'int', 'internal', 'intern', 'interne', 'interno'],
};

/** The values found in a column, below the headings (a sample of the first lines). */
function columnValues(file: CsvFile, headingIndex: number, heading: string | null, lines = 200): string[] {
  if (heading === null) return [];
  const headings = file.records[headingIndex]?.cells ?? [];
  const column = headings.findIndex((cell) => sameHeading(cell, heading));
  if (column < 0) return [];
  return file.records.slice(headingIndex + 1, headingIndex + 1 + lines).map((record) => (record.cells[column] ?? '').trim()).filter((value) => value !== '');
}

/** The way of writing numbers that reads the sample; a decimal comma when it can only be that, or when the file is separated by semicolons. */
function guessDecimalMark(samples: readonly string[], delimiter: Delimiter): DecimalMark {
  const commaOnly = samples.some((value) => readNumber(value, ',').ok && !readNumber(value, '.').ok);
  const pointOnly = samples.some((value) => readNumber(value, '.').ok && !readNumber(value, ',').ok);
  if (commaOnly && !pointOnly) return ',';
  if (pointOnly && !commaOnly) return '.';
  return delimiter === ';' ? ',' : '.';
}

/** The date layout that reads the most of the sample, in the order a file written that way would prefer. */
function guessDateFormat(samples: readonly string[], mark: DecimalMark): DateFormat {
  const european: DateFormat[] = ['DD.MM.YYYY', 'DD/MM/YYYY', 'DD-MM-YYYY', 'YYYY-MM-DD', 'DD.MM.YY', 'DD/MM/YY', 'YYYYMMDD', 'MM/DD/YYYY', 'MM/DD/YY'];
  const order = mark === ',' ? european : [...dateFormats];
  let best: { format: DateFormat; read: number } = { format: order[0] as DateFormat, read: -1 };
  for (const format of order) {
    const read = samples.filter((value) => readDate(value, format).ok).length;
    if (read > best.read) best = { format, read };
  }
  return best.format;
}

/** The category a pay-type code most likely stands for, or null for one the store must decide (sublet, a total...). */
function categoryOfCode(code: string): Category | null {
  return categories.find((category) => knownCodes[category].includes(codeKey(code))) ?? null;
}

/** The distinct pay-type codes of the file's pay-type column, in the order they first appear (at most a few dozen shown). */
export function payTypesInFile(file: CsvFile, headingIndex: number, payTypeColumn: string): string[] {
  const seen = new Map<string, string>();
  for (const value of columnValues(file, headingIndex, payTypeColumn, Infinity)) if (!seen.has(codeKey(value)) && seen.size < 50) seen.set(codeKey(value), value);
  return [...seen.values()];
}

/**
 * A first mapping for a file no mapping fits: the headings line, its columns by their
 * headings' words, the way numbers and dates are written by what the cells read as. The
 * person checks it in the preview and changes what is wrong before importing.
 */
export function suggestMapping(file: CsvFile): { mapping: ImportMapping; headingIndex: number } {
  const headingIndex = guessHeadings(file.records);
  const headings = (file.records[headingIndex]?.cells ?? []).map((cell) => cell.trim()).filter((cell) => cell !== '' && characterCount(cell) <= importLimits.headingLength);
  const taken = new Set<string>();
  const pick = (test: (heading: string) => boolean): string | null => {
    const found = headings.find((heading) => !taken.has(headingKey(heading)) && test(heading)) ?? null;
    if (found) taken.add(headingKey(found));
    return found;
  };
  const dateColumn = pick((h) => dateWords.test(h)) ?? headings[0] ?? '';
  taken.add(headingKey(dateColumn));
  const payTypeColumn = pick((h) => payTypeWords.test(h));
  const withCategory = (h: string) => categories.some((category) => categoryWords[category].test(h));
  const hoursColumn = payTypeColumn ? pick((h) => hoursWords.test(h) && !withCategory(h)) : null;
  const salesColumn = payTypeColumn ? pick((h) => salesWords.test(h) && !withCategory(h)) : null;
  let mapping: ImportMapping;
  const numberSamples: string[] = [];
  if (payTypeColumn && (hoursColumn || salesColumn)) {
    numberSamples.push(...columnValues(file, headingIndex, hoursColumn), ...columnValues(file, headingIndex, salesColumn));
    const payTypes: Record<Category, string[]> = { CP: [], W: [], I: [] };
    for (const code of payTypesInFile(file, headingIndex, payTypeColumn)) {
      const category = categoryOfCode(code);
      if (category && payTypes[category].length < importLimits.payTypeCodes) payTypes[category].push(code);
    }
    mapping = { delimiter: file.delimiter, decimalMark: '.', dateFormat: 'YYYY-MM-DD', dateColumn, layout: 'pay-type', payTypeColumn, hoursColumn, salesColumn, payTypes };
  } else {
    const columns = {} as CategoryColumns;
    for (const category of categories) {
      const hours = pick((h) => categoryWords[category].test(h) && hoursWords.test(h));
      const sales = pick((h) => categoryWords[category].test(h) && salesWords.test(h));
      columns[category] = { hours, sales };
      numberSamples.push(...columnValues(file, headingIndex, hours), ...columnValues(file, headingIndex, sales));
    }
    mapping = { delimiter: file.delimiter, decimalMark: '.', dateFormat: 'YYYY-MM-DD', dateColumn, layout: 'columns', columns };
  }
  const decimalMark = guessDecimalMark(numberSamples, file.delimiter);
  const dateFormat = guessDateFormat(columnValues(file, headingIndex, dateColumn), decimalMark);
  return { mapping: { ...mapping, decimalMark, dateFormat }, headingIndex };
}
