import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppDatabase } from '../../../src/data/app-database.ts';
import type { Device } from '../../../src/data/device-context.tsx';
import { clearLocalData, UnsyncedEditsError, unsyncedCount } from '../../../src/data/local-data.ts';
import { dailyInputsBetween, saveDailyValues } from '../../../src/data/repositories/daily-inputs.ts';
import { saveAdvisorMonthFigure } from '../../../src/data/repositories/front-end-team.ts';
import { addAdvisor, retireAdvisor } from '../../../src/data/repositories/store-and-people.ts';
import { saveMonthlyTargets, saveWeeks } from '../../../src/data/repositories/store-month.ts';
import { pendingEntries } from '../../../src/data/sync-store.ts';

describe('repository write commands', () => {
  let device: Device;
  beforeEach(() => {
    device = { db: new AppDatabase('repos', { indexedDB: new IDBFactory(), IDBKeyRange }), userId: 'u1', now: () => 1_000 };
  });
  afterEach(() => device.db.close());

  it('saves daily cells with their calendar columns, one outbox entry per cell', async () => {
    expect(
      await saveDailyValues(device, 's1', [
        { date: '2026-11-03', row: 'CP', metric: 'hours', value: 41.5 },
        { date: '2026-11-03', row: 'W', metric: 'sales', value: 2210 },
      ]),
    ).toBe(2);
    expect(await dailyInputsBetween(device, 's1', '2026-11-01', '2026-11-30')).toMatchObject([
      { entry_date: '2026-11-03', row_identifier: 'CP', value: 41.5, year: 2026, month: 11, day_of_week_iso: 2, week_of_month_display: 1, year_week_actual: '2026-45' },
      { entry_date: '2026-11-03', row_identifier: 'W', metric_type: 'sales', value: 2210 },
    ]);
    expect(await pendingEntries(device.db, 'u1')).toHaveLength(2);
  });

  it('gives a new week a client-made id and its end date, and keeps the id on later edits', async () => {
    await saveWeeks(device, 's1', [{ weekStart: '2026-11-01', daysComplete: 3, workDays: 6 }]);
    const first = await device.db.mirror('weekly_store_performance').get(['s1', '2026-11-01']);
    expect(first).toMatchObject({ week_end_date: '2026-11-07', year: 2026, days_complete: 3, work_days: 6, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    await saveWeeks(device, 's1', [{ weekStart: '2026-11-01', daysComplete: 4, workDays: 6 }]);
    expect((await device.db.mirror('weekly_store_performance').get(['s1', '2026-11-01']))?.id).toBe(first?.id);
  });

  it('saves empty targets as null', async () => {
    await saveMonthlyTargets(device, 's1', 2026, 11, { hoursPerDay: 110, cpElr: null });
    expect(await device.db.mirror('monthly_targets').get(['s1', 2026, 11, 'cpElr'])).toMatchObject({ target_value: null });
  });

  it('adds advisors with a trimmed name, refuses a blank one, and retires without deleting', async () => {
    await expect(addAdvisor(device, 's1', '   ')).rejects.toThrow('Enter a name for the advisor.');
    await expect(addAdvisor(device, 's1', 'x'.repeat(201))).rejects.toThrow('Advisor name: enter at most 200 characters.');
    expect(await device.db.mirror('front_end_team_advisors').count()).toBe(0);
    const id = await addAdvisor(device, 's1', '  Riley Chen ');
    await retireAdvisor(device, id);
    expect(await device.db.mirror('front_end_team_advisors').get([id])).toMatchObject({ advisor_name: 'Riley Chen', is_active: false });
  });

  it('keeps an advisor month figure on the first day, so the month adds up to what was typed', async () => {
    const target = { storeId: 's1', advisorId: 'a1', year: 2026, month: 11 };
    await saveAdvisorMonthFigure(device, 'front_end_team_advisor_totals', target, 'total_ros', 120);
    const first = ['s1', 'a1', '2026-11-01'];
    expect(await device.db.mirror('front_end_team_advisor_totals').get(first)).toMatchObject({ year: 2026, month: 11, total_ros: 120 });
    // A dated row from elsewhere in the month: the first day holds the rest.
    await device.db.mirror('front_end_team_advisor_totals').put({ store_id: 's1', advisor_id: 'a1', entry_date: '2026-11-14', year: 2026, month: 11, total_ros: 30 });
    await saveAdvisorMonthFigure(device, 'front_end_team_advisor_totals', target, 'total_ros', 150);
    expect((await device.db.mirror('front_end_team_advisor_totals').get(first))?.total_ros).toBe(120);
    await saveAdvisorMonthFigure(device, 'front_end_team_advisor_totals', target, 'total_ros', null);
    expect((await device.db.mirror('front_end_team_advisor_totals').get(first))?.total_ros).toBeNull();
  });

  it('refuses to clear the device while edits are unsynced, unless told to discard them', async () => {
    await saveMonthlyTargets(device, 's1', 2026, 11, { hoursPerDay: 110 });
    expect(await unsyncedCount(device.db)).toBe(1);
    await expect(clearLocalData(device.db, { discardUnsynced: false })).rejects.toBeInstanceOf(UnsyncedEditsError);
    expect(await unsyncedCount(device.db)).toBe(1);
    await clearLocalData(device.db, { discardUnsynced: true });
    expect(await unsyncedCount(device.db)).toBe(0);
    expect(await device.db.mirror('monthly_targets').count()).toBe(0);
  });
});

describe('two quick edits of one week', () => {
  it('keep both fields: each save writes only its own', async () => {
    const device: Device = { db: new AppDatabase('weeks', { indexedDB: new IDBFactory(), IDBKeyRange }), userId: 'u1', now: () => 1 };
    await saveWeeks(device, 's1', [{ weekStart: '2026-11-08', daysComplete: 3 }]);
    await saveWeeks(device, 's1', [{ weekStart: '2026-11-08', workDays: 6 }]);
    expect(await device.db.mirror('weekly_store_performance').get(['s1', '2026-11-08'])).toMatchObject({ days_complete: 3, work_days: 6 });
    device.db.close();
  });
});
