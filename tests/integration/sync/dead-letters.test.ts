import { describe, expect, it } from 'vitest';
import type { RowWrite } from '../../../src/data/local-writes.ts';
import { FieldLimitError } from '../../../src/data/local-writes.ts';
import { keyOf, keyText, syncedTables } from '../../../src/data/synced-tables.ts';
import { explainRefusal } from '../../../src/domain/refusals.ts';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import type { Device } from './device.ts';
import { dailyWrite, syncUntilSettled } from './device.ts';
import { useSyncedDevice } from './synced-device.ts';

/**
 * Queues edits as an app version from before the field limits did: straight into the
 * outbox, unchecked. Such entries survive an app update on a device that was offline.
 */
async function queueAsOlderApp(device: Device, writes: RowWrite[]) {
  await device.db.outbox.bulkAdd(
    writes.map(({ table, row }) => {
      const keyColumns: readonly string[] = syncedTables[table].key;
      return {
        table,
        key: keyText(keyOf(table, row)),
        keyValues: Object.fromEntries(keyColumns.map((column) => [column, row[column]])),
        changes: Object.fromEntries(Object.entries(row).filter(([column]) => !keyColumns.includes(column))),
        base: {},
        userId: device.userId,
        rev: 1,
        createdAt: 1,
        updatedAt: 1,
      };
    }),
  );
}

describe('edits the server refuses', () => {
  let stack: TestStack;
  let device: Device;
  const count = async (where: string, params: unknown[] = []) =>
    (await stack.database.query<{ n: number }>(`select count(*)::int as n from daily_inputs where ${where}`, params)).rows[0]?.n;

  useSyncedDevice('manager@example.com', (world) => ({ stack, device } = world));

  it('are never queued when they break a field limit: the device refuses them first', async () => {
    const before = await device.db.outbox.count();
    await expect(device.save([dailyWrite(600, 12), dailyWrite(601, -5)])).rejects.toBeInstanceOf(FieldLimitError);
    await expect(device.save([dailyWrite(602, 1e15)])).rejects.toThrow('CP Hours 2032-08-25: enter a number from 0 to 1,000.');
    expect(await device.db.outbox.count()).toBe(before);
  });

  it('lands 499 of a batch of 500 and keeps the one refused row, with the reason and the Postgres message', async () => {
    // The bad row was queued by an app from before the limits; the device still holds it after the update.
    await device.save(Array.from({ length: 500 }, (_, n) => dailyWrite(n, n + 0.5)).filter((_, n) => n !== 137));
    await queueAsOlderApp(device, [dailyWrite(137, 1e15)]);
    const result = await syncUntilSettled(device.engine({ batchSize: 500 }));
    expect(result.ok, `transient failures: ${result.transient.join('; ')}`).toBe(true);
    // A cycle cut short reports nothing of the batches it did land; the counts are the
    // engine's own only when the first cycle ended well. The rows below are checked either way.
    if (result.transient.length === 0) expect(result).toMatchObject({ pushed: 499, refused: 1 });
    expect(await count(`entry_date between '2031-01-01' and '2032-12-31'`)).toBe(499);
    const [letter, ...others] = await device.db.deadLetters.toArray();
    expect(others).toEqual([]);
    expect(letter).toMatchObject({ table: 'daily_inputs', code: '22003', changes: { value: 1e15 } });
    expect(letter?.message).toMatch(/numeric field overflow/);
    // 2031-01-01 + 137 days is 2031-05-18.
    expect(letter && explainRefusal(letter)).toBe('CP Hours 2031-05-18: enter a number from 0 to 1,000 (sent: 1,000,000,000,000,000).');
    expect(await device.db.outbox.count()).toBe(0);
  });

  it('names the field and its range for a value the database refuses by its check', async () => {
    await device.db.deadLetters.clear();
    await queueAsOlderApp(device, [dailyWrite(700, -3, 'W')]);
    const result = await device.engine().runOnce('manual');
    expect(result).toMatchObject({ ok: true, pushed: 0, refused: 1 });
    const [letter] = await device.db.deadLetters.toArray();
    expect(letter).toMatchObject({ code: '23514', message: expect.stringContaining('"daily_inputs_value_in_range"') });
    // 2031-01-01 + 700 days is 2032-12-01.
    expect(letter && explainRefusal(letter)).toBe('W Hours 2032-12-01: -3 is not allowed; enter a number from 0 to 1,000.');
    expect(await count(`entry_date = '2032-12-01'`)).toBe(0);
  });

  it('keeps an edit this device accepts but a newer server rule refuses, saying so', async () => {
    await device.db.deadLetters.clear();
    // The server moved on (a later release caps a day's hours at 24 per category, for new writes); this app still allows 1,000.
    await stack.database.exec(`alter table public.daily_inputs drop constraint daily_inputs_value_in_range,
      add constraint daily_inputs_value_in_range check (value is null or (value <> 'NaN' and value between 0 and case metric_type when 'hours' then 24 else 500000 end)) not valid`);
    try {
      await device.save([dailyWrite(710, 30)]);
      const result = await device.engine().runOnce('manual');
      expect(result).toMatchObject({ ok: true, pushed: 0, refused: 1 });
      const [letter] = await device.db.deadLetters.toArray();
      expect(letter).toMatchObject({ code: '23514', changes: { value: 30 } });
      // 2031-01-01 + 710 days is 2032-12-11.
      expect(letter && explainRefusal(letter)).toBe(
        'CP Hours 2032-12-11: the server refused 30 under a rule newer than this app (which allows a number from 0 to 1,000); reload the app to update it, then correct the value.',
      );
      expect(await count(`entry_date = '2032-12-11'`)).toBe(0);
    } finally {
      await stack.database.exec(`alter table public.daily_inputs drop constraint daily_inputs_value_in_range,
        add constraint daily_inputs_value_in_range check (value is null or (value <> 'NaN' and case metric_type when 'hours' then value between 0 and 1000 when 'sales' then value between 0 and 500000 else false end))`);
    }
  });

  it("refuses a push into another store (RLS): dead-lettered, and the server is unchanged", async () => {
    const before = await count('store_id = $1', [demo.storeB]);
    const intruding = dailyWrite(3, 9);
    await device.save([{ table: 'daily_inputs', row: { ...intruding.row, store_id: demo.storeB } }]);
    const result = await device.engine().runOnce('manual');
    expect(result).toMatchObject({ ok: true, pushed: 0, refused: 1 });
    expect(await count('store_id = $1', [demo.storeB])).toBe(before);
    const letter = (await device.db.deadLetters.toArray()).at(-1);
    expect(letter).toMatchObject({ code: '42501' });
    expect(letter && explainRefusal(letter)).toBe("This account may not change this record: it belongs to another store, or the account's access changed.");
  });
});
