/**
 * A device edits its own cells while replies to its pushes get lost after the server
 * acted: the server already holds a value the device sent, the device does not know it,
 * and the person edits the cell again. Only values another device really wrote belong in
 * the conflict log ("Changed on another device too").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import type { Device } from './device.ts';
import { createDevice, dailyWrite } from './device.ts';

const push = /push_changes/;

describe('own edits under lost push replies', () => {
  let stack: TestStack;
  let device: Device;
  const serverValue = async (n: number) => {
    const date = String(dailyWrite(n, 0).row.entry_date);
    const { rows } = await stack.database.query<{ value: string }>(
      `select value::text from daily_inputs where store_id = $1 and entry_date = $2 and row_identifier = 'CP' and metric_type = 'hours'`,
      [demo.storeA, date],
    );
    return rows.map((row) => Number(row.value));
  };
  /** The conflict log's entries about the n-th day's cell. */
  const conflictsOf = async (n: number) => {
    const date = String(dailyWrite(n, 0).row.entry_date);
    return (await device.db.conflicts.toArray()).filter((conflict) => conflict.key.includes(`"${date}"`));
  };

  beforeAll(async () => {
    stack = await startTestStack();
    device = await createDevice(stack, 'manager@example.com');
    expect(await device.engine().runOnce('start')).toMatchObject({ ok: true });
  });
  afterAll(async () => {
    device?.close();
    await stack?.stop();
  });

  it('logs no conflict for a value this device sent whose reply was lost, then edited again', async () => {
    const engine = device.engine();
    await device.save([dailyWrite(40, 100)]);
    expect(await engine.runOnce('manual')).toMatchObject({ ok: true, pushed: 1 });

    // 150 reaches the server; the answer never reaches the device.
    await device.save([dailyWrite(40, 150)]);
    device.network.cutNextMatching(push, 'after-commit');
    expect(await engine.runOnce('manual')).toMatchObject({ ok: false });
    expect(await serverValue(40)).toEqual([150]);

    // The person types again before the device learns anything: one coalesced entry.
    await device.save([dailyWrite(40, 175)]);
    expect(await engine.runOnce('manual')).toMatchObject({ ok: true });
    expect(await serverValue(40)).toEqual([175]);
    expect(await device.db.outbox.count()).toBe(0);
    expect(await conflictsOf(40)).toEqual([]);
  });

  it('logs no conflict across several lost replies in a row, pulls in between', async () => {
    const engine = device.engine();
    await device.save([dailyWrite(41, 10)]);
    expect(await engine.runOnce('manual')).toMatchObject({ ok: true });
    for (const value of [11, 12, 13]) {
      await device.save([dailyWrite(41, value)]);
      device.network.cutNextMatching(push, 'after-commit');
      expect(await engine.runOnce('manual')).toMatchObject({ ok: false });
    }
    // A cycle whose push is cut before it leaves: the pull still brings the server's 13.
    await device.save([dailyWrite(41, 14)]);
    device.network.cutNextMatching(push, 'before-send');
    expect(await engine.runOnce('manual')).toMatchObject({ ok: false });
    expect(await engine.runOnce('manual')).toMatchObject({ ok: true });
    expect(await serverValue(41)).toEqual([14]);
    expect(await conflictsOf(41)).toEqual([]);
  });

  it('still logs the value another device wrote after this device sent its own (reply lost)', async () => {
    const engine = device.engine();
    await device.save([dailyWrite(42, 1)]);
    expect(await engine.runOnce('manual')).toMatchObject({ ok: true });
    await device.save([dailyWrite(42, 2)]);
    device.network.cutNextMatching(push, 'after-commit');
    expect(await engine.runOnce('manual')).toMatchObject({ ok: false });
    // Another device changes the cell after this device's 2 landed.
    const date = String(dailyWrite(42, 0).row.entry_date);
    await stack.database.query(
      `update daily_inputs set value = 300 where store_id = $1 and entry_date = $2 and row_identifier = 'CP' and metric_type = 'hours'`,
      [demo.storeA, date],
    );
    await device.save([dailyWrite(42, 3)]);
    expect(await engine.runOnce('manual')).toMatchObject({ ok: true });
    expect(await serverValue(42)).toEqual([3]);
    const logged = await conflictsOf(42);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ table: 'daily_inputs', field: 'value', old: 2, theirs: 300, ours: 3 });
  });
});
