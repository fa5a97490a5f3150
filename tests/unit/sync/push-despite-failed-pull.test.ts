import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { AppDatabase } from '../../../src/data/app-database.ts';
import { saveRows } from '../../../src/data/local-writes.ts';
import type { Row } from '../../../src/data/synced-tables.ts';
import { SyncEngine } from '../../../src/sync/engine.ts';
import { InProcessLocks } from '../../../src/sync/leader.ts';
import type { PullOutcome, PushOutcome, SyncTransport } from '../../../src/sync/transport.ts';

/** On a link that loses pull replies, edits still go out: the push does not wait for a pull that failed. */
describe('a cycle whose pull fails for the network', () => {
  let db: AppDatabase | undefined;
  afterEach(() => db?.close());

  it('still pushes the outbox, and reports the cycle as failed so it is tried again', async () => {
    db = new AppDatabase(`pull-fails-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    const pushed: Row[][] = [];
    const transport: SyncTransport = {
      session: async () => ({ status: 'signed-in', userId: 'u1' }),
      refreshSession: async () => ({ status: 'signed-in', userId: 'u1' }),
      push: async (_table, rows): Promise<PushOutcome> => {
        pushed.push(rows);
        return { ok: true, rows, before: rows.map(() => null) };
      },
      pull: async (): Promise<PullOutcome> => ({ ok: false, kind: 'transient', status: 0, code: '', message: 'Failed to fetch' }),
    };
    const engine = new SyncEngine({
      db,
      transport,
      clock: { now: () => 1 },
      timers: { setTimeout: () => 0, clearTimeout: () => undefined },
      random: () => 0.5,
      locks: new InProcessLocks(),
      tables: ['yearly_financial_inputs'],
    });
    await saveRows(db, [{ table: 'yearly_financial_inputs', row: { store_id: 's1', year: 2031, month: 1, sales: 5 } }], { userId: 'u1', now: 1 });
    const result = await engine.runOnce('retry');
    // The pull's failure is reported as a sentence a person can read, not the browser's words.
    expect(result).toMatchObject({ ok: false, reason: 'transient', message: expect.stringMatching(/^Cannot reach the server\./) });
    expect(pushed).toEqual([[{ store_id: 's1', year: 2031, month: 1, sales: 5 }]]);
    expect(await db.outbox.count()).toBe(0);
  });
});
