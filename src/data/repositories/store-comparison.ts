/**
 * The store comparison as the device keeps it: the server's rows per store (read online
 * by an admin), cached in the device database with the time they were read, and turned
 * into the same month rows a store's own screens compute their figures from.
 */
import type { IsoDate } from '../../domain/calendar.ts';
import type { MonthKey } from '../../domain/month.ts';
import type { EnteredDays } from '../../domain/work-days.ts';
import { workPattern } from '../../domain/work-days.ts';
import type { AppDatabase } from '../app-database.ts';
import { readMeta, writeMeta } from '../sync-store.ts';
import type { ServerRow } from '../synced-tables.ts';
import { numberOrNull } from '../values.ts';
import type { MonthRows } from './month-rows.ts';

export type StoreMonthPair = { storeId: string; name: string; current: MonthRows; lastYear: MonthRows };
export type CachedComparison = { fetchedAt: number; stores: StoreMonthPair[] };

/** One store's month as public.store_comparison answers it: the tables' rows without sync_xid. */
type ServerRows = {
  daily?: ServerRow<'daily_inputs'>[];
  weeks?: ServerRow<'weekly_store_performance'>[];
  targets?: ServerRow<'monthly_targets'>[];
  settings?: ServerRow<'store_settings'> | null;
  calendar?: ServerRow<'store_calendar_days'>[];
  labor_gross?: ServerRow<'monthly_labor_gross_inputs'>[];
  operational?: ServerRow<'monthly_operational_inputs'> | null;
};
type ServerStore = { store_id?: string; name?: string; month?: ServerRows; last_year?: ServerRows };

const cacheKey = (month: MonthKey) => `store-comparison:${month}`;

function previousYear(month: MonthKey): MonthKey {
  return `${Number(month.slice(0, 4)) - 1}${month.slice(4)}`;
}

function monthRowsOf(month: MonthKey, rows: ServerRows | undefined): MonthRows {
  const weeks = new Map<IsoDate, EnteredDays>();
  for (const week of rows?.weeks ?? []) {
    weeks.set(String(week.week_start_date), { daysComplete: numberOrNull(week.days_complete), workDays: numberOrNull(week.work_days) });
  }
  const exceptions = new Map<IsoDate, boolean>();
  for (const day of rows?.calendar ?? []) if (typeof day.is_work_day === 'boolean') exceptions.set(String(day.calendar_date), day.is_work_day);
  return {
    month,
    daily: rows?.daily ?? [],
    weeks,
    targets: Object.fromEntries((rows?.targets ?? []).map((t) => [String(t.metric_key), numberOrNull(t.target_value)])),
    settings: rows?.settings ?? null,
    pattern: workPattern(rows?.settings?.work_week, exceptions),
    laborGross: rows?.labor_gross ?? [],
    operational: rows?.operational ?? null,
  };
}

/** The server's answer as month rows per store; a store without an id is left out. */
export function comparisonOf(month: MonthKey, answer: unknown): StoreMonthPair[] {
  if (!Array.isArray(answer)) return [];
  return (answer as ServerStore[])
    .filter((store) => typeof store.store_id === 'string')
    .map((store) => ({
      storeId: store.store_id as string,
      name: store.name ?? '',
      current: monthRowsOf(month, store.month),
      lastYear: monthRowsOf(previousYear(month), store.last_year),
    }));
}

/** Keeps the server's answer for offline viewing; the cache holds the raw rows and when they were read. */
export async function cacheComparison(db: AppDatabase, month: MonthKey, answer: unknown, fetchedAt: number): Promise<void> {
  await writeMeta(db, cacheKey(month), { fetchedAt, answer });
}

export async function cachedComparison(db: AppDatabase, month: MonthKey): Promise<CachedComparison | null> {
  const cached = await readMeta<{ fetchedAt: number; answer: unknown }>(db, cacheKey(month));
  return cached ? { fetchedAt: cached.fetchedAt, stores: comparisonOf(month, cached.answer) } : null;
}
