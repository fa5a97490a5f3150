/**
 * Bad input to the dealer-system import: a file that is not a CSV export, one too large
 * or too wide, a mapping whose headings the file lacks, and lines with numbers, dates,
 * pay types or figures the import cannot take. The file-wide problems refuse the file with
 * a sentence; a bad line is refused on its own, with its reason, and gives no value.
 */
import { describe, expect, it } from 'vitest';
import { decodeFile, readCsv } from '../../../src/domain/import/csv-file.ts';
import { openReport, readWithMapping } from '../../../src/domain/import/import-file.ts';
import type { ImportMapping } from '../../../src/domain/import/mapping.ts';
import { mappingProblem, parseSavedMapping, serializeMapping } from '../../../src/domain/import/mapping.ts';
import { readDate, readNumber } from '../../../src/domain/import/report-values.ts';
import { importLimits } from '../../../src/domain/limits.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

const payType: ImportMapping = {
  delimiter: ',',
  decimalMark: '.',
  dateFormat: 'MM/DD/YYYY',
  dateColumn: 'Date',
  layout: 'pay-type',
  payTypeColumn: 'Pay Type',
  hoursColumn: 'Hours',
  salesColumn: 'Sales',
  payTypes: { CP: ['CP'], W: ['W'], I: ['I'] },
};

function readLines(body: string[], mapping: ImportMapping = payType) {
  const report = readWithMapping(['Date,Pay Type,Hours,Sales', ...body].join('\n'), mapping);
  if (!report.ok) throw new Error(report.message);
  return report;
}

describe('files that are not a CSV export', () => {
  it('names a workbook, an old workbook and a PDF, and says what to do', () => {
    expect(decodeFile(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]))).toEqual({ ok: false, message: expect.stringMatching(/^This is an Excel workbook .* save it as "CSV \(Comma delimited\)"/) });
    expect(decodeFile(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1]))).toEqual({ ok: false, message: expect.stringMatching(/^This is an older Excel workbook \(\.xls\)/) });
    expect(decodeFile(bytes('%PDF-1.7 ...'))).toEqual({ ok: false, message: expect.stringMatching(/^This is a PDF, not a CSV export/) });
  });

  it('refuses an empty file, a binary one, and text without columns', () => {
    expect(decodeFile(new Uint8Array())).toEqual({ ok: false, message: 'This file is empty.' });
    expect(decodeFile(new Uint8Array(Array.from({ length: 64 }, (_, i) => i % 9)))).toEqual({ ok: false, message: 'This file is not text: choose the CSV export of the labour sales report.' });
    expect(openReport(bytes('Dear service manager,\nplease find the report attached\n'), null)).toEqual({
      ok: false,
      message: 'This file has no columns separated by commas, semicolons or tabs, so it is not a CSV export. Export the labour sales report as CSV.',
    });
  });

  it('refuses a file over the size limit before reading it', () => {
    const large = new Uint8Array(importLimits.fileBytes + 1).fill(0x41);
    expect(decodeFile(large)).toEqual({ ok: false, message: 'This file is 4.0 MB; the import reads files up to 4 MB (several years of days). Export a shorter period.' });
  });

  it('refuses a line wider than the column limit, and a quote never closed', () => {
    const wide = `${Array.from({ length: importLimits.columns + 1 }, (_, i) => `c${i}`).join(',')}\n`;
    expect(readCsv(`Date,Hours\n${wide}`)).toEqual({ ok: false, message: 'Line 2 has more than 200 columns; a labour sales report has a few dozen at most. Is this the right file?' });
    expect(readCsv(`Date,Hours\n07/01/2026,"12.5\n07/02/2026,13\n`)).toEqual({ ok: false, message: 'The quote opened on line 2 is never closed, so the file cannot be read past it. Export the report again.' });
  });

  it('refuses a file with more lines of figures than the limit', () => {
    const body = Array.from({ length: importLimits.dataLines + 1 }, () => '07/01/2026,CP,1,100');
    expect(readWithMapping(['Date,Pay Type,Hours,Sales', ...body].join('\n'), payType)).toEqual({
      ok: false,
      message: 'The file has 25,001 lines of figures; the import reads up to 25,000 at once. Export a shorter period.',
    });
  });

  it('reads Windows-1252 (older dealer systems and Excel) and UTF-16 text, and obeys Excel\'s "sep=" line', () => {
    // "Umsatz €" in Windows-1252: the euro sign is byte 0x80.
    const latin = new Uint8Array([...bytes('Datum;Umsatz '), 0x80, ...bytes('\n01.07.2026;1,5\n')]);
    expect(decodeFile(latin)).toEqual({ ok: true, text: 'Datum;Umsatz €\n01.07.2026;1,5\n' });
    const utf16 = new Uint8Array([0xff, 0xfe, ...[...'Date\tHours\n'].flatMap((c) => [c.charCodeAt(0), 0])]);
    expect(decodeFile(utf16)).toEqual({ ok: true, text: 'Date\tHours\n' });
    expect(readCsv('sep=;\nDate;Hours\n07/01/2026;1,5\n')).toEqual({ ok: true, delimiter: ';', records: [{ line: 2, cells: ['Date', 'Hours'] }, { line: 3, cells: ['07/01/2026', '1,5'] }] });
  });
});

describe('a mapping the file does not fit', () => {
  it('names the headings the file lacks and the headings it has', () => {
    const file = 'Labor report\nDate,Pay Type,Sold Hours,Labor Sales\n07/01/2026,CP,1,100\n';
    expect(readWithMapping(file, payType)).toEqual({
      ok: false,
      message: 'The file has no column "Hours", "Sales", which the mapping names. The headings on line 2 are: Date, Pay Type, Sold Hours, Labor Sales. Choose the columns again, or export the report with these columns.',
    });
  });

  it('says what is missing from an incomplete mapping', () => {
    expect(mappingProblem({ ...payType, dateColumn: ' ' })).toBe('Choose the column that holds the date.');
    expect(mappingProblem({ ...payType, hoursColumn: null, salesColumn: null })).toBe('Choose the column of the hours, of the sales, or both.');
    expect(mappingProblem({ ...payType, payTypes: { CP: [], W: [], I: [] } })).toBe('Give the pay-type codes of customer pay, warranty or internal work (for example CP, W, I).');
    expect(mappingProblem({ ...payType, payTypes: { CP: ['CP', 'w'], W: ['W'], I: ['I'] } })).toBe('The pay-type code "W" is given for two categories (or twice); give each code once.');
    expect(mappingProblem({ ...payType, salesColumn: 'hours' })).toBe('The column "hours" is chosen for two things; each figure needs its own column.');
  });

  it('reads no saved mapping that is not one: it is then mapped again', () => {
    expect(parseSavedMapping(null)).toBeNull();
    expect(parseSavedMapping('not json')).toBeNull();
    expect(parseSavedMapping('[]')).toBeNull();
    expect(parseSavedMapping(JSON.stringify({ version: 2, ...payType }))).toBeNull();
    expect(parseSavedMapping(serializeMapping({ ...payType, dateFormat: 'DD MMM YYYY' as 'YYYY-MM-DD' }))).toBeNull();
    expect(parseSavedMapping(serializeMapping({ ...payType, hoursColumn: 'x'.repeat(importLimits.headingLength + 1) }))).toBeNull();
    expect(parseSavedMapping(serializeMapping(payType))).toEqual(payType);
  });
});

describe('lines the import refuses, each with its reason, leaving the others', () => {
  it('refuses "1,2,3", a date it cannot read or that is no day, and a line without a date or pay type', () => {
    const report = readLines([
      '07/01/2026,CP,"1,2,3",100',
      '2026-07-02,CP,1,100',
      '02/30/2026,CP,1,100',
      ',CP,1,100',
      '07/05/2026,,1,100',
      '07/06/2026,CP,2.5,"1,250.00"',
    ]);
    expect(report.refusals).toEqual([
      { line: 2, reason: 'Hours: "1,2,3" is not a number written as 1,234.50' },
      { line: 3, reason: '"2026-07-02" is not a date written as MM/DD/YYYY (07/14/2026)' },
      { line: 4, reason: '"02/30/2026" read as MM/DD/YYYY is no day of the calendar' },
      { line: 5, reason: 'no date in the date column' },
      { line: 6, reason: 'no pay type' },
    ]);
    expect(report.cells.map((c) => [c.date, c.row, c.metric, c.value])).toEqual([
      ['2026-07-06', 'CP', 'hours', 2.5],
      ['2026-07-06', 'CP', 'sales', 1250],
    ]);
  });

  it("refuses a figure outside its field's limit, named as the grid names the cell, and the rest of its line with it", () => {
    const report = readLines(['07/01/2026,CP,1200,100', '07/02/2026,W,8,500001', '07/03/2026,I,1.125,10', '07/04/2026,CP,-2,-300', '07/05/2026,CP,(3),30', '01/01/1999,CP,1,1']);
    expect(report.refusals).toEqual([
      { line: 2, reason: 'CP Hours 2026-07-01: 1,200 is not allowed; enter a number from 0 to 1,000' },
      { line: 3, reason: 'W Sales 2026-07-02: 500,001 is not allowed; enter a number from 0 to 500,000' },
      { line: 4, reason: 'I Hours 2026-07-03: 1.125 is not allowed; enter a number from 0 to 1,000 with at most 2 decimals' },
      { line: 5, reason: 'CP Hours 2026-07-04: -2 is not allowed; enter a number from 0 to 1,000' },
      { line: 6, reason: 'CP Hours 2026-07-05: -3 is not allowed; enter a number from 0 to 1,000' },
      { line: 7, reason: '1999-01-01 is outside the years the app keeps (2000 to 2100)' },
    ]);
    expect(report.cells).toEqual([]);
  });

  it('refuses every line of a day and pay type the file gives twice, and a day the wide layout gives twice', () => {
    const report = readLines(['07/01/2026,CP,10,1000', '07/01/2026,W,5,500', '07/01/2026,CP,11,1100']);
    const same = 'customer pay (CP) of 2026-07-01 is on lines 2, 4 with the same pay type "cp"; the import takes one line per day and pay type';
    expect(report.refusals).toEqual([
      { line: 2, reason: same },
      { line: 4, reason: same },
    ]);
    expect(report.cells.map((c) => `${c.row} ${c.metric} ${c.value}`)).toEqual(['W hours 5', 'W sales 500']);

    const wide: ImportMapping = { delimiter: ',', decimalMark: '.', dateFormat: 'YYYY-MM-DD', dateColumn: 'Day', layout: 'columns', columns: { CP: { hours: 'CP Hrs', sales: null }, W: { hours: null, sales: null }, I: { hours: null, sales: null } } };
    const days = readWithMapping('Day,CP Hrs\n2026-07-01,3\n2026-07-01,4\n2026-07-02,5\n', wide);
    expect(days).toMatchObject({
      refusals: [
        { line: 2, reason: '2026-07-01 is on lines 2, 3; the import takes one line per day' },
        { line: 3, reason: '2026-07-01 is on lines 2, 3; the import takes one line per day' },
      ],
      cells: [{ date: '2026-07-02', row: 'CP', metric: 'hours', value: 5, lines: [4] }],
    });
  });

  it('refuses the lines of codes that add up past a limit, though each line keeps to it', () => {
    const mapping: ImportMapping = { ...payType, payTypes: { CP: ['CP', 'CS'], W: ['W'], I: ['I'] } };
    const report = readLines(['07/01/2026,CP,600,100', '07/01/2026,CS,500,100', '07/02/2026,CP,1,1'], mapping);
    expect(report.refusals).toEqual([
      { line: 2, reason: 'CP Hours 2026-07-01: 1,100 is not allowed; enter a number from 0 to 1,000 (lines 2, 3 add up to it)' },
      { line: 3, reason: 'CP Hours 2026-07-01: 1,100 is not allowed; enter a number from 0 to 1,000 (lines 2, 3 add up to it)' },
    ]);
    // The lines are refused whole: their sales do not come in either.
    expect(report.cells.map((c) => `${c.date} ${c.metric} ${c.value}`)).toEqual(['2026-07-02 hours 1', '2026-07-02 sales 1']);
  });
});

describe('numbers and dates as the mapping writes them', () => {
  it('reads a decimal point with thousands commas, or a decimal comma with thousands points or spaces, and nothing in between', () => {
    expect(readNumber('1,234.50', '.')).toEqual({ ok: true, value: 1234.5 });
    expect(readNumber('$1,234', '.')).toEqual({ ok: true, value: 1234 });
    expect(readNumber(' ', '.')).toEqual({ ok: true, value: null });
    expect(readNumber('1.234,50', ',')).toEqual({ ok: true, value: 1234.5 });
    expect(readNumber('1 234,50 €', ',')).toEqual({ ok: true, value: 1234.5 });
    expect(readNumber('1\u00a0234,5', ',')).toEqual({ ok: true, value: 1234.5 });
    expect(readNumber('1,5', ',')).toEqual({ ok: true, value: 1.5 });
    expect(readNumber('1,5', '.')).toEqual({ ok: false, problem: '"1,5" is not a number written as 1,234.50' });
    expect(readNumber('12,34.5', '.')).toEqual({ ok: false, problem: '"12,34.5" is not a number written as 1,234.50' });
    expect(readNumber('1.2.3', ',')).toEqual({ ok: false, problem: '"1.2.3" is not a number written as 1.234,50' });
    expect(readNumber('1e5', '.')).toEqual({ ok: false, problem: '"1e5" is not a number written as 1,234.50' });
    expect(readNumber('n/a', '.')).toEqual({ ok: false, problem: '"n/a" is not a number written as 1,234.50' });
  });

  it('reads dates in the chosen layout only, with a midnight time Excel adds', () => {
    expect(readDate('7/4/2026', 'MM/DD/YYYY')).toEqual({ ok: true, value: '2026-07-04' });
    expect(readDate('7/4/2026', 'DD/MM/YYYY')).toEqual({ ok: true, value: '2026-04-07' });
    expect(readDate('2026-07-14 00:00:00', 'YYYY-MM-DD')).toEqual({ ok: true, value: '2026-07-14' });
    expect(readDate('14.07.26', 'DD.MM.YY')).toEqual({ ok: true, value: '2026-07-14' });
    expect(readDate('20260714', 'YYYYMMDD')).toEqual({ ok: true, value: '2026-07-14' });
    expect(readDate('29.02.2027', 'DD.MM.YYYY')).toEqual({ ok: false, problem: '"29.02.2027" read as DD.MM.YYYY is no day of the calendar' });
    expect(readDate('29.02.2028', 'DD.MM.YYYY')).toEqual({ ok: true, value: '2028-02-29' });
    expect(readDate('July 14, 2026', 'MM/DD/YYYY')).toEqual({ ok: false, problem: '"July 14, 2026" is not a date written as MM/DD/YYYY (07/14/2026)' });
  });
});
