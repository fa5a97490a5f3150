import { IDBFactory } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessLocks } from '../../../src/sync/leader.ts';
import type { SyncEngine } from '../../../src/sync/engine.ts';
import type { SyncTransport } from '../../../src/sync/transport.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import type { Device } from './device.ts';
import { createDevice, dailyWrite } from './device.ts';
import { untilTrue } from '../../support/poll.ts';
/** Until `check` holds (10000 ms unless told). */
const until = (check: () => boolean | Promise<boolean>, ms = 10000) => untilTrue(check, ms);


describe('three tabs of one browser', () => {
  let stack: TestStack;
  const tabs: Device[] = [];
  const engines: SyncEngine[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let pushes = 0;

  const counted = (transport: SyncTransport): SyncTransport => ({
    ...transport,
    async push(table, rows) {
      inFlight += 1;
      pushes += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        return await transport.push(table, rows);
      } finally {
        inFlight -= 1;
      }
    },
  });
  const serverRows = async () =>
    (
      await stack.database.query<{ n: number; distinct_days: number }>(
        `select count(*)::int as n, count(distinct entry_date)::int as distinct_days from daily_inputs where entry_date >= '2031-01-01'`,
      )
    ).rows[0];

  beforeAll(async () => {
    stack = await startTestStack();
    const browser = new IDBFactory();
    const locks = new InProcessLocks();
    for (let i = 0; i < 3; i += 1) {
      const tab = await createDevice(stack, 'manager@example.com', { indexedDB: browser, locks, signIn: i === 0 });
      tabs.push(tab);
      engines.push(tab.engine({ transport: counted(tab.transport), debounceMs: 5, intervalMs: 50, batchSize: 10 }));
    }
  });
  afterAll(async () => {
    await Promise.all(engines.map((engine) => engine.stop()));
    tabs.forEach((tab) => tab.close());
    await stack?.stop();
  });

  it('lets one leader push at a time, without duplicates, and hands over when it stops', async () => {
    engines.forEach((engine) => engine.start());
    await until(() => engines.some((engine) => engine.isLeader));
    expect(engines.filter((engine) => engine.isLeader)).toHaveLength(1);

    const [first] = tabs as [Device];
    await first.save(Array.from({ length: 60 }, (_, n) => dailyWrite(n, n + 1)));
    engines.forEach((engine) => engine.trigger('local-write'));
    await until(async () => (await first.db.outbox.count()) === 0);
    expect(await serverRows()).toEqual({ n: 60, distinct_days: 60 });

    const leader = engines.find((engine) => engine.isLeader) as SyncEngine;
    await leader.stop();
    await until(() => engines.some((engine) => engine !== leader && engine.isLeader));
    await first.save(Array.from({ length: 30 }, (_, n) => dailyWrite(100 + n, n + 1)));
    engines.forEach((engine) => engine.trigger('local-write'));
    await until(async () => (await first.db.outbox.count()) === 0);

    expect(await serverRows()).toEqual({ n: 90, distinct_days: 90 });
    expect(maxInFlight).toBe(1);
    expect(pushes).toBeGreaterThanOrEqual(9);
    expect(engines.filter((engine) => engine.isLeader)).toHaveLength(1);
  });
});
