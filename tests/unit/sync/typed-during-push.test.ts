import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { AppDatabase } from '../../../src/data/app-database.ts';
import { saveRows } from '../../../src/data/local-writes.ts';
import type { Row } from '../../../src/data/synced-tables.ts';
import { SyncEngine } from '../../../src/sync/engine.ts';
import { InProcessLocks } from '../../../src/sync/leader.ts';
import type { PullOutcome, PushOutcome, SyncTransport } from '../../../src/sync/transport.ts';

const key = { store_id: 's1', year: 2031, month: 1 };

/** A cell typed on while its earlier value is being pushed: the newer value follows shortly, not at the next minute's sync. */
describe('an edit changed again while its push was out', () => {
  let db: AppDatabase | undefined;
  afterEach(() => db?.close());

  it('is pushed after the pause for typing, not at the idle interval', async () => {
    const device = (db = new AppDatabase(`typed-on-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const save = (sales: number) => saveRows(device, [{ table: 'yearly_financial_inputs', row: { ...key, sales } }], { userId: 'u1', now: 1 });
    const pushed: Row[][] = [];
    const transport: SyncTransport = {
      session: async () => ({ status: 'signed-in', userId: 'u1' }),
      refreshSession: async () => ({ status: 'signed-in', userId: 'u1' }),
      push: async (_table, rows): Promise<PushOutcome> => {
        pushed.push(rows);
        // The person types the next digit while the first push is on its way.
        if (pushed.length === 1) await save(42);
        return { ok: true, rows, before: rows.map(() => null) };
      },
      pull: async (): Promise<PullOutcome> => ({ ok: true, page: { rows: [], cursor: null, hasMore: false } }),
    };
    const scheduled: Array<{ ms: number; run: () => void }> = [];
    const engine = new SyncEngine({
      db: device,
      transport,
      clock: { now: () => 1 },
      timers: { setTimeout: (run, ms) => scheduled.push({ ms, run }), clearTimeout: () => undefined },
      random: () => 0.5,
      locks: new InProcessLocks(),
      tables: ['yearly_financial_inputs'],
      debounceMs: 400,
      intervalMs: 60_000,
    });
    engine.start();
    while (!engine.isLeader) await new Promise((resolve) => setTimeout(resolve, 0));
    // The start's cycle: nothing to send; then the idle interval.
    scheduled.at(-1)?.run();
    await engine.whenIdle();
    expect(scheduled.at(-1)?.ms).toBe(60_000);
    await save(4);
    expect(await engine.runOnce('manual')).toMatchObject({ ok: true, pushed: 1, waiting: 1 });
    expect(scheduled.at(-1)?.ms).toBe(400);
    scheduled.at(-1)?.run();
    await engine.whenIdle();
    expect(pushed.map((rows) => rows[0]?.sales)).toEqual([4, 42]);
    expect(await device.outbox.count()).toBe(0);
    expect(scheduled.at(-1)?.ms).toBe(60_000);
    await engine.stop();
  });
});
