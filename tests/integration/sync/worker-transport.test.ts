import { describe, expect, it } from 'vitest';
import { createAuthStorage } from '../../../src/data/auth-storage.ts';
import { authStorageKey } from '../../../src/data/device.ts';
import { SyncEngine } from '../../../src/sync/engine.ts';
import { fetchRpc } from '../../../src/sync/fetch-rpc.ts';
import { InProcessLocks } from '../../../src/sync/leader.ts';
import { rpcTransport } from '../../../src/sync/rpc-transport.ts';
import { sessionKeeper } from '../../../src/sync/session-keeper.ts';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { createDevice, dailyWrite } from './device.ts';
import type { Device } from './device.ts';
import { useSyncedDevice } from './synced-device.ts';

/**
 * The service worker syncs without supabase-js: the same engine over plain fetch
 * (fetch-rpc.ts), with the session the pages stored. It must push, pull and refuse
 * exactly as the pages' transport does.
 */
describe("the service worker's transport (plain fetch)", () => {
  let stack: TestStack;
  let device: Device;
  useSyncedDevice('manager@example.com', (world) => ({ stack, device } = world));

  function workerEngine(target: Device, network: { requests: number } = { requests: 0 }) {
    const storage = createAuthStorage(target.db);
    const sessions = sessionKeeper({ supabaseUrl: stack.url, anonKey: stack.keys.anonKey, storage, storageKey: authStorageKey, now: () => Date.now() });
    const counting: typeof fetch = (input, init) => {
      network.requests += 1;
      return fetch(input, init);
    };
    const rpc = fetchRpc({ supabaseUrl: stack.url, anonKey: stack.keys.anonKey, credentials: () => sessions.credentials(), fetch: counting });
    return new SyncEngine({
      db: target.db,
      transport: rpcTransport(rpc, sessions),
      clock: { now: () => Date.now() },
      timers: { setTimeout: () => 0, clearTimeout: () => undefined },
      random: () => 0.5,
      locks: new InProcessLocks(),
    });
  }

  it('pushes queued edits the server stores exactly once, and dead-letters a row of another store with 42501', async () => {
    await device.save(Array.from({ length: 40 }, (_, n) => dailyWrite(800 + n, n + 0.25)));
    const foreign = dailyWrite(900, 3);
    await device.save([{ table: foreign.table, row: { ...foreign.row, store_id: demo.storeB } }]);
    const result = await workerEngine(device).runOnce('background-sync', { pushFirst: true });
    expect(result).toMatchObject({ ok: true, pushed: 40, refused: 1 });
    const { rows } = await stack.database.query<{ n: number; total: string }>(
      `select count(*)::int as n, sum(value)::text as total from daily_inputs where store_id = $1 and entry_date between '2033-03-11' and '2033-04-19'`,
      [demo.storeA],
    );
    // Values n + 0.25 for n = 0..39: 780 + 10.
    expect(rows[0]).toEqual({ n: 40, total: '790.00' });
    expect(await device.db.outbox.count()).toBe(0);
    expect((await device.db.deadLetters.toArray()).filter((letter) => letter.code === '42501')).toHaveLength(1);
  });

  it("does a new device's first sync in a few requests, as the pages' transport does", async () => {
    const fresh = await createDevice(stack, 'manager@example.com');
    try {
      const network = { requests: 0 };
      const result = await workerEngine(fresh, network).runOnce('start');
      expect(result).toMatchObject({ ok: true });
      const { rows } = await stack.database.query<{ n: number }>('select count(*)::int as n from daily_inputs where store_id = $1 and year >= $2', [
        demo.storeA,
        new Date().getUTCFullYear() - 1,
      ]);
      expect(await fresh.db.mirror('daily_inputs').count()).toBe(rows[0]?.n);
      expect(network.requests).toBeLessThanOrEqual(3);
    } finally {
      fresh.close();
    }
  });
});

/**
 * A cycle checks who is signed in, then pushes that person's edits. If someone else signs
 * in (or the session ends) in between, neither transport may send the edits under the
 * new identity or as the anonymous role: the call is not sent, and answers 401.
 */
describe('a push after the signed-in person changed', () => {
  let stack: TestStack;
  let device: Device;
  useSyncedDevice('manager@example.com', (world) => ({ stack, device } = world));

  it('is not sent by either transport, and the row stays off the server', async () => {
    const storage = createAuthStorage(device.db);
    const sessions = sessionKeeper({ supabaseUrl: stack.url, anonKey: stack.keys.anonKey, storage, storageKey: authStorageKey, now: () => Date.now() });
    let sent = 0;
    const rpc = fetchRpc({
      supabaseUrl: stack.url,
      anonKey: stack.keys.anonKey,
      credentials: () => sessions.credentials(),
      fetch: (input, init) => {
        sent += 1;
        return fetch(input, init);
      },
    });
    const transports = { worker: rpcTransport(rpc, sessions), pages: device.transport };
    for (const transport of Object.values(transports)) expect(await transport.session()).toMatchObject({ status: 'signed-in', userId: demo.managerId });

    // Another person signs in on this device (the pages' client stores the session where both transports read it).
    const { error } = await device.client.auth.signInWithPassword({ email: 'admin@example.com', password: demo.password });
    expect(error).toBeNull();
    const requestsBefore = device.network.requests;
    const row = { ...dailyWrite(950, 7).row };
    for (const [name, transport] of Object.entries(transports)) {
      const outcome = await transport.push('daily_inputs', [row]);
      expect(outcome, name).toMatchObject({ ok: false, kind: 'auth', status: 401, code: 'PGRST301' });
    }
    expect(sent).toBe(0);
    expect(device.network.requests).toBe(requestsBefore);
    const { rows } = await stack.database.query<{ n: number }>('select count(*)::int as n from daily_inputs where store_id = $1 and entry_date = $2', [
      demo.storeA,
      row.entry_date,
    ]);
    expect(rows[0]?.n).toBe(0);

    // Told about the new person, the transports carry that person's session again.
    for (const transport of Object.values(transports)) expect(await transport.session()).toMatchObject({ status: 'signed-in', userId: demo.adminId });
  });
});
