import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { AppDatabase } from '../../../src/data/app-database.ts';
import { saveRows } from '../../../src/data/local-writes.ts';
import type { Row } from '../../../src/data/synced-tables.ts';
import { SyncEngine } from '../../../src/sync/engine.ts';
import { InProcessLocks } from '../../../src/sync/leader.ts';
import type { PullOutcome, PushOutcome, SyncTransport } from '../../../src/sync/transport.ts';

const key = { store_id: 's1', year: 2031, month: 6 };

/**
 * A server of one row: a push writes it and answers what it held before; `loseNextReply`
 * drops the answer after the write, as a cut network does. A pull brings the row when it
 * changed since the cursor.
 */
function oneRowServer() {
  let row: Row = { id: 'r1', ...key, sales: 100 };
  let version = 1;
  const server = {
    loseNextReply: false,
    othersWrite(fields: Row) {
      row = { ...row, ...fields };
      version += 1;
    },
    get row() {
      return row;
    },
    transport: {
      session: async () => ({ status: 'signed-in', userId: 'u1' }),
      refreshSession: async () => ({ status: 'signed-in', userId: 'u1' }),
      push: async (_table, rows): Promise<PushOutcome> => {
        const before = rows.map(() => ({ ...row }));
        for (const pushed of rows) row = { ...row, ...pushed };
        version += 1;
        if (server.loseNextReply) {
          server.loseNextReply = false;
          return { ok: false, kind: 'transient', status: 0, code: '', message: 'Failed to fetch' };
        }
        return { ok: true, rows: [{ ...row }], before };
      },
      pull: async (_table, cursor): Promise<PullOutcome> => ({ ok: true, page: { rows: cursor === version ? [] : [{ ...row }], cursor: version, hasMore: false } }),
    } satisfies SyncTransport,
  };
  return server;
}

/** The conflict log lists only values another device wrote, even when replies to this device's pushes are lost. */
describe("this device's own values under lost push replies", () => {
  let db: AppDatabase | undefined;
  afterEach(() => db?.close());

  async function setUp() {
    db = new AppDatabase(`own-values-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    const server = oneRowServer();
    const engine = new SyncEngine({
      db,
      transport: server.transport,
      clock: { now: () => 1 },
      timers: { setTimeout: () => 0, clearTimeout: () => undefined },
      random: () => 0.5,
      locks: new InProcessLocks(),
      tables: ['yearly_financial_inputs'],
    });
    expect(await engine.runOnce('start')).toMatchObject({ ok: true });
    const save = (sales: number) => saveRows(db as AppDatabase, [{ table: 'yearly_financial_inputs', row: { ...key, sales } }], { userId: 'u1', now: 1 });
    return { db, server, engine, save };
  }

  it('logs nothing when a value whose reply was lost is edited again before the next push', async () => {
    const { db, server, engine, save } = await setUp();
    await save(150);
    server.loseNextReply = true;
    expect(await engine.runOnce('manual')).toMatchObject({ ok: false });
    expect(server.row.sales).toBe(150);
    await save(175);
    expect(await engine.runOnce('manual')).toMatchObject({ ok: true, pushed: 1 });
    expect(server.row.sales).toBe(175);
    expect(await db.conflicts.toArray()).toEqual([]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('still logs what another device wrote after the lost reply, with this device\'s last sent value as what it replaced', async () => {
    const { db, server, engine, save } = await setUp();
    await save(150);
    server.loseNextReply = true;
    expect(await engine.runOnce('manual')).toMatchObject({ ok: false });
    server.othersWrite({ sales: 300 });
    await save(175);
    expect(await engine.runOnce('manual')).toMatchObject({ ok: true });
    expect(await db.conflicts.toArray()).toMatchObject([{ field: 'sales', old: 150, theirs: 300, ours: 175 }]);
  });
});
