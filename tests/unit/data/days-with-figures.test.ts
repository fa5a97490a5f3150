import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppDatabase } from '../../../src/data/app-database.ts';
import type { Device } from '../../../src/data/device-context.tsx';
import { dailyMonthOf } from '../../../src/data/month-view.ts';
import { readYearDaysAsClosed } from '../../../src/data/repositories/month-closures.ts';
import { readMonthDays, readMonthRows, readYearDays } from '../../../src/data/repositories/month-rows.ts';
import { monthDays } from '../../../src/domain/work-days.ts';

// December 2026, Monday to Saturday: 27 work days (31 less the Sundays 6, 13, 20 and 27).
// Wednesday 2 December, two in the afternoon: Tuesday's figures are in, and so are today's.
const today = '2026-12-02';
const cell = (entry_date: string, metric_type: 'hours' | 'sales', value: number | null) => ({
  store_id: 's1', entry_date, row_identifier: 'CP', metric_type, value,
});

describe('a day counts as complete once it has figures', () => {
  let device: Device;
  beforeEach(async () => {
    device = { db: new AppDatabase('days-with-figures', { indexedDB: new IDBFactory(), IDBKeyRange }), userId: 'u1', now: () => 1_000 };
    await device.db.mirror('daily_inputs').bulkPut([cell('2026-12-01', 'hours', 90), cell('2026-12-01', 'sales', 16_000), cell('2026-12-02', 'hours', 45), cell('2026-12-02', 'sales', 8_000)]);
  });
  afterEach(() => device.db.close());

  it("divides the month's figures by the days they came from, today's included once entered", async () => {
    const month = dailyMonthOf(await readMonthRows(device, 's1', '2026-12'), today);
    expect(month.days).toMatchObject({ daysComplete: 2, workDays: 27 });
    // 135 h and $24,000 over two days, not over the one day before today.
    expect(month.figures.hoursPerDay.value).toBe(67.5);
    expect(month.figures.salesPerDay.value).toBe(12_000);
  });

  it('counts the same days on every screen that reads them', async () => {
    const { weeks, pattern, figureDays } = await readMonthDays(device, 's1', '2026-12');
    expect(monthDays('2026-12', weeks, pattern, today, figureDays).daysComplete).toBe(2);
    expect((await readYearDays(device, 's1', 2026, today)).get(12)?.daysComplete).toBe(2);
    expect((await readYearDaysAsClosed(device, 's1', 2026, today)).get(12)?.daysComplete).toBe(2);
  });

  it('does not count a day whose cells were emptied, nor a day off with figures', async () => {
    await device.db.mirror('daily_inputs').bulkPut([cell('2026-12-02', 'hours', null), cell('2026-12-02', 'sales', null), cell('2026-12-06', 'hours', 4)]);
    const month = dailyMonthOf(await readMonthRows(device, 's1', '2026-12'), today);
    expect(month.days.daysComplete).toBe(1);
  });

  it('counts a later day with figures too, and says they are for a day still to come', async () => {
    await device.db.mirror('daily_inputs').put(cell('2026-12-05', 'hours', 30));
    const month = dailyMonthOf(await readMonthRows(device, 's1', '2026-12'), today);
    expect(month.days.daysComplete).toBe(3);
    expect(month.days.warnings).toEqual(['Notice: figures are entered for a day still to come: Saturday 5 December.']);
    await device.db.mirror('daily_inputs').bulkPut(['2026-12-07', '2026-12-08', '2026-12-09'].map((date) => cell(date, 'sales', 100)));
    const later = dailyMonthOf(await readMonthRows(device, 's1', '2026-12'), today);
    expect(later.days.warnings).toEqual(['Notice: figures are entered for days still to come: Saturday 5 December, Monday 7 December, Tuesday 8 December and 1 more.']);
  });

  it("leaves a manager's entry for the week as it is", async () => {
    await device.db.mirror('weekly_store_performance').put({ store_id: 's1', week_start_date: '2026-12-01', year: 2026, days_complete: 1, work_days: 5 });
    const month = dailyMonthOf(await readMonthRows(device, 's1', '2026-12'), today);
    expect(month.days.parts[0]).toMatchObject({ daysComplete: 1, pattern: { daysComplete: 2 } });
  });
});
