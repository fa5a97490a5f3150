import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import type { Device } from './device.ts';
import { seeded } from '../../support/random.ts';
import { createDevice, dailyWrite } from './device.ts';

describe('pushing through a network that breaks', () => {
  let stack: TestStack;
  let device: Device;
  beforeAll(async () => {
    stack = await startTestStack();
    device = await createDevice(stack, 'manager@example.com');
  });
  afterAll(async () => {
    device?.close();
    await stack?.stop();
  });

  it('lands each of 500 edits exactly once, as last written, after 50 cuts (some after the server committed)', async () => {
    const random = seeded(42).next;
    const engine = device.engine({ batchSize: 25 });
    const expected = new Map<string, number>();
    const write = async (n: number, value: number) => {
      const edit = dailyWrite(n, value);
      expected.set(String(edit.row.entry_date), value);
      await device.save([edit]);
    };
    for (let n = 0; n < 500; n += 1) await write(n, 10 + (n % 90));
    // The first cycle pulls the store; cuts aim at the pushes after it.
    await engine.runOnce('start');

    let cycles = 0;
    while ((await device.db.outbox.count()) > 0 || device.network.cutsMade.length < 50) {
      cycles += 1;
      if (cycles > 400) throw new Error('the outbox never drained');
      if (device.network.cutsMade.length < 50) {
        device.network.cutRequest(1 + Math.floor(random() * 3), random() < 0.5 ? 'before-send' : 'after-commit');
      }
      // A person keeps typing between attempts: some rows change again.
      if (random() < 0.3) await write(Math.floor(random() * 500), Math.round(random() * 1000) / 10);
      if (random() < 0.2 && (await device.db.outbox.count()) === 0) await write(Math.floor(random() * 500), 1 + cycles);
      await engine.runOnce('manual');
    }

    const cuts = device.network.cutsMade;
    expect(cuts.length).toBeGreaterThanOrEqual(50);
    expect(cuts.filter((c) => c === 'after-commit').length).toBeGreaterThan(10);
    const { rows } = await stack.database.query<{ entry_date: string; value: string; n: number }>(
      `select entry_date::text, value::text, count(*) over (partition by entry_date)::int as n
       from daily_inputs where store_id = $1 and row_identifier = 'CP' and metric_type = 'hours'
         and entry_date between '2031-01-01' and '2032-12-31' order by entry_date`,
      [demo.storeA],
    );
    expect(rows.length).toBe(500);
    expect(rows.every((row) => row.n === 1)).toBe(true);
    const server = new Map(rows.map((row) => [row.entry_date, Number(row.value)]));
    const differences = [...expected].filter(([day, value]) => server.get(day) !== value).map(([day, value]) => `${day}: expected ${value}, server ${server.get(day)}`);
    expect(differences).toEqual([]);
    const local = await device.db.mirror('daily_inputs').where('[store_id+entry_date]').between([demo.storeA, '2031-01-01'], [demo.storeA, '2032-12-31']).toArray();
    expect(new Map(local.map((row) => [row.entry_date as string, Number(row.value)]))).toEqual(expected);
    expect(await device.db.deadLetters.count()).toBe(0);
  });
});
