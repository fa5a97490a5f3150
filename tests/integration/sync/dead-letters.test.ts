import { describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import type { Device } from './device.ts';
import { dailyWrite } from './device.ts';
import { useSyncedDevice } from './synced-device.ts';

describe('edits the server refuses', () => {
  let stack: TestStack;
  let device: Device;
  const count = async (where: string, params: unknown[] = []) =>
    (await stack.database.query<{ n: number }>(`select count(*)::int as n from daily_inputs where ${where}`, params)).rows[0]?.n;

  useSyncedDevice('manager@example.com', (world) => ({ stack, device } = world));

  it('lands 499 of a batch of 500 and keeps the one refused row, with the Postgres message', async () => {
    const writes = Array.from({ length: 500 }, (_, n) => dailyWrite(n, n === 137 ? 1e15 : n + 0.5));
    await device.save(writes);
    const result = await device.engine({ batchSize: 500 }).runOnce('manual');
    expect(result).toMatchObject({ ok: true, pushed: 499, refused: 1 });
    expect(await count(`entry_date between '2031-01-01' and '2032-12-31'`)).toBe(499);
    const [letter, ...others] = await device.db.deadLetters.toArray();
    expect(others).toEqual([]);
    expect(letter).toMatchObject({ table: 'daily_inputs', code: '22003', changes: { value: 1e15 } });
    expect(letter?.message).toMatch(/numeric field overflow/);
    expect(await device.db.outbox.count()).toBe(0);
  });

  it("refuses a push into another store (RLS): dead-lettered, and the server is unchanged", async () => {
    const before = await count('store_id = $1', [demo.storeB]);
    const intruding = dailyWrite(3, 9);
    await device.save([{ table: 'daily_inputs', row: { ...intruding.row, store_id: demo.storeB } }]);
    const result = await device.engine().runOnce('manual');
    expect(result).toMatchObject({ ok: true, pushed: 0, refused: 1 });
    expect(await count('store_id = $1', [demo.storeB])).toBe(before);
    expect((await device.db.deadLetters.toArray()).at(-1)).toMatchObject({ code: '42501' });
  });
});
