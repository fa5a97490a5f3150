/**
 * A dealer system's labour-sales report read with the store's mapping: each day's hours
 * and sales by labour category, and each line that cannot be taken with its reason.
 *
 * A line is taken whole or not at all: one cell that is not a number, a date that does not
 * read, an unknown pay type or a figure outside its field's limit refuses the line, and
 * nothing of it is imported. A line of a total ("Total", "Grand total") is no day. An
 * empty figure cell means the report has no figure there: it changes nothing (it never
 * empties a value typed in the app). In the pay-type layout several codes of one category
 * on one day add up (a store may map C and CS both to customer pay); the same code twice
 * on a day, or the same day twice in the columns layout, is refused on every line it is
 * on, as the file cannot say which figure is right. docs/import.md.
 */
import type { IsoDate } from '../calendar.ts';
import type { Category } from '../kpi-math.ts';
import { fieldName, numberLimitOf, numberProblem, shorten } from '../field-rules.ts';
import { fieldLimits, importLimits } from '../limits.ts';
import type { CsvFile, CsvRecord, Refused } from './csv-file.ts';
import type { ImportMapping } from './mapping.ts';
import { categories, categoryNames, codeKey, findHeadingsFor, headingKey, missingHeadings } from './mapping.ts';
import { isTotalLabel, readDate, readNumber } from './report-values.ts';

export type ImportMetric = 'hours' | 'sales';
const metrics: readonly ImportMetric[] = ['hours', 'sales'];

/** One value of the daily grid the file gives: a day, a category, hours or sales. */
export type ImportedCell = { date: IsoDate; row: Category; metric: ImportMetric; value: number; lines: number[] };
export type LineRefusal = { line: number; reason: string };
export type ReadReport = {
  ok: true;
  /** The file's line number of the headings. */
  headingLine: number;
  /** Lines below the headings that hold anything. */
  dataLines: number;
  cells: ImportedCell[];
  refusals: LineRefusal[];
};

const grouped = new Intl.NumberFormat('en-US');
const cellKeyOf = (date: IsoDate, row: Category, metric: ImportMetric) => `${date}|${row}|${metric}`;

/** A line's figures once read, before lines are put together. */
type LineFigures = { line: number; date: IsoDate; category: Category | null; code: string | null; values: Array<{ row: Category; metric: ImportMetric; value: number }> };

type Columns = { date: number; payType: number; byMetric: Array<{ row: Category | null; metric: ImportMetric; column: number; heading: string }> };

function columnsOf(headings: readonly string[], mapping: ImportMapping): Columns {
  const index = (heading: string | null) => (heading === null ? -1 : headings.findIndex((cell) => headingKey(cell) === headingKey(heading)));
  const byMetric: Columns['byMetric'] = [];
  if (mapping.layout === 'pay-type') {
    if (mapping.hoursColumn) byMetric.push({ row: null, metric: 'hours', column: index(mapping.hoursColumn), heading: mapping.hoursColumn });
    if (mapping.salesColumn) byMetric.push({ row: null, metric: 'sales', column: index(mapping.salesColumn), heading: mapping.salesColumn });
  } else {
    for (const row of categories) {
      for (const metric of metrics) {
        const heading = mapping.columns[row][metric];
        if (heading) byMetric.push({ row, metric, column: index(heading), heading });
      }
    }
  }
  return { date: index(mapping.dateColumn), payType: mapping.layout === 'pay-type' ? index(mapping.payTypeColumn) : -1, byMetric };
}

/** The category of a pay-type code, by the mapping; null when the mapping does not name it. */
function categoryOf(mapping: ImportMapping, code: string): Category | null {
  if (mapping.layout !== 'pay-type') return null;
  return categories.find((category) => mapping.payTypes[category].some((mapped) => codeKey(mapped) === codeKey(code))) ?? null;
}

const yearLimit = fieldLimits.daily_inputs.year;

/** Reads one line: its figures, or why it is refused, or null when it holds none of the mapped cells. */
function readLine(record: CsvRecord, columns: Columns, mapping: ImportMapping): LineFigures | LineRefusal | null {
  const cell = (column: number) => (column >= 0 ? (record.cells[column] ?? '').trim() : '');
  const dateText = cell(columns.date);
  const codeText = cell(columns.payType);
  const figureTexts = columns.byMetric.map((entry) => cell(entry.column));
  if (dateText === '' && codeText === '' && figureTexts.every((text) => text === '')) return null;
  const refuse = (reason: string): LineRefusal => ({ line: record.line, reason });

  if (isTotalLabel(dateText) || (mapping.layout === 'pay-type' && isTotalLabel(codeText))) return refuse(`a total line ("${shorten(dateText || codeText)}"), not a day`);
  const date = readDate(dateText, mapping.dateFormat);
  if (!date.ok) return refuse(date.problem === 'no date' ? 'no date in the date column' : date.problem);
  const year = Number(date.value.slice(0, 4));
  if (numberProblem(yearLimit, year)) return refuse(`${date.value} is outside the years the app keeps (${yearLimit.min} to ${yearLimit.max})`);

  let category: Category | null = null;
  if (mapping.layout === 'pay-type') {
    if (codeText === '') return refuse('no pay type');
    category = categoryOf(mapping, codeText);
    if (!category) return refuse(`pay type "${shorten(codeText)}" is not mapped to customer pay, warranty or internal`);
  }

  const values: LineFigures['values'] = [];
  for (const [index, entry] of columns.byMetric.entries()) {
    const read = readNumber(figureTexts[index] ?? '', mapping.decimalMark);
    if (!read.ok) return refuse(`${entry.heading}: ${read.problem}`);
    if (read.value === null) continue;
    const row = (entry.row ?? category) as Category;
    const problem = valueProblemOf(date.value, row, entry.metric, read.value);
    if (problem) return refuse(problem);
    values.push({ row, metric: entry.metric, value: read.value });
  }
  return { line: record.line, date: date.value, category, code: mapping.layout === 'pay-type' ? codeKey(codeText) : null, values };
}

/** A figure outside its field's limit, named as the grid names the cell ("CP Hours 2026-07-14: 1,200 is not allowed; ..."). */
function valueProblemOf(date: IsoDate, row: Category, metric: ImportMetric, value: number): string | null {
  const limit = numberLimitOf('daily_inputs', 'value', { metric_type: metric });
  const problem = numberProblem(limit, value);
  if (!problem) return null;
  const name = fieldName('daily_inputs', 'value', { entry_date: date, row_identifier: row, metric_type: metric });
  return `${name}: ${grouped.format(value)} is not allowed; ${problem}`;
}

/** The lines that name the same day (and category) where the file may name it only once, with the reason for each. */
function duplicates(lines: readonly LineFigures[], mapping: ImportMapping): Map<number, string> {
  const groups = new Map<string, LineFigures[]>();
  for (const line of lines) {
    const key = mapping.layout === 'pay-type' ? `${line.date}|${line.category}` : line.date;
    groups.set(key, [...(groups.get(key) ?? []), line]);
  }
  const refused = new Map<number, string>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const where = `lines ${group.map((line) => grouped.format(line.line)).join(', ')}`;
    if (mapping.layout === 'columns') {
      const first = group[0] as LineFigures;
      for (const line of group) refused.set(line.line, `${first.date} is on ${where}; the import takes one line per day`);
      continue;
    }
    const codes = group.map((line) => line.code);
    const repeated = codes.find((code, index) => codes.indexOf(code) !== index);
    if (repeated === undefined) continue;
    const first = group[0] as LineFigures;
    const category = first.category as Category;
    for (const line of group) {
      refused.set(line.line, `${categoryNames[category]} (${category}) of ${first.date} is on ${where} with the same pay type "${shorten(repeated ?? '')}"; the import takes one line per day and pay type`);
    }
  }
  return refused;
}

/** Sums kept to the cent, as the fields keep them (0.1 + 0.2 is 0.3). */
const toCents = (value: number) => Math.round(value * 100) / 100;

/** The grid's values the lines give, by cell; a cell several lines give (codes of one category) adds them up. */
function addUp(lines: readonly LineFigures[]): Map<string, ImportedCell> {
  const cells = new Map<string, ImportedCell>();
  for (const line of lines) {
    for (const { row, metric, value } of line.values) {
      const key = cellKeyOf(line.date, row, metric);
      const cell = cells.get(key);
      if (cell) {
        cell.value = toCents(cell.value + value);
        cell.lines.push(line.line);
      } else cells.set(key, { date: line.date, row, metric, value, lines: [line.line] });
    }
  }
  return cells;
}

/** Reads the report with the mapping; the whole file is refused when the mapping's headings are not in it, or when it is too long. */
export function readReport(file: CsvFile, mapping: ImportMapping): ReadReport | Refused {
  const headingIndex = findHeadingsFor(file.records, mapping);
  if (headingIndex < 0) {
    const { line, missing } = missingHeadings(file.records, mapping);
    const found = line ? ` The headings on line ${grouped.format(line.line)} are: ${line.cells.filter((c) => c.trim() !== '').map((c) => shorten(c.trim(), 40)).join(', ')}.` : '';
    return {
      ok: false,
      message: `The file has no column ${missing.map((heading) => `"${heading}"`).join(', ')}, which the mapping names.${found} Choose the columns again, or export the report with these columns.`,
    };
  }
  const headingRecord = file.records[headingIndex] as CsvRecord;
  const data = file.records.slice(headingIndex + 1);
  if (data.length > importLimits.dataLines) {
    return { ok: false, message: `The file has ${grouped.format(data.length)} lines of figures; the import reads up to ${grouped.format(importLimits.dataLines)} at once. Export a shorter period.` };
  }
  const columns = columnsOf(headingRecord.cells, mapping);
  const refusals: LineRefusal[] = [];
  const taken: LineFigures[] = [];
  for (const record of data) {
    const read = readLine(record, columns, mapping);
    if (read === null) continue;
    if ('reason' in read) refusals.push(read);
    else taken.push(read);
  }

  const twice = duplicates(taken, mapping);
  for (const line of taken) {
    const reason = twice.get(line.line);
    if (reason) refusals.push({ line: line.line, reason });
  }
  let cells = addUp(taken.filter((line) => !twice.has(line.line)));
  // Codes added up may pass a field's limit each line kept to: those lines are refused whole, and the rest added up again.
  const over = new Map<number, string>();
  for (const cell of cells.values()) {
    const problem = cell.lines.length > 1 ? valueProblemOf(cell.date, cell.row, cell.metric, cell.value) : null;
    for (const line of problem ? cell.lines : []) over.set(line, `${problem} (lines ${cell.lines.map((n) => grouped.format(n)).join(', ')} add up to it)`);
  }
  if (over.size > 0) {
    for (const [line, reason] of over) refusals.push({ line, reason });
    cells = addUp(taken.filter((line) => !twice.has(line.line) && !over.has(line.line)));
  }
  const order = (cell: ImportedCell) => `${cell.date}|${categories.indexOf(cell.row)}|${metrics.indexOf(cell.metric)}`;
  return {
    ok: true,
    headingLine: headingRecord.line,
    dataLines: data.length,
    cells: [...cells.values()].sort((a, b) => (order(a) < order(b) ? -1 : 1)),
    refusals: refusals.sort((a, b) => a.line - b.line),
  };
}
