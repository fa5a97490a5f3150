/**
 * The service worker's share of sync: on the browser's `sync` event (the network is
 * back, even with every tab closed), push the outbox with the session stored on the
 * device. When a page holds the sync-leader lock, the page is asked to do it instead.
 */
import { AppDatabase } from '../data/app-database.ts';
import { createAuthStorage } from '../data/auth-storage.ts';
import { authStorageKey, deviceDatabaseName, syncLeaderLock } from '../data/device.ts';
import type { BackendConfig } from './device-client.ts';
import { SyncEngine } from './engine.ts';
import { fetchRpc } from './fetch-rpc.ts';
import { InProcessLocks } from './leader.ts';
import { rpcTransport } from './rpc-transport.ts';
import { sessionKeeper } from './session-keeper.ts';
import { deviceIdOf } from '../data/device-identity.ts';

export type BackgroundPushOutcome = 'pushed' | 'nothing-to-do';

/** Pushes the outbox from the worker, holding the sync-leader lock. Throws when it must be retried. */
async function pushHoldingLock(config: BackendConfig): Promise<BackgroundPushOutcome> {
  const db = new AppDatabase(deviceDatabaseName);
  try {
    if ((await db.outbox.count()) === 0) return 'nothing-to-do';
    // The session the pages stored; refreshed here the way the pages' engine does it.
    const sessions = sessionKeeper({
      supabaseUrl: config.supabaseUrl,
      anonKey: config.supabaseAnonKey,
      storage: createAuthStorage(db),
      storageKey: authStorageKey,
      now: () => Date.now(),
    });
    const rpc = fetchRpc({ supabaseUrl: config.supabaseUrl, anonKey: config.supabaseAnonKey, credentials: () => sessions.credentials() });
    const engine = new SyncEngine({
      db,
      transport: rpcTransport(rpc, sessions, { deviceId: () => deviceIdOf(db) }),
      clock: { now: () => Date.now() },
      timers: { setTimeout: () => 0, clearTimeout: () => undefined },
      random: Math.random,
      locks: new InProcessLocks(),
    });
    const result = await engine.runOnce('background-sync', { pushFirst: true });
    if (!result.ok && result.reason === 'transient') throw new Error(`background push must wait: ${result.message}`);
    return 'pushed';
  } finally {
    db.close();
  }
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms))]);
}

/** The open windows of the app, as the worker reaches them. */
export type AppWindows = () => Promise<ReadonlyArray<{ postMessage(message: unknown, transfer: Transferable[]): void }>>;

/**
 * The worker's answer to a Background Sync event. The event ends successfully only once
 * the edits were pushed (here, or by the leading page, which answers on a port);
 * otherwise it throws and the browser tries again later. A closing tab may still hold
 * the lock for a moment, so with no page to ask the worker waits for the lock.
 */
export async function backgroundPush(config: BackendConfig, locks: LockManager, windows: AppWindows, timeoutMs = 60_000): Promise<BackgroundPushOutcome> {
  const mine = await locks.request(syncLeaderLock, { ifAvailable: true }, (lock) => (lock ? pushHoldingLock(config) : null));
  if (mine) return mine;
  const open = await windows();
  if (open.length > 0) {
    // Each tab gets its own port (a port can be handed over once); only the leader answers.
    const answers = open.map((page) => {
      const channel = new MessageChannel();
      page.postMessage({ type: 'background-sync' }, [channel.port2]);
      return new Promise<{ ok: boolean }>((resolve) => {
        channel.port1.onmessage = (event: MessageEvent) => resolve(event.data as { ok: boolean });
      });
    });
    const answer = await withTimeout(Promise.race(answers), timeoutMs, 'the leading page');
    if (!answer.ok) throw new Error('the leading page could not push yet');
    return 'pushed';
  }
  return withTimeout(locks.request(syncLeaderLock, () => pushHoldingLock(config)), timeoutMs, 'waiting for the sync lock');
}
