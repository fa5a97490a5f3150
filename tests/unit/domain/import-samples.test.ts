/**
 * The dealer-system import read with the three sample exports of tests/fixtures/dms (made
 * up, in the layouts labour-sales reports commonly have). Every expected value below is
 * copied by hand from the sample file named in the test, line by line.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ImportMapping, PayTypeMapping } from '../../../src/domain/import/mapping.ts';
import { parseSavedMapping, serializeMapping } from '../../../src/domain/import/mapping.ts';
import { mappingChoices, openReport, readWithMapping } from '../../../src/domain/import/import-file.ts';
import type { ReadReport } from '../../../src/domain/import/read-report.ts';

const sample = (name: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/dms/${name}`, import.meta.url)));

function opened(name: string, saved: ImportMapping | null = null) {
  const report = openReport(sample(name), saved);
  if (!report.ok) throw new Error(report.message);
  return report;
}

function read(text: string, mapping: ImportMapping): ReadReport {
  const report = readWithMapping(text, mapping);
  if (!report.ok) throw new Error(report.message);
  return report;
}

/** Cells as "date row metric value (lines)" lines, easy to write by hand from a file. */
const lines = (report: ReadReport) => report.cells.map((c) => `${c.date} ${c.row} ${c.metric} ${c.value} (${c.lines.join(',')})`);

describe('a report with a line per date and pay type (labour-sales-by-pay-type.csv: commas, US dates, quoted thousands)', () => {
  it('suggests the mapping from its headings, below the report title lines, and reads dates and numbers as the file writes them', () => {
    const { mapping, fromSaved } = opened('labour-sales-by-pay-type.csv');
    expect(fromSaved).toBe(false);
    expect(mapping).toEqual({
      delimiter: ',',
      decimalMark: '.',
      dateFormat: 'MM/DD/YYYY',
      dateColumn: 'Close Date',
      layout: 'pay-type',
      payTypeColumn: 'Pay Type',
      hoursColumn: 'Sold Hours',
      salesColumn: 'Labor Sales',
      // S (sublet) and CS are not codes the app knows: the store decides.
      payTypes: { CP: ['C'], W: ['W'], I: ['I'] },
    });
  });

  it('offers the headings line and the pay types found in the file', () => {
    const { text, mapping } = opened('labour-sales-by-pay-type.csv');
    const choices = mappingChoices(text, mapping);
    expect(choices).toMatchObject({ ok: true, headingLine: 5, headings: ['Close Date', 'Pay Type', 'Sold Hours', 'Labor Sales', 'RO Count'], payTypes: ['C', 'W', 'I', 'S', 'CS'] });
  });

  it('takes every mapped line and refuses the unmapped pay types and the total line, each with its reason', () => {
    const { text, mapping } = opened('labour-sales-by-pay-type.csv');
    const report = read(text, mapping);
    expect(report.headingLine).toBe(5);
    expect(report.dataLines).toBe(12);
    expect(lines(report)).toEqual([
      '2026-07-01 CP hours 42.5 (6)',
      '2026-07-01 CP sales 7862.5 (6)',
      '2026-07-01 W hours 18.2 (7)',
      '2026-07-01 W sales 3094 (7)',
      '2026-07-01 I hours 11 (8)',
      '2026-07-01 I sales 1210 (8)',
      '2026-07-02 CP hours 39.75 (10)',
      '2026-07-02 CP sales 7353.75 (10)',
      '2026-07-02 W hours 20.1 (11)',
      '2026-07-02 W sales 3417 (11)',
      '2026-07-02 I hours 9.5 (12)',
      '2026-07-02 I sales 1045 (12)',
      '2026-07-03 CP hours 45 (13)',
      '2026-07-03 CP sales 8325 (13)',
      '2026-07-03 W hours 16.4 (15)',
      '2026-07-03 W sales 2788 (15)',
      '2026-07-03 I hours 12.25 (16)',
      '2026-07-03 I sales 1347.5 (16)',
    ]);
    expect(report.refusals).toEqual([
      { line: 9, reason: 'pay type "S" is not mapped to customer pay, warranty or internal' },
      { line: 14, reason: 'pay type "CS" is not mapped to customer pay, warranty or internal' },
      { line: 17, reason: 'a total line ("Total"), not a day' },
    ]);
  });

  it('adds up two codes the store maps to one category on one day (C 45.00 + CS 2.00 hours, 8,325.00 + 370.00 sales)', () => {
    const { text, mapping } = opened('labour-sales-by-pay-type.csv');
    const withCs = { ...(mapping as PayTypeMapping), payTypes: { CP: ['C', 'cs'], W: ['W'], I: ['I'] } };
    const report = read(text, withCs);
    expect(lines(report).filter((line) => line.startsWith('2026-07-03 CP'))).toEqual(['2026-07-03 CP hours 47 (13,14)', '2026-07-03 CP sales 8695 (13,14)']);
    expect(report.refusals.map((r) => r.line)).toEqual([9, 17]);
  });

  it('finds the saved mapping in the next export of the same report, and keeps it through saving', () => {
    const { mapping } = opened('labour-sales-by-pay-type.csv');
    const saved = parseSavedMapping(serializeMapping(mapping));
    expect(saved).toEqual(mapping);
    expect(opened('labour-sales-by-pay-type.csv', saved).fromSaved).toBe(true);
    // Another report's mapping does not fit: a suggestion is made instead.
    expect(opened('labour-sales-wide.csv', saved).fromSaved).toBe(false);
  });
});

describe('a wide report with a line per date and hours and sales columns per category (labour-sales-wide.csv)', () => {
  it('maps the category columns by their headings, leaves the total columns out, and reads two-digit years', () => {
    const { mapping } = opened('labour-sales-wide.csv');
    expect(mapping).toEqual({
      delimiter: ',',
      decimalMark: '.',
      dateFormat: 'MM/DD/YY',
      dateColumn: 'Date',
      layout: 'columns',
      columns: {
        CP: { hours: 'CP Hours', sales: 'CP Sales' },
        W: { hours: 'Warranty Hours', sales: 'Warranty Sales' },
        I: { hours: 'Internal Hours', sales: 'Internal Sales' },
      },
    });
  });

  it('reads each day; empty cells give no value (07/07 has no internal figures) and zeros are values', () => {
    const { text, mapping } = opened('labour-sales-wide.csv');
    const report = read(text, mapping);
    expect(report.headingLine).toBe(4);
    expect(lines(report)).toEqual([
      '2026-07-06 CP hours 40 (5)',
      '2026-07-06 CP sales 7480 (5)',
      '2026-07-06 W hours 15.5 (5)',
      '2026-07-06 W sales 2635 (5)',
      '2026-07-06 I hours 10 (5)',
      '2026-07-06 I sales 1100 (5)',
      '2026-07-07 CP hours 38.5 (6)',
      '2026-07-07 CP sales 7199.5 (6)',
      '2026-07-07 W hours 17 (6)',
      '2026-07-07 W sales 2890 (6)',
      '2026-07-08 CP hours 44.25 (7)',
      '2026-07-08 CP sales 8274.75 (7)',
      '2026-07-08 W hours 14 (7)',
      '2026-07-08 W sales 2380 (7)',
      '2026-07-08 I hours 12.5 (7)',
      '2026-07-08 I sales 1375 (7)',
      '2026-07-09 CP hours 41 (8)',
      '2026-07-09 CP sales 7667 (8)',
      '2026-07-09 W hours 0 (8)',
      '2026-07-09 W sales 0 (8)',
      '2026-07-09 I hours 9 (8)',
      '2026-07-09 I sales 990 (8)',
    ]);
    expect(report.refusals).toEqual([{ line: 9, reason: 'a total line ("Totals"), not a day' }]);
  });

  it('reads the same file as day-first when the store says so, and refuses nothing it cannot place', () => {
    const { text, mapping } = opened('labour-sales-wide.csv');
    // 07/06/26 read day first is 7 June 2026.
    const report = read(text, { ...mapping, dateFormat: 'DD/MM/YY' });
    expect([...new Set(report.cells.map((c) => c.date))]).toEqual(['2026-06-07', '2026-07-07', '2026-08-07', '2026-09-07']);
  });
});

describe('a European report (arbeitswerte-nach-lohnart.csv: semicolons, decimal commas, dd.mm.yyyy, UTF-8 with a byte-order mark)', () => {
  it('suggests semicolons, the decimal comma, day-first dotted dates and the German pay-type codes', () => {
    const { mapping } = opened('arbeitswerte-nach-lohnart.csv');
    expect(mapping).toEqual({
      delimiter: ';',
      decimalMark: ',',
      dateFormat: 'DD.MM.YYYY',
      dateColumn: 'Datum',
      layout: 'pay-type',
      payTypeColumn: 'Lohnart',
      hoursColumn: 'Stunden',
      salesColumn: 'Umsatz €',
      payTypes: { CP: ['K'], W: ['G'], I: ['I'] },
    });
  });

  it('reads 6.737,50 as 6,737.50 and 8,25 as 8.25', () => {
    const { text, mapping } = opened('arbeitswerte-nach-lohnart.csv');
    const report = read(text, mapping);
    expect(report.headingLine).toBe(5);
    expect(lines(report)).toEqual([
      '2026-07-01 CP hours 38.5 (6)',
      '2026-07-01 CP sales 6737.5 (6)',
      '2026-07-01 W hours 12 (7)',
      '2026-07-01 W sales 2040 (7)',
      '2026-07-01 I hours 8.25 (8)',
      '2026-07-01 I sales 907.5 (8)',
      '2026-07-02 CP hours 41 (9)',
      '2026-07-02 CP sales 7175 (9)',
      '2026-07-02 W hours 9.5 (10)',
      '2026-07-02 W sales 1615 (10)',
      '2026-07-02 I hours 10 (11)',
      '2026-07-02 I sales 1100 (11)',
      '2026-07-03 CP hours 36.75 (12)',
      '2026-07-03 CP sales 6431.25 (12)',
      '2026-07-03 W hours 14.25 (13)',
      '2026-07-03 W sales 2422.5 (13)',
      '2026-07-03 I hours 7.5 (14)',
      '2026-07-03 I sales 825 (14)',
    ]);
    expect(report.refusals).toEqual([{ line: 15, reason: 'a total line ("Summe"), not a day' }]);
  });

  it('refuses every figure line when the store says numbers use a decimal point: 6.737,50 is not such a number', () => {
    const { text, mapping } = opened('arbeitswerte-nach-lohnart.csv');
    const report = read(text, { ...mapping, decimalMark: '.' });
    expect(report.cells).toEqual([]);
    expect(report.refusals[0]).toEqual({ line: 6, reason: 'Stunden: "38,50" is not a number written as 1,234.50' });
  });
});
