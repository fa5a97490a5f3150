import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppDatabase } from '../../../src/data/app-database.ts';
import { saveRows } from '../../../src/data/local-writes.ts';
import { applyPulledRows, confirmPushed, pendingEntries } from '../../../src/data/sync-store.ts';

const key = { store_id: 's1', year: 2031, month: 6 };
const write = (fields: Record<string, unknown>) => ({ table: 'yearly_financial_inputs' as const, row: { ...key, ...fields } });

/** Two devices that both pulled before either pushed: the push's answer says what it overwrote. */
describe('a push that overwrote another device value', () => {
  let db: AppDatabase;
  const ctx = { userId: 'u1', now: 1 };

  beforeEach(async () => {
    db = new AppDatabase('unit-overwritten', { indexedDB: new IDBFactory(), IDBKeyRange });
    await applyPulledRows(db, 'yearly_financial_inputs', [{ id: 'r1', ...key, sales: 100, gp_net: 70 }], 0);
  });
  afterEach(() => db.close());

  async function pushWithServerHolding(before: Record<string, unknown> | null) {
    const [entry] = await pendingEntries(db, 'u1');
    if (!entry) throw new Error('nothing queued');
    const sent = { seq: entry.seq as number, rev: entry.rev, changes: entry.changes, base: entry.base };
    await confirmPushed(db, 'yearly_financial_inputs', [sent], [{ id: 'r1', ...key, ...before, ...entry.changes }], 8, [before]);
  }

  it('logs the value the server held when it was neither the replaced value nor ours', async () => {
    await saveRows(db, [write({ sales: 120 })], ctx);
    await pushWithServerHolding({ sales: 110, gp_net: 70 });
    expect(await db.conflicts.toArray()).toMatchObject([{ field: 'sales', old: 100, theirs: 110, ours: 120, at: 8 }]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('logs nothing when the server still held the replaced value, or already ours (a lost reply sent again)', async () => {
    await saveRows(db, [write({ sales: 120 })], ctx);
    await pushWithServerHolding({ sales: 100, gp_net: 70 });
    await saveRows(db, [write({ sales: 130 })], ctx);
    await pushWithServerHolding({ sales: 130, gp_net: 70 });
    expect(await db.conflicts.count()).toBe(0);
  });

  it('logs a row another device created first, and nothing for a row that was new', async () => {
    const fresh = { store_id: 's1', year: 2031, month: 7 };
    await saveRows(db, [{ table: 'yearly_financial_inputs', row: { ...fresh, sales: 50 } }], ctx);
    const [entry] = await pendingEntries(db, 'u1');
    const sent = { seq: entry?.seq as number, rev: entry?.rev as number, changes: entry?.changes ?? {}, base: entry?.base };
    await confirmPushed(db, 'yearly_financial_inputs', [sent], [{ id: 'r2', ...fresh, sales: 50 }], 9, [{ id: 'r2', ...fresh, sales: 40 }]);
    expect(await db.conflicts.toArray()).toMatchObject([{ field: 'sales', old: null, theirs: 40, ours: 50 }]);
    await saveRows(db, [{ table: 'yearly_financial_inputs', row: { ...fresh, month: 8, sales: 5 } }], ctx);
    const [next] = await pendingEntries(db, 'u1');
    await confirmPushed(db, 'yearly_financial_inputs', [{ seq: next?.seq as number, rev: next?.rev as number, changes: next?.changes ?? {}, base: next?.base }], [], 10, [null]);
    expect(await db.conflicts.count()).toBe(1);
  });
});
