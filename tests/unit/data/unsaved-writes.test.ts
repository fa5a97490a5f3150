import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppDatabase } from '../../../src/data/app-database.ts';
import { clearLocalData } from '../../../src/data/local-data.ts';
import { replayUnsavedWrites, saveRows } from '../../../src/data/local-writes.ts';
import type { RowWrite } from '../../../src/data/local-writes.ts';
import { guardClosingPage, holdingThePage, noteUnsavedWrite, openSaveNotes, unsavedWrites } from '../../../src/data/unsaved-writes.ts';

const key = { store_id: 's1', year: 2031, month: 6 };
const write = (sales: number): RowWrite => ({ table: 'yearly_financial_inputs', row: { ...key, sales } });
const ctx = { userId: 'u1', now: 1 };
const notes = new IDBFactory();
const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('saves noted before they start', () => {
  let db: AppDatabase | undefined;
  beforeAll(async () => {
    expect(await openSaveNotes(notes)).not.toBeNull();
  });
  afterEach(async () => {
    db?.close();
    await replayUnsavedWrites(new AppDatabase(`drain-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    await settled();
  });
  const open = () => (db = new AppDatabase(`notes-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));

  it('leave no note once the save committed', async () => {
    const device = open();
    expect(await saveRows(device, [write(5)], ctx)).toBe(1);
    await settled();
    expect(await unsavedWrites(notes)).toEqual([]);
  });

  it('applies, at the next start, the saves of a page closed before they committed, oldest first', async () => {
    const device = open();
    // A page noted three keystrokes and was closed before any of their saves committed.
    for (const sales of [4, 42, 42.5]) expect(noteUnsavedWrite({ writes: [write(sales)], ctx })).not.toBeNull();
    expect(await device.mirror('yearly_financial_inputs').count()).toBe(0);
    expect(await replayUnsavedWrites(device)).toBe(3);
    expect(await device.mirror('yearly_financial_inputs').get([key.store_id, key.year, key.month])).toMatchObject({ sales: 42.5 });
    expect(await device.outbox.toArray()).toMatchObject([{ changes: { sales: 42.5 }, userId: 'u1' }]);
    await settled();
    expect(await unsavedWrites(notes)).toEqual([]);
  });

  it('forgets every note when the device is cleared at sign-out, so nothing comes back at the next start', async () => {
    const device = open();
    expect(noteUnsavedWrite({ writes: [write(7)], ctx })).not.toBeNull();
    await clearLocalData(device, { discardUnsynced: true });
    expect(await unsavedWrites(notes)).toEqual([]);
    expect(await replayUnsavedWrites(device)).toBe(0);
    expect(await device.outbox.count()).toBe(0);
  });

  it('drops a noted save that breaks a field limit instead of applying it', async () => {
    const device = open();
    noteUnsavedWrite({ writes: [write(1e15)], ctx });
    expect(await replayUnsavedWrites(device)).toBe(0);
    expect(await device.outbox.count()).toBe(0);
  });
});

describe('an edit typed back to the value it replaced', () => {
  let db: AppDatabase | undefined;
  afterEach(() => db?.close());

  it('has nothing left to send', async () => {
    db = new AppDatabase(`back-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    await db.mirror('yearly_financial_inputs').put({ ...key, sales: 100, gp_net: 70 });
    await saveRows(db, [write(120)], ctx);
    await saveRows(db, [{ table: 'yearly_financial_inputs', row: { ...key, gp_net: 75 } }], ctx);
    await saveRows(db, [write(100)], ctx);
    expect(await db.outbox.toArray()).toMatchObject([{ changes: { gp_net: 75 }, base: { gp_net: 70 } }]);
    expect(Object.keys((await db.outbox.toArray())[0]?.changes ?? {})).toEqual(['gp_net']);
    await saveRows(db, [{ table: 'yearly_financial_inputs', row: { ...key, gp_net: 70 } }], ctx);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.mirror('yearly_financial_inputs').get([key.store_id, key.year, key.month])).toMatchObject({ sales: 100, gp_net: 70 });
  });

  it('is still sent when a push of it may have reached the server (its answer was lost)', async () => {
    db = new AppDatabase(`back-sent-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    await db.mirror('yearly_financial_inputs').put({ ...key, sales: 100 });
    await saveRows(db, [write(120)], ctx);
    const [entry] = await db.outbox.toArray();
    await db.outbox.update(entry?.seq as number, { unconfirmed: [{ rev: 1, changes: { sales: 120 } }] });
    await saveRows(db, [write(100)], ctx);
    expect(await db.outbox.toArray()).toMatchObject([{ changes: { sales: 100 }, base: { sales: 100 } }]);
  });
});

describe('closing the page', () => {
  it('asks only while a save has not committed', async () => {
    let listener: ((event: BeforeUnloadEvent) => void) | undefined;
    const target = {
      addEventListener: (_type: string, handler: (event: BeforeUnloadEvent) => void) => (listener = handler),
      removeEventListener: () => (listener = undefined),
    } as unknown as Pick<Window, 'addEventListener' | 'removeEventListener'>;
    const stop = guardClosingPage(target);
    const closing = () => {
      const event = { prevented: false, returnValue: undefined as unknown, preventDefault() { this.prevented = true; } };
      listener?.(event as unknown as BeforeUnloadEvent);
      return event.prevented;
    };
    expect(closing()).toBe(false);
    let commit: (value: number) => void = () => undefined;
    const saving = holdingThePage(new Promise<number>((resolve) => (commit = resolve)));
    expect(closing()).toBe(true);
    commit(1);
    await saving;
    expect(closing()).toBe(false);
    stop();
    expect(listener).toBeUndefined();
  });
});
