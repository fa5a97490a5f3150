// Live queries watch the global IndexedDB, as in a browser.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppDatabase } from '../../../src/data/app-database.ts';
import type { Device } from '../../../src/data/device-context.tsx';
import { saveDailyValues } from '../../../src/data/repositories/daily-inputs.ts';
import type { MonthRows } from '../../../src/data/repositories/month-rows.ts';
import { monthRowsOf } from '../../../src/data/repositories/month-rows.ts';

const store = 's1';
let databases = 0;

/** Resolves once the kept rows of the month satisfy `check`. */
function kept(device: Device, month: string, check: (rows: MonthRows) => boolean): Promise<MonthRows> {
  const live = monthRowsOf(device.db);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`month ${month} never showed what was expected`)), 2_000);
    const look = () => {
      const rows = live.get(store, month);
      if (rows && check(rows)) {
        clearTimeout(timer);
        stop();
        resolve(rows);
      }
    };
    const stop = live.subscribe(look);
    look();
  });
}

const valueOf = (rows: MonthRows | undefined, date: string) => rows?.daily.find((row) => row.entry_date === date && row.row_identifier === 'CP' && row.metric_type === 'hours')?.value;

describe('the months kept in memory for the screens', () => {
  let device: Device;
  beforeEach(() => {
    databases += 1;
    device = { db: new AppDatabase(`live-months-${databases}`), userId: 'u1', now: () => 1_000 };
  });
  afterEach(() => device.db.close());

  it('shows a value being saved at once, then the stored row', async () => {
    const live = monthRowsOf(device.db);
    const release = live.watch(store, '2026-10');
    await kept(device, '2026-10', (rows) => rows.daily.length === 0);
    const saving = saveDailyValues(device, store, [{ date: '2026-10-05', row: 'CP', metric: 'hours', value: 41.5 }]);
    // Before the device database has answered.
    expect(valueOf(live.get(store, '2026-10'), '2026-10-05')).toBe(41.5);
    await saving;
    // The stored row, with its calendar columns, replaces the one shown.
    const stored = await kept(device, '2026-10', (rows) => rows.daily.some((row) => row.entry_date === '2026-10-05' && row.year === 2026));
    expect(valueOf(stored, '2026-10-05')).toBe(41.5);
    release();
  });

  it('shows the value in every kept month whose grid holds the day, and only there', async () => {
    const live = monthRowsOf(device.db);
    const releases = ['2026-09', '2026-10', '2026-12'].map((month) => live.watch(store, month));
    await Promise.all(['2026-09', '2026-10', '2026-12'].map((month) => kept(device, month, () => true)));
    // 1 October 2026 is a Thursday: September's grid shows that week too.
    const saving = saveDailyValues(device, store, [{ date: '2026-10-01', row: 'CP', metric: 'hours', value: 8 }]);
    expect(valueOf(live.get(store, '2026-09'), '2026-10-01')).toBe(8);
    expect(valueOf(live.get(store, '2026-10'), '2026-10-01')).toBe(8);
    expect(live.get(store, '2026-12')?.daily).toEqual([]);
    await saving;
    releases.forEach((release) => release());
  });

  it('takes back a value whose save was refused', async () => {
    const live = monthRowsOf(device.db);
    const release = live.watch(store, '2026-10');
    await saveDailyValues(device, store, [{ date: '2026-10-05', row: 'CP', metric: 'hours', value: 40 }]);
    await kept(device, '2026-10', (rows) => valueOf(rows, '2026-10-05') === 40);
    const refused = saveDailyValues(device, store, [{ date: '2026-10-05', row: 'CP', metric: 'hours', value: 5_000_000 }]);
    await expect(refused).rejects.toThrow(/CP Hours|hours/i);
    expect(valueOf(live.get(store, '2026-10'), '2026-10-05')).toBe(40);
    release();
  });

  it('keeps a month let go of for a moment, so a switch that takes it again finds it read', async () => {
    const live = monthRowsOf(device.db);
    const release = live.watch(store, '2026-10');
    const rows = await kept(device, '2026-10', () => true);
    release();
    const again = live.watch(store, '2026-10');
    expect(live.get(store, '2026-10')).toBe(rows);
    again();
  });

  it('starts reading a month a screen is drawing, and lets it go if no screen watches it', async () => {
    const live = monthRowsOf(device.db);
    await saveDailyValues(device, store, [{ date: '2026-10-05', row: 'CP', metric: 'hours', value: 40 }]);
    live.prefetch(store, '2026-10');
    expect(valueOf(await kept(device, '2026-10', (rows) => rows.daily.length > 0), '2026-10-05')).toBe(40);
    await new Promise((resolve) => setTimeout(resolve, 2_300));
    expect(live.get(store, '2026-10')).toBeUndefined();
  });
});
