/**
 * The import's preview against what the device holds: new, changed (with the value typed
 * before), unchanged, refused in a closed month (with the closure's reason), a value typed
 * in Submit mode and not submitted named beside its cell; and a second import of the same
 * file: everything unchanged, nothing to write. Values are copied by hand from
 * tests/fixtures/dms/labour-sales-wide.csv.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openReport, readWithMapping } from '../../../src/domain/import/import-file.ts';
import type { DeviceCells } from '../../../src/domain/import/preview.ts';
import { closedMonthReason, importCellKey, previewImport } from '../../../src/domain/import/preview.ts';
import type { ReadReport } from '../../../src/domain/import/read-report.ts';
import type { ImportMapping } from '../../../src/domain/import/mapping.ts';

function wideReport(): ReadReport {
  const opened = openReport(new Uint8Array(readFileSync(new URL('../../fixtures/dms/labour-sales-wide.csv', import.meta.url))), null);
  if (!opened.ok) throw new Error(opened.message);
  const report = readWithMapping(opened.text, opened.mapping);
  if (!report.ok) throw new Error(report.message);
  return report;
}

const nothing: DeviceCells = { stored: new Map(), closedMonths: new Map(), drafts: new Map() };

describe('the preview of an import', () => {
  it('on an empty month: every value new, all of them to write with an empty base', () => {
    const preview = previewImport(wideReport(), nothing);
    // 6 + 4 + 6 + 6 values on lines 5 to 8.
    expect(preview.counts).toEqual({ new: 22, changed: 0, unchanged: 0, refused: 0 });
    expect(preview.writes).toHaveLength(22);
    expect(preview.writes[0]).toEqual({ date: '2026-07-06', row: 'CP', metric: 'hours', value: 40, seen: null });
    expect(preview.from).toBe('2026-07-06');
    expect(preview.to).toBe('2026-07-09');
    expect(preview.lineRefusals).toEqual([{ line: 9, reason: 'a total line ("Totals"), not a day' }]);
  });

  it('tells new, changed and unchanged apart, shows the value a changed cell holds, and names a value not submitted', () => {
    const stored = new Map<string, number | null>([
      [importCellKey('2026-07-06', 'CP', 'hours'), 40], // the file's 40.0: unchanged
      [importCellKey('2026-07-06', 'CP', 'sales'), 7480.004], // the same to the cent
      [importCellKey('2026-07-06', 'W', 'hours'), 12], // typed 12, the file says 15.5
      [importCellKey('2026-07-07', 'I', 'hours'), 3], // the file has no internal figures on 07/07: left as it is
      [importCellKey('2026-07-09', 'W', 'hours'), null], // emptied: the file's 0 is new
    ]);
    const drafts = new Map<string, number | null>([[importCellKey('2026-07-08', 'CP', 'sales'), 8000]]);
    const preview = previewImport(wideReport(), { stored, closedMonths: new Map(), drafts });
    expect(preview.counts).toEqual({ new: 19, changed: 1, unchanged: 2, refused: 0 });
    expect(preview.cells.find((c) => c.date === '2026-07-06' && c.row === 'W' && c.metric === 'hours')).toMatchObject({ status: 'changed', current: 12, value: 15.5, lines: [5] });
    expect(preview.cells.find((c) => c.date === '2026-07-09' && c.row === 'W' && c.metric === 'hours')).toMatchObject({ status: 'new', current: null, value: 0 });
    expect(preview.cells.find((c) => c.date === '2026-07-08' && c.row === 'CP' && c.metric === 'sales')).toMatchObject({ status: 'new', value: 8274.75, draft: 8000 });
    expect(preview.cells.some((c) => c.date === '2026-07-07' && c.row === 'I')).toBe(false);
    // The changed value is written over what the device showed, as an edit in the grid is.
    expect(preview.writes).toContainEqual({ date: '2026-07-06', row: 'W', metric: 'hours', value: 15.5, seen: 12 });
    expect(preview.writes.some((w) => w.date === '2026-07-06' && w.row === 'CP')).toBe(false);
  });

  it('refuses every value of a closed month with the closure, as the server words it', () => {
    const reason = closedMonthReason('Ann Manager', '2026-08-02T17:30:00Z');
    expect(reason).toBe('month closed by Ann Manager on 2026-08-02');
    const preview = previewImport(wideReport(), { ...nothing, closedMonths: new Map([['2026-07', reason]]) });
    expect(preview.counts).toEqual({ new: 0, changed: 0, unchanged: 0, refused: 22 });
    expect(preview.writes).toEqual([]);
    expect(preview.cells.every((c) => c.reason === 'month closed by Ann Manager on 2026-08-02')).toBe(true);
    // Closed on this device and not yet confirmed: no name yet.
    expect(closedMonthReason(null, null)).toBe('month closed (on this device; the server confirms who closed it once it gets there)');
  });

  it('a second import of the same file changes nothing: every value unchanged, nothing to write', () => {
    const first = previewImport(wideReport(), nothing);
    // What the device holds once the first import is written.
    const stored = new Map(first.writes.map((w) => [importCellKey(w.date, w.row, w.metric), w.value]));
    const second = previewImport(wideReport(), { ...nothing, stored });
    expect(second.counts).toEqual({ new: 0, changed: 0, unchanged: 22, refused: 0 });
    expect(second.writes).toEqual([]);
  });

  it('reads and previews a year of days in a moment (printed, not asserted)', () => {
    const mapping: ImportMapping = { delimiter: ',', decimalMark: '.', dateFormat: 'YYYY-MM-DD', dateColumn: 'Date', layout: 'pay-type', payTypeColumn: 'Pay Type', hoursColumn: 'Hours', salesColumn: 'Sales', payTypes: { CP: ['C'], W: ['W'], I: ['I'] } };
    const lines = ['Date,Pay Type,Hours,Sales'];
    for (let day = 0; day < 365; day += 1) {
      const date = new Date(Date.UTC(2025, 0, 1 + day)).toISOString().slice(0, 10);
      for (const code of ['C', 'W', 'I']) lines.push(`${date},${code},${(day % 40) + 10}.25,"${(day % 9) + 1},${String(day % 1000).padStart(3, '0')}.50"`);
    }
    const started = performance.now();
    const report = readWithMapping(lines.join('\r\n'), mapping);
    if (!report.ok) throw new Error(report.message);
    const preview = previewImport(report, nothing);
    const took = performance.now() - started;
    console.log(`A year of days (${lines.length - 1} lines, ${preview.writes.length} values) read and previewed in ${took.toFixed(0)} ms`);
    expect(preview.counts.new).toBe(365 * 6);
  });
});
