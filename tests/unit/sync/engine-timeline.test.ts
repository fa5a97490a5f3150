import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { AppDatabase } from '../../../src/data/app-database.ts';
import type { SyncTrigger } from '../../../src/sync/engine.ts';
import { SyncEngine } from '../../../src/sync/engine.ts';
import { InProcessLocks } from '../../../src/sync/leader.ts';
import type { PullOutcome, SyncTransport } from '../../../src/sync/transport.ts';

/** Time that moves only when the test says so. */
class FakeTime {
  now = 1_000_000;
  private next = 1;
  private pending: Array<{ id: number; due: number; run: () => void }> = [];
  scheduled: number[] = [];
  readonly timers = {
    setTimeout: (run: () => void, ms: number) => {
      const id = this.next++;
      this.scheduled.push(ms);
      this.pending.push({ id, due: this.now + ms, run });
      return id;
    },
    clearTimeout: (id: unknown) => {
      this.pending = this.pending.filter((t) => t.id !== id);
    },
  };
  /** Moves the clock to the next timer and runs it; returns how far it moved. */
  fireNext(): number {
    this.pending.sort((a, b) => a.due - b.due);
    const timer = this.pending.shift();
    if (!timer) throw new Error('no timer pending');
    const moved = timer.due - this.now;
    this.now = timer.due;
    timer.run();
    return moved;
  }
  get pendingCount() {
    return this.pending.length;
  }
}

/** A server that fails pulls while `failing` is true; the engine's timing is what is under test. */
function scriptedTransport() {
  const state: { failing: boolean; pulls: number; retryAfterMs?: number } = { failing: true, pulls: 0 };
  const transport: SyncTransport = {
    session: async () => ({ status: 'signed-in', userId: 'u1' }),
    refreshSession: async () => ({ status: 'signed-in', userId: 'u1' }),
    push: async () => ({ ok: true, rows: [] }),
    pull: async (): Promise<PullOutcome> => {
      state.pulls += 1;
      return state.failing
        ? { ok: false, kind: 'transient', status: 503, code: '', message: 'Service Unavailable', retryAfterMs: state.retryAfterMs }
        : { ok: true, page: { rows: [], cursor: { since: '1' }, hasMore: false } };
    },
  };
  return { transport, state };
}

describe('the sync timeline', () => {
  let db: AppDatabase | undefined;
  afterEach(() => db?.close());

  async function setup() {
    db = new AppDatabase(`timeline-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    const time = new FakeTime();
    const { transport, state } = scriptedTransport();
    const engine = new SyncEngine({
      db,
      transport,
      clock: { now: () => time.now },
      timers: time.timers,
      random: () => 0.5,
      locks: new InProcessLocks(),
      tables: ['daily_inputs'],
      backoff: { baseMs: 1_000, capMs: 60_000 },
      intervalMs: 60_000,
    });
    engine.start();
    while (!engine.isLeader) await new Promise((resolve) => setTimeout(resolve, 0));
    const step = async () => {
      const moved = time.fireNext();
      await engine.whenIdle();
      return moved;
    };
    return { engine, time, state, step };
  }

  it('backs off exponentially with jitter up to the cap, and starts over after a success', async () => {
    const { engine, time, state, step } = await setup();
    expect(await step()).toBe(0); // the start trigger
    const waits: number[] = [];
    for (let i = 0; i < 8; i += 1) waits.push(await step());
    // base 1 s doubling, cap 60 s, equal jitter with random() = 0.5: 3/4 of each ceiling.
    expect(waits).toEqual([750, 1_500, 3_000, 6_000, 12_000, 24_000, 45_000, 45_000]);
    expect(engine.status).toMatchObject({ state: 'backing-off', nextAttemptAt: time.now + 45_000 });

    state.failing = false;
    expect(await step()).toBe(45_000);
    expect(engine.status).toMatchObject({ state: 'idle', lastError: null, lastSyncedAt: time.now });
    expect(await step()).toBe(60_000); // the idle interval

    state.failing = true;
    expect(await step()).toBe(60_000);
    expect(await step()).toBe(750); // the first retry again: the count was reset
    await engine.stop();
  });

  it('ignores routine triggers while backing off, but runs at once when the network returns', async () => {
    const { engine, time, state, step } = await setup();
    await step();
    expect(engine.status.state).toBe('backing-off');
    const pullsBefore = state.pulls;
    for (const trigger of ['tick', 'realtime', 'visible', 'local-write'] satisfies SyncTrigger[]) engine.trigger(trigger);
    expect(time.pendingCount).toBe(1);
    state.failing = false;
    engine.trigger('online');
    expect(await step()).toBe(0);
    expect(state.pulls).toBe(pullsBefore + 1);
    expect(engine.status.state).toBe('idle');
    await engine.stop();
  });

  it('runs at once when the backend answers again (Realtime joined), however long the backoff', async () => {
    const { engine, time, state, step } = await setup();
    for (let i = 0; i < 7; i += 1) await step();
    expect(engine.status).toMatchObject({ state: 'backing-off', nextAttemptAt: time.now + 45_000 });
    state.failing = false;
    engine.trigger('reconnected');
    expect(await step()).toBe(0);
    expect(engine.status.state).toBe('idle');
    await engine.stop();
  });
});

describe('the sync timeline when the server asks to wait (503 with Retry-After)', () => {
  let db: AppDatabase | undefined;
  afterEach(() => db?.close());

  async function setup() {
    db = new AppDatabase(`retry-after-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    const time = new FakeTime();
    const { transport, state } = scriptedTransport();
    const engine = new SyncEngine({
      db,
      transport,
      clock: { now: () => time.now },
      timers: time.timers,
      random: () => 0.5,
      locks: new InProcessLocks(),
      tables: ['daily_inputs'],
      backoff: { baseMs: 1_000, capMs: 60_000 },
      intervalMs: 60_000,
    });
    engine.start();
    while (!engine.isLeader) await new Promise((resolve) => setTimeout(resolve, 0));
    const step = async () => {
      const moved = time.fireNext();
      await engine.whenIdle();
      return moved;
    };
    return { engine, time, state, step };
  }

  it('waits the Retry-After when it is longer than the backoff, and the backoff when that is longer', async () => {
    const { engine, time, state, step } = await setup();
    state.retryAfterMs = 5_000;
    expect(await step()).toBe(0); // the start trigger fails with Retry-After 5 s
    expect(engine.status).toMatchObject({ state: 'backing-off', nextAttemptAt: time.now + 5_000 });
    // Backoff alone would be 750, 1 500, 3 000, 6 000 ms (random 0.5): Retry-After wins until the backoff passes it.
    const waits: number[] = [];
    for (let i = 0; i < 4; i += 1) waits.push(await step());
    expect(waits).toEqual([5_000, 5_000, 5_000, 6_000]);
    state.failing = false;
    expect(await step()).toBe(12_000);
    expect(engine.status.state).toBe('idle');
    await engine.stop();
  });

  it('does not let the network coming back cut the wait the server asked for', async () => {
    const { engine, time, state, step } = await setup();
    state.retryAfterMs = 8_000;
    await step();
    const failedAt = time.now;
    time.now += 3_000; // the network drops and comes back 3 s later
    state.failing = false;
    engine.trigger('online');
    expect(time.pendingCount).toBe(1);
    const pullsBefore = state.pulls;
    await step();
    expect(time.now - failedAt).toBe(8_000);
    expect(state.pulls).toBe(pullsBefore + 1);
    expect(engine.status.state).toBe('idle');
    // Without a Retry-After, the network's return runs a cycle at once again.
    state.failing = true;
    state.retryAfterMs = undefined;
    expect(await step()).toBe(60_000); // the idle interval's tick fails
    state.failing = false;
    engine.trigger('online');
    expect(await step()).toBe(0);
    await engine.stop();
  });
});

describe('a push-first cycle (background sync)', () => {
  it('pulls only the tables it pushes, even before the first full sync', async () => {
    const db = new AppDatabase(`push-first-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    const pulled: string[] = [];
    const { saveRows } = await import('../../../src/data/local-writes.ts');
    await saveRows(db, [{ table: 'monthly_targets', row: { store_id: 's1', year: 2031, month: 1, metric_key: 'cpElr', target_value: 1 } }], { userId: 'u1', now: 1 });
    const engine = new SyncEngine({
      db,
      transport: {
        session: async () => ({ status: 'signed-in', userId: 'u1' }),
        refreshSession: async () => ({ status: 'signed-in', userId: 'u1' }),
        push: async (_table, rows) => ({ ok: true, rows }),
        pull: async (table) => {
          pulled.push(table);
          return { ok: true, page: { rows: [], cursor: null, hasMore: false } };
        },
      },
      clock: { now: () => 0 },
      timers: { setTimeout: () => 0, clearTimeout: () => undefined },
      random: () => 0.5,
      locks: new InProcessLocks(),
    });
    expect(await engine.runOnce('background-sync', { pushFirst: true })).toMatchObject({ ok: true, pushed: 1 });
    expect(pulled).toEqual(['monthly_targets']);
    db.close();
  });
});
