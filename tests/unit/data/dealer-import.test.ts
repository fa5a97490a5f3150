/**
 * The dealer-system import on the device: the file's values written as the grid's edits
 * are (saved and queued in the outbox, one transaction per batch), with the file as their
 * source for the server's change history; the same file again finds every value unchanged
 * and queues nothing; a value typed over an imported one before it is sent is the typed
 * edit's, with no source; a closed month's values are refused in the preview.
 */
import { readFileSync } from 'node:fs';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppDatabase } from '../../../src/data/app-database.ts';
import type { Device } from '../../../src/data/device-context.tsx';
import { saveDailyValues } from '../../../src/data/repositories/daily-inputs.ts';
import { readImportTargets, saveImportedValues } from '../../../src/data/repositories/dealer-import.ts';
import { pendingEntries } from '../../../src/data/sync-store.ts';
import { openReport, readWithMapping } from '../../../src/domain/import/import-file.ts';
import type { ImportMapping } from '../../../src/domain/import/mapping.ts';
import { previewImport } from '../../../src/domain/import/preview.ts';
import type { Row } from '../../../src/data/synced-tables.ts';
import { pushOutbox } from '../../../src/sync/push.ts';
import type { SyncTransport } from '../../../src/sync/transport.ts';

const source = 'imported from arbeitswerte-nach-lohnart.csv';

function europeanReport() {
  const opened = openReport(new Uint8Array(readFileSync(new URL('../../fixtures/dms/arbeitswerte-nach-lohnart.csv', import.meta.url))), null);
  if (!opened.ok) throw new Error(opened.message);
  const report = readWithMapping(opened.text, opened.mapping);
  if (!report.ok) throw new Error(report.message);
  return report;
}

describe('importing on the device', () => {
  let device: Device;
  beforeEach(() => {
    device = { db: new AppDatabase('import', { indexedDB: new IDBFactory(), IDBKeyRange }), userId: 'u1', now: () => 5_000 };
  });
  afterEach(() => device.db.close());

  async function preview() {
    return previewImport(europeanReport(), await readImportTargets(device, 's1', '2026-07-01', '2026-07-03'));
  }

  it('saves the values and queues them with the file as their source; the same file again queues nothing', async () => {
    // A value typed before the import: the file's 38,50 changes it.
    await saveDailyValues(device, 's1', [{ date: '2026-07-01', row: 'CP', metric: 'hours', value: 30 }]);
    const first = await preview();
    expect(first.counts).toEqual({ new: 17, changed: 1, unchanged: 0, refused: 0 });
    expect(first.cells.find((c) => c.status === 'changed')).toMatchObject({ date: '2026-07-01', row: 'CP', metric: 'hours', current: 30, value: 38.5 });

    expect(await saveImportedValues(device, 's1', first.writes, source)).toBe(18);
    const queued = await pendingEntries(device.db, 'u1');
    expect(queued).toHaveLength(18);
    expect(queued.every((entry) => entry.source === source)).toBe(true);
    // The typed value and the import coalesce into one entry, written over what was there before the typing.
    expect(queued.find((entry) => entry.key === JSON.stringify(['s1', '2026-07-01', 'CP', 'hours']))).toMatchObject({ changes: { value: 38.5 }, base: { value: null }, rev: 2 });

    const second = await preview();
    expect(second.counts).toEqual({ new: 0, changed: 0, unchanged: 18, refused: 0 });
    expect(second.writes).toEqual([]);
    expect(await saveImportedValues(device, 's1', second.writes, source)).toBe(0);
    expect(await pendingEntries(device.db, 'u1')).toHaveLength(18);
  });

  it('sends the source with the push, and none once a person typed over the imported value', async () => {
    await saveImportedValues(device, 's1', (await preview()).writes, source);
    await saveDailyValues(device, 's1', [{ date: '2026-07-02', row: 'W', metric: 'sales', value: 1600 }]);
    const pushed: Array<{ rows: Row[]; sources: ReadonlyArray<string | null> | undefined }> = [];
    const transport: SyncTransport = {
      session: async () => ({ status: 'signed-in', userId: 'u1' }),
      refreshSession: async () => ({ status: 'signed-in', userId: 'u1' }),
      async push(_table, rows, _typedAt, sources) {
        pushed.push({ rows, sources });
        return { ok: true, rows, before: rows.map(() => null) };
      },
      pull: async () => ({ ok: true, page: { rows: [], cursor: null, hasMore: false } }),
    };
    expect(await pushOutbox({ db: device.db, transport, now: () => 6_000, batchSize: 400 }, 'u1')).toEqual({ pushed: 18, refused: 0 });
    const sent = pushed.flatMap(({ rows, sources }) => rows.map((row, index) => ({ cell: `${row.entry_date} ${row.row_identifier} ${row.metric_type}`, value: row.value, source: sources?.[index] })));
    expect(sent.find((s) => s.cell === '2026-07-02 W sales')).toEqual({ cell: '2026-07-02 W sales', value: 1600, source: null });
    expect(sent.filter((s) => s.source === source)).toHaveLength(17);

    // A push of typed edits alone carries no sources at all, as before.
    await saveDailyValues(device, 's1', [{ date: '2026-07-05', row: 'I', metric: 'hours', value: 2 }]);
    await pushOutbox({ db: device.db, transport, now: () => 7_000, batchSize: 400 }, 'u1');
    expect(pushed.at(-1)?.sources).toBeUndefined();
  });

  it("refuses a closed month's values in the preview, with who closed it and when", async () => {
    await device.db.mirror('month_closures').put({ store_id: 's1', month_start: '2026-07-01', year: 2026, closed: true, closed_by_name: 'Ann Manager', closed_at: '2026-08-02T09:00:00+00:00' });
    const closed = await preview();
    expect(closed.counts).toEqual({ new: 0, changed: 0, unchanged: 0, refused: 18 });
    expect(closed.cells[0]?.reason).toBe('month closed by Ann Manager on 2026-08-02');
    expect(closed.writes).toEqual([]);
  });

  it('saves a year of days in batches, one transaction each (time printed, not asserted)', async () => {
    const mapping: ImportMapping = { delimiter: ',', decimalMark: '.', dateFormat: 'YYYY-MM-DD', dateColumn: 'Date', layout: 'columns', columns: { CP: { hours: 'CP H', sales: 'CP S' }, W: { hours: 'W H', sales: 'W S' }, I: { hours: 'I H', sales: 'I S' } } };
    const lines = ['Date,CP H,CP S,W H,W S,I H,I S'];
    for (let day = 0; day < 365; day += 1) lines.push(`${new Date(Date.UTC(2025, 0, 1 + day)).toISOString().slice(0, 10)},40.5,7290,15,2550,10.25,1127.5`);
    const report = readWithMapping(lines.join('\n'), mapping);
    if (!report.ok) throw new Error(report.message);
    const year = previewImport(report, await readImportTargets(device, 's1', '2025-01-01', '2025-12-31'));
    const progress: number[] = [];
    const started = performance.now();
    expect(await saveImportedValues(device, 's1', year.writes, 'imported from year.csv', (saved) => progress.push(saved))).toBe(2190);
    console.log(`A year of days (2,190 values) saved and queued on the device (fake-indexeddb) in ${(performance.now() - started).toFixed(0)} ms`);
    expect(progress).toEqual([500, 1000, 1500, 2000, 2190]);
    expect(await device.db.outbox.count()).toBe(2190);
  });
});
