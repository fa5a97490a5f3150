/**
 * The migration that gives each month its own part of a week (20260410000200), on a
 * database already in use: whole Sunday-to-Saturday weeks that span two months are split
 * at the 1st, their work days and days complete shared out by the store's work pattern
 * without losing a day, and from then on only week parts inside one month are accepted.
 * Expected values are worked out by hand in the comments.
 */
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgresError } from '../../../supabase/local/db/database.ts';
import { applyMigrations, migrationsDir } from '../../../supabase/local/db/migrate.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

const splitVersion = '20260410000200';
const weekdayStore = '33333333-3333-4333-8333-333333333333';

async function migrationsBefore(version: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
  for (const file of await readdir(migrationsDir)) {
    if (file.endsWith('.sql') && file < version) await cp(path.join(migrationsDir, file), path.join(dir, file));
  }
  return dir;
}

type WeekRow = { id: string; start: string; end: string; year: number; complete: number | null; work: number | null };

async function weeks(db: TestDatabase, storeId: string, from: string, to: string): Promise<WeekRow[]> {
  const { rows } = await db.query<WeekRow>(
    `select id, to_char(week_start_date, 'YYYY-MM-DD') as start, to_char(week_end_date, 'YYYY-MM-DD') as end,
            year, days_complete as complete, work_days as work
     from public.weekly_store_performance where store_id = $1 and week_start_date between $2 and $3 order by week_start_date`,
    [storeId, from, to],
  );
  return rows;
}

async function refusal(db: TestDatabase, sql: string, params: unknown[]): Promise<string> {
  try {
    await db.query(sql, params);
  } catch (error) {
    // Both drivers name the constraint in the message: 'violates check constraint "..."'.
    if (isPostgresError(error)) return `${error.code} ${/constraint "([^"]+)"/.exec(error.message)?.[1] ?? ''}`.trim();
    throw error;
  }
  return 'accepted';
}

const insertWeek = `insert into public.weekly_store_performance (store_id, year, week_start_date, week_end_date, days_complete, work_days)
                    values ($1, $2, $3, $4, $5, $6)`;

for (const engine of engines) {
  describe(`week parts within months on ${engine}`, () => {
    let db: TestDatabase;
    let before: string;
    let oldIds: Record<string, string>;

    beforeAll(async () => {
      before = await migrationsBefore(splitVersion);
      db = await createTestDatabase(engine, { migrate: false });
      await applyMigrations(db, before);
      await db.exec(await readFile(path.join(import.meta.dirname, 'fixtures', 'demo-data-2026-03.sql'), 'utf8'));
      // A store open Monday to Friday, with whole weeks as the old screens saved them.
      await db.query(`insert into public.stores (id, name) values ($1, 'Weekday Motors')`, [weekdayStore]);
      await db.query(`insert into public.store_settings (store_id, work_week) values ($1, '1111100')`, [weekdayStore]);
      await db.query(`delete from public.weekly_store_performance where store_id = $1`, [demo.storeA]);
      for (const [store, start, complete, work] of [
        [demo.storeA, '2026-09-27', 6, 6], // Sun 27 Sep to Sat 3 Oct
        [demo.storeA, '2026-11-29', 2, 7], // Sun 29 Nov to Sat 5 Dec: open every day that week
        [demo.storeA, '2027-01-31', null, null], // Sun 31 Jan to Sat 6 Feb: nothing entered
        [weekdayStore, '2027-01-31', 3, 5], // the same week, Monday to Friday pattern
        [weekdayStore, '2026-12-27', 4, 4], // Sun 27 Dec 2026 to Sat 2 Jan 2027: across a year
        [weekdayStore, '2026-10-04', 5, 5], // Sun 4 to Sat 10 Oct: inside one month
      ] as const) {
        const end = new Date(Date.parse(`${start}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10);
        await db.query(insertWeek, [store, Number(start.slice(0, 4)), start, end, complete, work]);
      }
      const { rows } = await db.query<{ key: string; id: string }>(
        `select store_id || ' ' || week_start_date as key, id from public.weekly_store_performance`,
      );
      oldIds = Object.fromEntries(rows.map((row) => [row.key, row.id]));
      await applyMigrations(db);
    });
    afterAll(async () => {
      await db?.dispose();
      if (before) await rm(before, { recursive: true, force: true });
    });

    it('splits a week across two months by the default pattern, keeping every day entered', async () => {
      // Sun 27 to Wed 30 Sep holds 3 pattern days (Mon-Wed); Thu 1 to Sat 3 Oct holds 3.
      expect(await weeks(db, demo.storeA, '2026-09-27', '2026-10-01')).toEqual([
        { id: oldIds[`${demo.storeA} 2026-09-27`], start: '2026-09-27', end: '2026-09-30', year: 2026, complete: 3, work: 3 },
        { id: expect.any(String), start: '2026-10-01', end: '2026-10-03', year: 2026, complete: 3, work: 3 },
      ]);
    });

    it('gives the earlier part more than its pattern when the later part cannot hold the rest', async () => {
      // 7 work days: Sun 29 and Mon 30 Nov (2 days, 1 pattern day) and Tue 1 to Sat 5 Dec (5 days).
      // The later part holds at most 5, so the earlier takes 2; 2 days complete fill the earlier part first.
      expect(await weeks(db, demo.storeA, '2026-11-29', '2026-12-01')).toEqual([
        { id: oldIds[`${demo.storeA} 2026-11-29`], start: '2026-11-29', end: '2026-11-30', year: 2026, complete: 2, work: 2 },
        { id: expect.any(String), start: '2026-12-01', end: '2026-12-05', year: 2026, complete: 0, work: 5 },
      ]);
    });

    it("reads the store's own pattern, leaves empty weeks empty and splits at a new year", async () => {
      expect(await weeks(db, demo.storeA, '2027-01-31', '2027-02-01')).toEqual([
        { id: expect.any(String), start: '2027-01-31', end: '2027-01-31', year: 2027, complete: null, work: null },
        { id: expect.any(String), start: '2027-02-01', end: '2027-02-06', year: 2027, complete: null, work: null },
      ]);
      // Monday to Friday: Sunday 31 Jan holds no work day, so everything goes to February.
      expect(await weeks(db, weekdayStore, '2027-01-31', '2027-02-01')).toEqual([
        { id: expect.any(String), start: '2027-01-31', end: '2027-01-31', year: 2027, complete: 0, work: 0 },
        { id: expect.any(String), start: '2027-02-01', end: '2027-02-06', year: 2027, complete: 3, work: 5 },
      ]);
      // Sun 27 to Thu 31 Dec holds Mon-Thu (4); Fri 1 and Sat 2 Jan the rest (0). The year follows each part.
      expect(await weeks(db, weekdayStore, '2026-12-27', '2027-01-01')).toEqual([
        { id: expect.any(String), start: '2026-12-27', end: '2026-12-31', year: 2026, complete: 4, work: 4 },
        { id: expect.any(String), start: '2027-01-01', end: '2027-01-02', year: 2027, complete: 0, work: 0 },
      ]);
      expect(await weeks(db, weekdayStore, '2026-10-04', '2026-10-04')).toEqual([
        { id: oldIds[`${weekdayStore} 2026-10-04`], start: '2026-10-04', end: '2026-10-10', year: 2026, complete: 5, work: 5 },
      ]);
    });

    it('keeps the sums of every store: no work day or completed day is lost or added', async () => {
      const { rows } = await db.query<{ complete: number; work: number }>(
        `select coalesce(sum(days_complete), 0)::integer as complete, coalesce(sum(work_days), 0)::integer as work
         from public.weekly_store_performance where store_id = $1`,
        [demo.storeA],
      );
      expect(rows[0]).toEqual({ complete: 6 + 2, work: 6 + 7 });
    });

    it('accepts only parts of a week inside one month, with no more days than the part has', async () => {
      const store = demo.storeB;
      expect(await refusal(db, insertWeek, [store, 2027, '2027-03-28', '2027-04-03', 1, 1])).toBe('23514 weekly_store_performance_week_ends_on_saturday_or_month_end');
      expect(await refusal(db, insertWeek, [store, 2027, '2027-03-30', '2027-03-31', 1, 1])).toBe('23514 weekly_store_performance_week_starts_on_sunday_or_first');
      expect(await refusal(db, insertWeek, [store, 2027, '2027-03-28', '2027-03-31', 5, 4])).toBe('23514 weekly_store_performance_week_holds_days_complete');
      expect(await refusal(db, insertWeek, [store, 2027, '2027-03-28', '2027-03-31', 4, 5])).toBe('23514 weekly_store_performance_week_holds_work_days');
      expect(await refusal(db, insertWeek, [store, 2026, '2027-04-01', '2027-04-03', 1, 1])).toBe('23514 weekly_store_performance_year_matches_week');
      expect(await refusal(db, insertWeek, [store, 2027, '2027-03-28', '2027-03-31', 4, 4])).toBe('accepted');
      expect(await refusal(db, insertWeek, [store, 2027, '2027-04-01', '2027-04-03', 3, 3])).toBe('accepted');
      expect(await refusal(db, insertWeek, [store, 2027, '2027-04-04', '2027-04-10', 6, 7])).toBe('accepted');
    });
  });
}
