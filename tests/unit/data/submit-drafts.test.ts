import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppDatabase } from '../../../src/data/app-database.ts';
import { clearLocalData, UnsyncedEditsError, unsyncedCount } from '../../../src/data/local-data.ts';
import {
  cellDraftKey,
  discardDrafts,
  forgetSubmitted,
  keepCellDraft,
  keepWeekDraft,
  readDrafts,
  readShownDrafts,
  weekDraftKey,
} from '../../../src/data/repositories/submit-drafts.ts';

describe('values typed in Submit mode, kept on the device until submitted', () => {
  let factory: IDBFactory;
  let db: AppDatabase;
  beforeEach(() => {
    factory = new IDBFactory();
    db = new AppDatabase('drafts', { indexedDB: factory, IDBKeyRange });
  });
  afterEach(() => db.close());

  it('keeps a cell and a week field, per store, and they are there when the database is opened again (a reload)', async () => {
    await keepCellDraft(db, 's1', { date: '2031-06-02', row: 'CP', metric: 'hours', value: 777, seen: null }, 5);
    await keepWeekDraft(db, 's1', { weekStart: '2031-06-01', field: 'daysComplete', value: 3, seen: 1 }, 6);
    await keepCellDraft(db, 's2', { date: '2031-06-02', row: 'CP', metric: 'hours', value: 1, seen: null }, 7);
    db.close();
    db = new AppDatabase('drafts', { indexedDB: factory, IDBKeyRange });
    const drafts = await readDrafts(db, 's1');
    expect(drafts.map(({ key, date, cell, weekField, value, seen, updatedAt }) => ({ key, date, cell, weekField, value, seen, updatedAt }))).toEqual([
      { key: 'cell|2031-06-02|CP|hours', date: '2031-06-02', cell: { row: 'CP', metric: 'hours' }, weekField: undefined, value: 777, seen: null, updatedAt: 5 },
      { key: 'week|2031-06-01|daysComplete', date: '2031-06-01', cell: undefined, weekField: 'daysComplete', value: 3, seen: 1, updatedAt: 6 },
    ]);
    expect((await readDrafts(db, 's2')).map((draft) => draft.value)).toEqual([1]);
  });

  it('keeps the value seen before the first keystroke as the base, and drops a draft typed back to it', async () => {
    const cell = { date: '2031-06-02', row: 'W', metric: 'sales' } as const;
    await keepCellDraft(db, 's1', { ...cell, value: 7, seen: 40 });
    // The cell now shows 7: the next keystroke's "seen" is 7, but the base stays 40.
    await keepCellDraft(db, 's1', { ...cell, value: 77, seen: 7 });
    expect((await readDrafts(db, 's1')).map(({ value, seen }) => ({ value, seen }))).toEqual([{ value: 77, seen: 40 }]);
    await keepCellDraft(db, 's1', { ...cell, value: 40, seen: 77 });
    expect(await readDrafts(db, 's1')).toEqual([]);
  });

  it('after a submission deletes exactly the drafts it wrote: one typed meanwhile stays', async () => {
    await keepCellDraft(db, 's1', { date: '2031-06-02', row: 'CP', metric: 'hours', value: 1, seen: null });
    await keepCellDraft(db, 's1', { date: '2031-06-03', row: 'CP', metric: 'hours', value: 2, seen: null });
    const submitted = await readDrafts(db, 's1');
    // Typed while the submission was being written.
    await keepCellDraft(db, 's1', { date: '2031-06-03', row: 'CP', metric: 'hours', value: 25, seen: 2 });
    expect(await forgetSubmitted(db, submitted)).toBe(1);
    expect((await readDrafts(db, 's1')).map(({ key, value }) => [key, value])).toEqual([[cellDraftKey('2031-06-03', 'CP', 'hours'), 25]]);
  });

  it("says which drafts are in a closed month, and discards the ones chosen or all of a store's", async () => {
    await db.mirror('month_closures').put({ store_id: 's1', month_start: '2031-05-01', closed: true });
    await keepCellDraft(db, 's1', { date: '2031-05-30', row: 'I', metric: 'hours', value: 4, seen: null });
    await keepWeekDraft(db, 's1', { weekStart: '2031-06-01', field: 'workDays', value: 6, seen: null });
    await keepCellDraft(db, 's2', { date: '2031-05-30', row: 'I', metric: 'hours', value: 4, seen: null });
    expect((await readShownDrafts(db, 's1')).map(({ key, monthClosed }) => [key, monthClosed])).toEqual([
      [cellDraftKey('2031-05-30', 'I', 'hours'), true],
      [weekDraftKey('2031-06-01', 'workDays'), false],
    ]);
    await discardDrafts(db, 's1', [cellDraftKey('2031-05-30', 'I', 'hours')]);
    expect((await readDrafts(db, 's1')).map((draft) => draft.key)).toEqual([weekDraftKey('2031-06-01', 'workDays')]);
    await discardDrafts(db, 's1');
    expect(await readDrafts(db, 's1')).toEqual([]);
    expect(await readDrafts(db, 's2')).toHaveLength(1);
  });

  it('counts as unsynced at sign-out: clearing the device refuses them unless discarded, then deletes them', async () => {
    await keepCellDraft(db, 's1', { date: '2031-06-02', row: 'CP', metric: 'hours', value: 777, seen: null });
    expect(await unsyncedCount(db)).toBe(1);
    await expect(clearLocalData(db, { discardUnsynced: false })).rejects.toBeInstanceOf(UnsyncedEditsError);
    expect(await readDrafts(db, 's1')).toHaveLength(1);
    await clearLocalData(db, { discardUnsynced: true });
    expect(await db.submitDrafts.count()).toBe(0);
  });
});
