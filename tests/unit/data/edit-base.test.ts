import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { AppDatabase } from '../../../src/data/app-database.ts';
import { saveRows } from '../../../src/data/local-writes.ts';
import { confirmPushed, pendingEntries } from '../../../src/data/sync-store.ts';

const key = { store_id: 's1', year: 2031, month: 6 };
const ctx = { userId: 'u1', now: 1 };

/** An edit replaces the value the person saw when they started it, not whatever the device holds by the time it is stored. */
describe("an edit's base", () => {
  let db: AppDatabase | undefined;
  afterEach(() => db?.close());

  it('is the value seen when typing started, so another device\'s newer value is logged when the push meets it', async () => {
    db = new AppDatabase(`base-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    // The screen showed 100; another device's 200 reached the device before the first keystroke was stored.
    await db.mirror('yearly_financial_inputs').put({ id: 'r1', ...key, sales: 200 });
    await saveRows(db, [{ table: 'yearly_financial_inputs', row: { ...key, sales: 150 }, seen: { sales: 100 } }], ctx);
    const [entry] = await pendingEntries(db, 'u1');
    expect(entry).toMatchObject({ changes: { sales: 150 }, base: { sales: 100 } });
    const sent = { seq: entry?.seq as number, rev: entry?.rev as number, changes: entry?.changes ?? {}, base: entry?.base };
    await confirmPushed(db, 'yearly_financial_inputs', [sent], [{ id: 'r1', ...key, sales: 150 }], 5, [{ id: 'r1', ...key, sales: 200 }]);
    expect(await db.conflicts.toArray()).toMatchObject([{ field: 'sales', old: 100, theirs: 200, ours: 150 }]);
  });

  it('is the stored value when the screen did not say what it showed', async () => {
    db = new AppDatabase(`base-stored-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    await db.mirror('yearly_financial_inputs').put({ id: 'r1', ...key, sales: 200 });
    await saveRows(db, [{ table: 'yearly_financial_inputs', row: { ...key, sales: 150 } }], ctx);
    expect(await pendingEntries(db, 'u1')).toMatchObject([{ base: { sales: 200 } }]);
  });
});
