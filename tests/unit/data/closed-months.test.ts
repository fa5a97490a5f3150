import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppDatabase } from '../../../src/data/app-database.ts';
import type { Device } from '../../../src/data/device-context.tsx';
import { asClosedMonth, readClosedMonth, readYearDaysAsClosed } from '../../../src/data/repositories/month-closures.ts';
import { readMonthRows } from '../../../src/data/repositories/month-rows.ts';
import { monthDays } from '../../../src/domain/work-days.ts';

// October 2026 has 27 days Monday to Saturday and 22 Monday to Friday; November 2026 has
// 25 and 21 (read off a printed calendar). The store works Monday to Friday now, and
// closed October while it still worked Saturdays, with the Work Mix target it had then.
const afterBoth = '2026-12-15';
const closure = (month_start: string, more: Record<string, unknown>) => ({
  store_id: 's1', month_start, year: 2026, closed: true, closed_by_name: 'Morgan Manager', ...more,
});

describe("a closed month's figures on the device", () => {
  let device: Device;
  beforeEach(async () => {
    device = { db: new AppDatabase('closed-months', { indexedDB: new IDBFactory(), IDBKeyRange }), userId: 'u1', now: () => 1_000 };
    await device.db.mirror('store_settings').put({ store_id: 's1', work_week: '1111100', mix_target_cp: 60, mix_target_w: 20, mix_target_i: 20 });
    await device.db.mirror('store_calendar_days').put({ store_id: 's1', calendar_date: '2026-10-12', year: 2026, is_work_day: false });
    await device.db.mirror('month_closures').bulkPut([
      closure('2026-10-01', { work_week: '1111110', mix_target_cp: 40, mix_target_w: 30, mix_target_i: 30 }),
      // Closed on this device, not yet confirmed by the server: nothing kept yet.
      closure('2026-09-01', {}),
      // Reopened by an admin: it keeps the settings it was closed with.
      closure('2026-08-01', { closed: false, work_week: '1111110', mix_target_cp: 40, mix_target_w: 30, mix_target_i: 30 }),
    ]);
  });
  afterEach(() => device.db.close());

  it('counts a closed month with the work week it was closed with, and its calendar days', async () => {
    const rows = asClosedMonth(await readMonthRows(device, 's1', '2026-10'), await readClosedMonth(device, 's1', '2026-10'));
    // 27 Monday-to-Saturday days less the holiday on Monday 12 October.
    expect(monthDays(rows.month, rows.weeks, rows.pattern, afterBoth).workDays).toBe(26);
    expect(rows.settings).toMatchObject({ mix_target_cp: 40, mix_target_w: 30, mix_target_i: 30 });
  });

  it('counts a reopened month with the work week it was first closed with', async () => {
    const rows = asClosedMonth(await readMonthRows(device, 's1', '2026-08'), await readClosedMonth(device, 's1', '2026-08'));
    // August 2026: 31 days, 5 Sundays (2, 9, 16, 23, 30): 26 Monday to Saturday (21 Monday to Friday).
    expect(monthDays(rows.month, rows.weeks, rows.pattern, afterBoth).workDays).toBe(26);
    expect(rows.settings).toMatchObject({ mix_target_cp: 40 });
  });

  it("counts an open month and one the server has not confirmed with the store's settings of now", async () => {
    for (const month of ['2026-11', '2026-09']) {
      expect(await readClosedMonth(device, 's1', month)).toBeNull();
      const rows = asClosedMonth(await readMonthRows(device, 's1', month), await readClosedMonth(device, 's1', month));
      expect(rows.settings).toMatchObject({ mix_target_cp: 60 });
      expect(rows.pattern.closedMonths).toBeUndefined();
    }
    const november = await readMonthRows(device, 's1', '2026-11');
    expect(monthDays('2026-11', november.weeks, november.pattern, afterBoth).workDays).toBe(21);
  });

  it("gives the yearly view each closed month's work days as closed", async () => {
    const year = await readYearDaysAsClosed(device, 's1', 2026, afterBoth);
    expect([10, 11].map((month) => year.get(month)?.workDays)).toEqual([26, 21]);
    expect(year.get(10)?.daysComplete).toBe(26);
  });
});
