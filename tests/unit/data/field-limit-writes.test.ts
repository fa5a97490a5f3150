import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppDatabase } from '../../../src/data/app-database.ts';
import { FieldLimitError, saveRows } from '../../../src/data/local-writes.ts';

const day = (value: unknown, row = 'CP') => ({
  table: 'daily_inputs' as const,
  row: { store_id: 's1', entry_date: '2031-01-04', row_identifier: row, metric_type: 'hours', year: 2031, month: 1, day_of_week_iso: 6, value },
});

describe('the data layer refuses to queue a value the server would refuse', () => {
  let db: AppDatabase;
  const ctx = { userId: 'u1', now: 1 };
  beforeEach(() => {
    db = new AppDatabase('limits', { indexedDB: new IDBFactory(), IDBKeyRange });
  });
  afterEach(() => db.close());

  it.each([[-5], [1e15], [Number.NaN], [Infinity], [7.125], ['12']])('refuses hours of %s with a typed error, writing and queueing nothing', async (value) => {
    const refused = saveRows(db, [day(value)], ctx);
    await expect(refused).rejects.toBeInstanceOf(FieldLimitError);
    await expect(refused).rejects.toMatchObject({ problem: { table: 'daily_inputs', column: 'value' }, message: expect.stringMatching(/^CP Hours 2031-01-04: /) });
    expect(await db.outbox.count()).toBe(0);
    expect(await db.mirror('daily_inputs').count()).toBe(0);
  });

  it('refuses a whole save when one row of it is bad, so a submit is one unit', async () => {
    await expect(saveRows(db, [day(8, 'W'), day(-1, 'I')], ctx)).rejects.toBeInstanceOf(FieldLimitError);
    expect(await db.outbox.count()).toBe(0);
    expect(await saveRows(db, [day(8, 'W'), day(1000, 'I'), day(null)], ctx)).toBe(3);
    expect(await db.outbox.count()).toBe(3);
  });
});
