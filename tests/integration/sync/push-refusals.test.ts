/**
 * A device's batch that holds several rows the server refuses, each for another reason:
 * every refused row is dead-lettered alone, with its own code and the server's message
 * for that row, and every other row of the batch lands, through the real stack.
 */
import { describe, expect, it } from 'vitest';
import type { RowWrite } from '../../../src/data/local-writes.ts';
import { keyOf, keyText, syncedTables } from '../../../src/data/synced-tables.ts';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import type { Device } from './device.ts';
import { dailyWrite, syncUntilSettled } from './device.ts';
import { useSyncedDevice } from './synced-device.ts';

/** Queues rows straight into the outbox, unchecked, as an app version without field limits did. */
async function queueUnchecked(device: Device, writes: RowWrite[]) {
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

describe('a batch with several refused rows', () => {
  let stack: TestStack;
  let device: Device;
  useSyncedDevice('manager@example.com', (world) => ({ stack, device } = world));

  it('dead-letters each refused row alone, with its own reason, and lands all the others', async () => {
    // Days 0-99 from 2031-01-01, CP, W and I: 300 rows; the five below, in their places, are refused.
    const good = Array.from({ length: 300 }, (_, n) => dailyWrite(Math.floor(n / 3), n + 0.5, (['CP', 'W', 'I'] as const)[n % 3]));
    const refused = new Map<number, RowWrite>([
      [20, dailyWrite(6, 1e15, 'I')],
      [75, dailyWrite(25, -4)],
      [150, { table: 'daily_inputs', row: { ...dailyWrite(50, 1).row, store_id: demo.storeB } }],
      [151, { table: 'daily_inputs', row: { ...dailyWrite(50, 1, 'W').row, shop_notes: 'x' } }],
      // 2031-01-01 + 90 days is 2031-04-01: the trigger below refuses its CP hours, as a closed month would.
      [270, dailyWrite(90, 2)],
    ]);
    await stack.database.exec(`
      create function public.refuse_closed_day() returns trigger language plpgsql set search_path = '' as $$
      begin
        if new.entry_date = date '2031-04-01' and new.row_identifier = 'CP' then
          raise exception 'April 2031 was closed by Dana Reyes' using errcode = '23514';
        end if;
        return new;
      end $$;
      create trigger refuse_closed_day before insert or update on public.daily_inputs
        for each row execute function public.refuse_closed_day();`);
    try {
      // The device queues the rows it accepts; the others came from an older app.
      await device.save(good.filter((_, n) => !refused.has(n)));
      await queueUnchecked(device, [...refused.values()]);
      const queued = await device.db.outbox.count();
      expect(queued).toBe(300);

      const result = await syncUntilSettled(device.engine());
      expect(result.ok, `transient failures: ${result.transient.join('; ')}`).toBe(true);
      // A cycle cut short reports nothing of the batches it did land; the counts are the
      // engine's own only when the first cycle ended well. The rows below are checked either way.
      if (result.transient.length === 0) expect(result).toMatchObject({ pushed: 295, refused: 5 });
      const letters = (await device.db.deadLetters.toArray()).map((letter) => ({ key: letter.key, code: letter.code, message: letter.message }));
      const keyOfWrite = (write: RowWrite | undefined) => (write ? keyText(keyOf('daily_inputs', write.row)) : '');
      expect(letters.sort((a, b) => a.key.localeCompare(b.key))).toEqual(
        [
          { key: keyOfWrite(refused.get(20)), code: '22003', message: 'numeric field overflow' },
          { key: keyOfWrite(refused.get(75)), code: '23514', message: expect.stringContaining('"daily_inputs_value_in_range"') },
          { key: keyOfWrite(refused.get(150)), code: '42501', message: 'new row violates row-level security policy for table "daily_inputs"' },
          { key: keyOfWrite(refused.get(151)), code: '42703', message: 'push_changes: column "shop_notes" of "daily_inputs" cannot be written' },
          { key: keyOfWrite(refused.get(270)), code: '23514', message: 'April 2031 was closed by Dana Reyes' },
        ].sort((a, b) => a.key.localeCompare(b.key)),
      );
      expect(await device.db.outbox.count()).toBe(0);

      // The server holds exactly the 295 others, with the values sent.
      const expectedTotal = good.reduce((sum, write, n) => (refused.has(n) ? sum : sum + Number(write.row.value)), 0);
      const { rows } = await stack.database.query<{ n: number; total: string }>(
        `select count(*)::int as n, sum(value)::text as total from public.daily_inputs
         where store_id = $1 and entry_date between '2031-01-01' and '2031-04-10'`,
        [demo.storeA],
      );
      expect(rows[0]).toEqual({ n: 295, total: expectedTotal.toFixed(2) });
    } finally {
      await stack.database.exec('drop trigger refuse_closed_day on public.daily_inputs; drop function public.refuse_closed_day();');
    }
  });
});
