/**
 * The service worker's share of sync: on the browser's `sync` event (the network is
 * back, even with every tab closed), push the outbox with the session stored on the
 * device. When a page holds the sync-leader lock, the page is asked to do it instead.
 */
import { AppDatabase } from '../data/app-database.ts';
import { deviceDatabaseName, syncLeaderLock } from '../data/device.ts';
import type { BackendConfig } from './device-client.ts';
import { createDeviceClient } from './device-client.ts';
import { SyncEngine } from './engine.ts';
import { InProcessLocks } from './leader.ts';
import { supabaseTransport } from './supabase-transport.ts';

export type BackgroundPushOutcome = 'pushed' | 'page-leads' | 'nothing-to-do';

/** Throws when the push must be retried later, so the browser schedules another `sync`. */
export async function backgroundPush(config: BackendConfig, locks: LockManager): Promise<BackgroundPushOutcome> {
  const outcome = await locks.request(syncLeaderLock, { ifAvailable: true }, async (lock) => {
    if (!lock) return 'page-leads' as const;
    const db = new AppDatabase(deviceDatabaseName);
    try {
      if ((await db.outbox.count()) === 0) return 'nothing-to-do' as const;
      const { client, sessions } = createDeviceClient(config, db, { autoRefreshToken: false });
      const engine = new SyncEngine({
        db,
        transport: supabaseTransport(client, sessions),
        clock: { now: () => Date.now() },
        timers: { setTimeout: () => 0, clearTimeout: () => undefined },
        random: Math.random,
        locks: new InProcessLocks(),
      });
      const result = await engine.runOnce('background-sync');
      if (!result.ok && result.reason === 'transient') throw new Error(`background push must wait: ${result.message}`);
      return 'pushed' as const;
    } finally {
      db.close();
    }
  });
  return outcome;
}
