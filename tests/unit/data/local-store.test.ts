import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppDatabase } from '../../../src/data/app-database.ts';
import { saveRows } from '../../../src/data/local-writes.ts';
import { applyPulledRows, confirmPushed, pendingEntries } from '../../../src/data/sync-store.ts';

const key = { store_id: 's1', year: 2031, month: 6 };
const write = (fields: Record<string, unknown>) => ({ table: 'yearly_financial_inputs' as const, row: { ...key, ...fields } });

describe('the device store', () => {
  let db: AppDatabase;
  const ctx = { userId: 'u1', now: 1 };
  const row = () => db.mirror('yearly_financial_inputs').get(['s1', 2031, 6]);

  beforeEach(async () => {
    db = new AppDatabase('unit', { indexedDB: new IDBFactory(), IDBKeyRange });
    await applyPulledRows(db, 'yearly_financial_inputs', [{ id: 'r1', ...key, sales: 100, gp_net: 70 }], 0);
  });
  afterEach(() => db.close());

  it('writes the row and one outbox entry with only the changed fields and what they replaced', async () => {
    expect(await saveRows(db, [write({ sales: 120, gp_net: 70 })], ctx)).toBe(1);
    expect(await row()).toMatchObject({ id: 'r1', sales: 120, gp_net: 70 });
    expect(await pendingEntries(db, 'u1')).toMatchObject([{ changes: { sales: 120 }, base: { sales: 100 }, rev: 1 }]);
  });

  it('coalesces repeated edits into one entry, keeping the first base', async () => {
    await saveRows(db, [write({ sales: 120 })], ctx);
    await saveRows(db, [write({ sales: 130 })], ctx);
    await saveRows(db, [write({ gp_net: 75 })], ctx);
    expect(await pendingEntries(db, 'u1')).toMatchObject([{ changes: { sales: 130, gp_net: 75 }, base: { sales: 100, gp_net: 70 }, rev: 3 }]);
    expect(await db.outbox.count()).toBe(1);
  });

  it('queues nothing for a write that changes nothing', async () => {
    expect(await saveRows(db, [write({ sales: 100 })], ctx)).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });

  it('never lets a pull overwrite a field with a pending edit, and logs a value another device set meanwhile', async () => {
    await saveRows(db, [write({ sales: 120 })], ctx);
    await applyPulledRows(db, 'yearly_financial_inputs', [{ id: 'r1', ...key, sales: 110, gp_net: 72 }], 5);
    expect(await row()).toMatchObject({ sales: 120, gp_net: 72 });
    expect(await db.conflicts.toArray()).toMatchObject([{ field: 'sales', old: 100, theirs: 110, ours: 120, at: 5 }]);
    // Seen once is logged once: the same server value again is no new conflict.
    await applyPulledRows(db, 'yearly_financial_inputs', [{ id: 'r1', ...key, sales: 110, gp_net: 72 }], 6);
    expect(await db.conflicts.count()).toBe(1);
  });

  it('keeps an entry edited while its push was in flight, with the sent values as its new base', async () => {
    await saveRows(db, [write({ sales: 120 })], ctx);
    const [sent] = await pendingEntries(db, 'u1');
    await saveRows(db, [write({ sales: 125 })], ctx);
    await confirmPushed(db, 'yearly_financial_inputs', [{ seq: sent?.seq as number, rev: sent?.rev as number, changes: { sales: 120 } }], [{ id: 'r1', ...key, sales: 120, gp_net: 70 }], 7);
    expect(await pendingEntries(db, 'u1')).toMatchObject([{ changes: { sales: 125 }, base: { sales: 120 }, rev: 2 }]);
    expect(await row()).toMatchObject({ sales: 125 });
    expect(await db.conflicts.count()).toBe(0);
  });

  it('removes rows the server retired, and says so when an edit of them was pending', async () => {
    await saveRows(db, [write({ sales: 140 })], ctx);
    await applyPulledRows(db, 'yearly_financial_inputs', [{ id: 'r1', ...key, sales: 100, deleted_at: '2031-07-01T00:00:00Z' }], 9);
    expect(await row()).toBeUndefined();
    expect(await db.conflicts.toArray()).toMatchObject([{ field: '*', theirs: 'deleted', ours: { sales: 140 } }]);
  });
});

describe('a device out of storage', () => {
  it('refuses the write with a message a person can act on, and keeps nothing half-written', async () => {
    const { StorageFullError } = await import('../../../src/data/local-writes.ts');
    const full = new AppDatabase('full', { indexedDB: new IDBFactory(), IDBKeyRange });
    full.outbox.hook('creating', () => {
      throw Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
    });
    await expect(saveRows(full, [write({ sales: 1 })], { userId: 'u1', now: 1 })).rejects.toBeInstanceOf(StorageFullError);
    await expect(saveRows(full, [write({ sales: 1 })], { userId: 'u1', now: 1 })).rejects.toThrow(/out of storage space/);
    expect(await full.mirror('yearly_financial_inputs').count()).toBe(0);
    expect(await full.outbox.count()).toBe(0);
    full.close();
  });
});
