/** What a person does in a drill, and what the drill reads back: the screen, the device's database, the server. */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Page } from 'playwright-core';
import { demo } from '../../support/demo.ts';
import type { FaultProxy } from './fault-proxy.ts';
import { until } from '../../support/poll.ts';
import { DailyGridModel } from './pages.ts';


export type Cell = { date: string; category: 'CP' | 'W' | 'I'; metric: 'hours' | 'sales'; value: number };

/** The daily grid's label of a cell, as a person (and a screen reader) finds it. */
export const cellLabel = (cell: Pick<Cell, 'date' | 'category' | 'metric'>) => DailyGridModel.label(cell);

export async function openMonth(page: Page, appUrl: string, month: string): Promise<void> {
  await new DailyGridModel(page).open(appUrl, month);
}

/** Types a value and leaves the cell (a cell saves as it is typed). */
export async function enter(page: Page, cell: Cell): Promise<void> {
  await new DailyGridModel(page).enter(cell);
}

/** The month's days, `count` of them from the 1st, as ISO dates. */
export function daysOf(month: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`);
}

export type DeviceCounts = { outbox: number; deadLetters: number; conflicts: number };

/** Counts straight from the device's IndexedDB, not from the screen. */
export function deviceCounts(page: Page): Promise<DeviceCounts> {
  return page.evaluate(
    () =>
      new Promise<DeviceCounts>((resolve, reject) => {
        const open = indexedDB.open('service-dashboard');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(['outbox', 'deadLetters', 'conflicts'], 'readonly');
          const counts: Record<string, number> = {};
          for (const name of ['outbox', 'deadLetters', 'conflicts']) {
            const request = tx.objectStore(name).count();
            request.onsuccess = () => (counts[name] = request.result);
          }
          tx.oncomplete = () => {
            db.close();
            resolve(counts as DeviceCounts);
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
}

/** The sync indicator's words ("3 edits waiting Last synced 10:42"). */
export async function indicatorText(page: Page): Promise<string> {
  return (await page.getByRole('status', { name: 'Sync status' }).textContent()) ?? '';
}


export type ServerCell = { entry_date: string; row_identifier: string; metric_type: string; value: number };

/** The store's daily rows between two dates, read as the signed-in person. */
export async function serverCells(client: SupabaseClient, from: string, to: string, storeId: string = demo.storeA): Promise<ServerCell[]> {
  const { data, error } = await client
    .from('daily_inputs')
    .select('entry_date, row_identifier, metric_type, value')
    .eq('store_id', storeId)
    .gte('entry_date', from)
    .lte('entry_date', to)
    .order('entry_date');
  if (error) throw new Error(error.message);
  return (data as ServerCell[]).map((row) => ({ ...row, value: Number(row.value) }));
}

/** "date category metric" => value, failing on any cell held twice. */
export function byCell(rows: ServerCell[]): Map<string, number> {
  const cells = new Map<string, number>();
  for (const row of rows) {
    const key = `${row.entry_date} ${row.row_identifier} ${row.metric_type}`;
    if (cells.has(key)) throw new Error(`${key} is held twice on the server`);
    cells.set(key, row.value);
  }
  return cells;
}

export const cellKey = (cell: Cell) => `${cell.date} ${cell.category} ${cell.metric}`;

/** Until the clock has passed `time` (ms since the epoch): for a drill about a token's expiry, whose premise is time passing. */
export async function untilPast(time: number): Promise<void> {
  const left = time - Date.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
}

/**
 * Until nothing the device sent is on its way and nothing was sent for 1.5 s: before a
 * drill cuts the network or freezes the backend, so the fault meets the step the drill
 * is about and not a request that merely happened to be in flight.
 */
export function untilDeviceIdle(proxy: FaultProxy, timeoutMs = 30_000): Promise<unknown> {
  return until(async () => proxy.stats(), (s) => s.inFlight === 0 && Date.now() - s.lastForwardedAt > 1_500, timeoutMs, 'the device idle');
}
