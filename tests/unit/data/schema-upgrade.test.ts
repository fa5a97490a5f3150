import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { AppDatabase, latestSchemaVersion } from '../../../src/data/app-database.ts';
import { readMonthRows } from '../../../src/data/repositories/month-rows.ts';
import { saveRows } from '../../../src/data/local-writes.ts';

/** The object stores' index names as IndexedDB itself holds them. */
function indexNames(factory: IDBFactory, name: string, stores: string[]): Promise<Record<string, string[]>> {
  return new Promise((resolve, reject) => {
    const open = factory.open(name);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction(stores, 'readonly');
      const names = Object.fromEntries(stores.map((store) => [store, [...tx.objectStore(store).indexNames]]));
      open.result.close();
      resolve(names);
    };
  });
}

describe('opening a device database of any earlier version', () => {
  it.each([1, 2, 3, 4, 5])('upgrades version %i to the latest, keeping its rows and queued edits, with every store of the latest', async (version) => {
    const factory = new IDBFactory();
    const old = new AppDatabase(`from-${version}`, { indexedDB: factory, IDBKeyRange, upTo: version });
    await old.mirror('daily_inputs').put({ store_id: 's1', entry_date: '2031-02-03', row_identifier: 'CP', metric_type: 'hours', value: 5 });
    await old.outbox.add({ table: 'daily_inputs', key: '["s1","2031-02-03","CP","hours"]', keyValues: {}, changes: { value: 5 }, base: {}, userId: 'u1', rev: 1, createdAt: 1, updatedAt: 1 });
    old.close();
    const db = new AppDatabase(`from-${version}`, { indexedDB: factory, IDBKeyRange });
    expect((await readMonthRows({ db }, 's1', '2031-02')).daily.map((row) => row.value)).toEqual([5]);
    expect(await db.outbox.count()).toBe(1);
    // Stores added by later versions are there and usable.
    await db.mirror('month_closures').put({ store_id: 's1', month_start: '2031-02-01', closed: true });
    expect(await db.mirror('store_calendar_days').count()).toBe(0);
    await db.submitDrafts.put({ storeId: 's1', key: 'k', date: '2031-02-03', value: 1, seen: null, stamp: 'a', updatedAt: 1 });
    expect(await db.submitDrafts.count()).toBe(1);
    expect(db.verno).toBe(latestSchemaVersion);
    db.close();
  });
});

describe('the device database upgrade that drops indexes repeating a key prefix', () => {
  it('keeps the rows and the queued edit, and the month still reads by store and dates', async () => {
    const factory = new IDBFactory();
    // Version 5 dropped them: open the database as version 4 left it.
    const old = new AppDatabase('upgrade', { indexedDB: factory, IDBKeyRange, upTo: 4 });
    const rows = [
      { store_id: 's1', entry_date: '2031-01-31', row_identifier: 'CP', metric_type: 'hours', value: 7 },
      { store_id: 's1', entry_date: '2031-02-01', row_identifier: 'CP', metric_type: 'hours', value: 8 },
      { store_id: 's1', entry_date: '2031-02-28', row_identifier: 'W', metric_type: 'sales', value: 9 },
      { store_id: 's2', entry_date: '2031-02-10', row_identifier: 'CP', metric_type: 'hours', value: 10 },
    ];
    await old.mirror('daily_inputs').bulkPut(rows);
    await old.mirror('monthly_targets').put({ store_id: 's1', year: 2031, month: 2, metric_key: 'cpElr', target_value: 150 });
    await saveRows(old, [{ table: 'monthly_targets', row: { store_id: 's1', year: 2031, month: 2, metric_key: 'wElr', target_value: 120 } }], { userId: 'u1', now: 1 });
    old.close();
    expect((await indexNames(factory, 'upgrade', ['daily_inputs']))['daily_inputs']).toEqual(['[store_id+entry_date]', '[store_id+year+month]']);

    const db = new AppDatabase('upgrade', { indexedDB: factory, IDBKeyRange });
    const month = await readMonthRows({ db }, 's1', '2031-02');
    // February's grid runs from Sunday 2031-01-26 to Saturday 2031-03-01: the 31st is in it, store s2 is not.
    expect(month.daily.map((row) => row.value)).toEqual([7, 8, 9]);
    expect(month.targets).toEqual({ cpElr: 150, wElr: 120 });
    expect(await db.outbox.count()).toBe(1);
    db.close();
    const after = await indexNames(factory, 'upgrade', ['daily_inputs', 'monthly_targets', 'monthly_labor_gross_inputs', 'yearly_financial_inputs', 'weekly_store_performance']);
    expect(after).toEqual({
      daily_inputs: [],
      monthly_targets: [],
      monthly_labor_gross_inputs: [],
      yearly_financial_inputs: [],
      weekly_store_performance: ['[store_id+year]'],
    });
  });
});
