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
    let now = 1;
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
      clock: { now: () => now },
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
    now = 1_000; // the typing has rested
    scheduled.at(-1)?.run();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await engine.whenIdle();
    expect(pushed.map((rows) => rows[0]?.sales)).toEqual([4, 42]);
    expect(await device.outbox.count()).toBe(0);
    expect(scheduled.at(-1)?.ms).toBe(60_000);
    await engine.stop();
  });
});

/** A push waits for typing to pause, so the server's history gets the number typed, not its first digits. */
describe('a push after typing', () => {
  let db: AppDatabase | undefined;
  afterEach(() => db?.close());

  it('waits until edits have rested for the debounce, at most the longest wait', async () => {
    const device = (db = new AppDatabase(`typing-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    let now = 10_000;
    const save = (sales: number) => saveRows(device, [{ table: 'yearly_financial_inputs', row: { ...key, sales } }], { userId: 'u1', now });
    const pushed: unknown[] = [];
    const transport: SyncTransport = {
      session: async () => ({ status: 'signed-in', userId: 'u1' }),
      refreshSession: async () => ({ status: 'signed-in', userId: 'u1' }),
      push: async (_table, rows): Promise<PushOutcome> => {
        pushed.push(rows[0]?.sales);
        return { ok: true, rows, before: rows.map(() => null) };
      },
      pull: async (): Promise<PullOutcome> => ({ ok: true, page: { rows: [], cursor: null, hasMore: false } }),
    };
    const timers: Array<{ due: number; run: () => void }> = [];
    const engine = new SyncEngine({
      db: device,
      transport,
      clock: { now: () => now },
      timers: { setTimeout: (run, ms) => timers.push({ due: now + ms, run }), clearTimeout: () => undefined },
      random: () => 0.5,
      locks: new InProcessLocks(),
      tables: ['yearly_financial_inputs'],
      debounceMs: 400,
      debounceMaxMs: 2_000,
      intervalMs: 60_000,
    });
    const fireAt = async (at: number) => {
      now = at;
      const timer = timers.pop();
      expect(timer?.due).toBe(at);
      timer?.run();
      await new Promise((resolve) => setTimeout(resolve, 20));
      await engine.whenIdle();
    };
    engine.start();
    while (!engine.isLeader) await new Promise((resolve) => setTimeout(resolve, 0));
    await fireAt(10_000); // the start's cycle
    // Keystrokes 300 ms apart: "4", "40", "401", "4010"; each check finds the last one too recent.
    await save(4);
    engine.trigger('local-write');
    for (const [at, sales, check] of [[10_300, 40, 10_400], [10_600, 401, 10_700], [10_900, 4010, 11_000]] as const) {
      now = at;
      await save(sales);
      await fireAt(check);
      expect(pushed).toEqual([]);
    }
    // 400 ms after the last keystroke: the number as typed, once.
    await fireAt(11_300);
    expect(pushed).toEqual([4010]);

    // Typing that never rests (a keystroke 100 ms before each check) is pushed at the longest wait.
    now = 11_300;
    await save(1);
    engine.trigger('local-write');
    for (const check of [11_700, 12_000, 12_300, 12_600, 12_900, 13_200]) {
      now = check - 100;
      await save(now);
      await fireAt(check);
      expect(pushed).toEqual([4010]);
    }
    await fireAt(13_300);
    expect(pushed).toEqual([4010, 13_100]);
    await engine.stop();
  });
});
