/**
 * Values typed in Submit mode that "Submit Data" has not written yet (drafts), kept in
 * the device database rather than in the page's memory: leaving the page, reloading it
 * or closing it drops none of them, and every tab of the device sees the same ones.
 *
 * A draft keeps the value typed and `seen`, what the screen showed before the first
 * keystroke: the submission is written over that base, as an autosaved cell's would be.
 * A draft typed back to its base is no draft any more and goes. Submitting deletes only
 * the drafts it wrote: one typed again meanwhile carries a new stamp and stays.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { IsoDate } from '../../domain/calendar.ts';
import type { AppDatabase, SubmitDraft } from '../app-database.ts';
import { useDevice } from '../device-context.tsx';
import type { LabourRow, Metric } from './daily-inputs.ts';

export type { SubmitDraft } from '../app-database.ts';
export type WeekField = 'daysComplete' | 'workDays';
export type CellDraft = { date: IsoDate; row: LabourRow; metric: Metric; value: number | null; seen: number | null };
export type WeekDraft = { weekStart: IsoDate; field: WeekField; value: number | null; seen: number | null };
/** A draft, and whether its month is closed (the server refuses a closed month's figures). */
export type ShownDraft = SubmitDraft & { monthClosed: boolean };

export const cellDraftKey = (date: IsoDate, row: LabourRow, metric: Metric) => `cell|${date}|${row}|${metric}`;
export const weekDraftKey = (weekStart: IsoDate, field: WeekField) => `week|${weekStart}|${field}`;

const stamp = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;

/** A store's drafts, in key order (cells by date, then week parts). */
export function readDrafts(db: AppDatabase, storeId: string): Promise<SubmitDraft[]> {
  return db.submitDrafts.where('[storeId+key]').between([storeId, ''], [storeId, '\uffff']).toArray();
}

async function keep(db: AppDatabase, draft: Omit<SubmitDraft, 'stamp' | 'updatedAt'>, now: number): Promise<void> {
  await db.transaction('rw', db.submitDrafts, async () => {
    const before = await db.submitDrafts.get([draft.storeId, draft.key]);
    // The base is what showed before the first keystroke, however many follow.
    const seen = before ? before.seen : draft.seen;
    if (draft.value === seen) return void (await db.submitDrafts.delete([draft.storeId, draft.key]));
    await db.submitDrafts.put({ ...draft, seen, stamp: stamp(), updatedAt: now });
  });
}

/** Keeps a cell's typed value until it is submitted or discarded. */
export function keepCellDraft(db: AppDatabase, storeId: string, cell: CellDraft, now = Date.now()): Promise<void> {
  const { date, row, metric, value, seen } = cell;
  return keep(db, { storeId, key: cellDraftKey(date, row, metric), date, cell: { row, metric }, value, seen }, now);
}

/** Keeps a week part's Days Complete or Work Days until it is submitted or discarded. */
export function keepWeekDraft(db: AppDatabase, storeId: string, week: WeekDraft, now = Date.now()): Promise<void> {
  const { weekStart, field, value, seen } = week;
  return keep(db, { storeId, key: weekDraftKey(weekStart, field), date: weekStart, weekField: field, value, seen }, now);
}

/**
 * Deletes the drafts a submission wrote, as it read them: a draft typed again since then
 * (another stamp) is newer than what was written, and stays. Returns how many went.
 */
export async function forgetSubmitted(db: AppDatabase, written: readonly SubmitDraft[]): Promise<number> {
  return db.transaction('rw', db.submitDrafts, async () => {
    const now = await db.submitDrafts.bulkGet(written.map((draft) => [draft.storeId, draft.key] as [string, string]));
    const same = written.filter((draft, i) => now[i]?.stamp === draft.stamp);
    await db.submitDrafts.bulkDelete(same.map((draft) => [draft.storeId, draft.key] as [string, string]));
    return same.length;
  });
}

/** Discards drafts the person chose to drop (by key), or all of a store's when no keys are given. */
export async function discardDrafts(db: AppDatabase, storeId: string, keys?: readonly string[]): Promise<void> {
  const chosen = keys ?? (await readDrafts(db, storeId)).map((draft) => draft.key);
  await db.submitDrafts.bulkDelete(chosen.map((key) => [storeId, key] as [string, string]));
}

/** The device's drafts of every store: signing out deletes them, so it asks first. */
export function countAllDrafts(db: AppDatabase): Promise<number> {
  return db.submitDrafts.count();
}

/** The month ('YYYY-MM') a draft belongs to: its cell's date, or its week part's (a part never spans two months). */
export const draftMonth = (draft: Pick<SubmitDraft, 'date'>) => draft.date.slice(0, 7);

/** A store's drafts, each with whether its month is closed. */
export async function readShownDrafts(db: AppDatabase, storeId: string): Promise<ShownDraft[]> {
  const drafts = await readDrafts(db, storeId);
  const months = [...new Set(drafts.map(draftMonth))];
  const closures = await db.mirror('month_closures').bulkGet(months.map((month) => [storeId, `${month}-01`]));
  const closed = new Set(months.filter((_, i) => closures[i]?.closed === true && !closures[i]?.deleted_at));
  return drafts.map((draft) => ({ ...draft, monthClosed: closed.has(draftMonth(draft)) }));
}

/** A store's drafts, live across the device's tabs; undefined while loading. */
export function useSubmitDrafts(storeId: string | null): ShownDraft[] | undefined {
  const device = useDevice();
  return useLiveQuery(() => (storeId ? readShownDrafts(device.db, storeId) : Promise.resolve([])), [device, storeId]);
}

/** How many drafts the store has on this device; undefined while loading. */
export function useDraftCount(storeId: string | null): number | undefined {
  const device = useDevice();
  return useLiveQuery(
    () => (storeId ? device.db.submitDrafts.where('[storeId+key]').between([storeId, ''], [storeId, '\uffff']).count() : Promise.resolve(0)),
    [device, storeId],
  );
}

/** How many drafts the device holds for any store; undefined while loading. */
export function useDeviceDraftCount(): number | undefined {
  const device = useDevice();
  return useLiveQuery(() => countAllDrafts(device.db), [device]);
}
