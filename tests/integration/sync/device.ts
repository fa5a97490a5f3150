/**
 * A test device: its own IndexedDB (fake-indexeddb, one factory per browser), the real
 * supabase-js client with the session stored in that database, the network between it
 * and the local stack, and the sync engine over them.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { createClient } from '@supabase/supabase-js';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import WebSocket from 'ws';
import { AppDatabase } from '../../../src/data/app-database.ts';
import { createAuthStorage } from '../../../src/data/auth-storage.ts';
import type { RowWrite } from '../../../src/data/local-writes.ts';
import { saveRows } from '../../../src/data/local-writes.ts';
import type { SyncEngineOptions } from '../../../src/sync/engine.ts';
import { SyncEngine } from '../../../src/sync/engine.ts';
import type { LockProvider } from '../../../src/sync/leader.ts';
import { InProcessLocks } from '../../../src/sync/leader.ts';
import { fetchNotingRetryAfter } from '../../../src/sync/retry-after.ts';
import { sessionKeeper } from '../../../src/sync/session-keeper.ts';
import { supabaseTransport } from '../../../src/sync/supabase-transport.ts';
import type { SyncTransport } from '../../../src/sync/transport.ts';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { TestNetwork } from './network.ts';
import { seeded } from '../../support/random.ts';

export type Device = {
  db: AppDatabase;
  client: SupabaseClient;
  network: TestNetwork;
  transport: SyncTransport;
  userId: string;
  save(writes: RowWrite[]): Promise<number>;
  engine(options?: Partial<SyncEngineOptions>): SyncEngine;
  close(): void;
};

export type DeviceOptions = {
  /** The browser's IndexedDB; tabs of one browser share it. */
  indexedDB?: IDBFactory;
  dbName?: string;
  schemaUpTo?: number;
  locks?: LockProvider;
  signIn?: boolean;
};

export async function createDevice(stack: TestStack, email: string, options: DeviceOptions = {}): Promise<Device> {
  const indexedDB = options.indexedDB ?? new IDBFactory();
  const db = new AppDatabase(options.dbName ?? 'service-dashboard', { indexedDB, IDBKeyRange, upTo: options.schemaUpTo });
  const network = new TestNetwork();
  const storage = createAuthStorage(db);
  const storageKey = 'service-dashboard-auth';
  const client = createClient(stack.url, stack.keys.anonKey, {
    auth: { storage, storageKey, persistSession: true, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: fetchNotingRetryAfter(network.fetch) },
    realtime: { transport: WebSocket as never },
  });
  let userId = '';
  if (options.signIn !== false) {
    const { data, error } = await client.auth.signInWithPassword({ email, password: demo.password });
    if (error || !data.user) throw new Error(`sign-in as ${email} failed: ${error?.message}`);
    userId = data.user.id;
  }
  const sessions = sessionKeeper({
    supabaseUrl: stack.url,
    anonKey: stack.keys.anonKey,
    storage,
    storageKey,
    now: () => Date.now(),
    fetch: network.fetch,
  });
  // The app's own request timeouts: a shorter one made a busy machine's slow answer
  // (a 300-row push bisecting its refusals) look like a network failure.
  const transport = supabaseTransport(client, sessions);
  const locks = options.locks ?? new InProcessLocks();
  return {
    db,
    client,
    network,
    transport,
    userId,
    save: (writes) => saveRows(db, writes, { userId, now: Date.now() }),
    engine: (overrides = {}) =>
      new SyncEngine({
        db,
        transport,
        clock: { now: () => Date.now() },
        timers: { setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout) },
        random: seeded(7).next,
        locks,
        ...overrides,
      }),
    close: () => db.close(),
  };
}

/** A daily_inputs write for Demo Motors on the n-th day from 2031-01-01. */
export function dailyWrite(n: number, value: number, row: 'CP' | 'W' | 'I' = 'CP'): RowWrite {
  const date = new Date(Date.UTC(2031, 0, 1 + n));
  const jsDay = date.getUTCDay();
  return {
    table: 'daily_inputs',
    row: {
      store_id: demo.storeA,
      entry_date: date.toISOString().slice(0, 10),
      row_identifier: row,
      metric_type: 'hours',
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day_of_week_iso: jsDay === 0 ? 7 : jsDay,
      value,
    },
  };
}

/**
 * Runs sync cycles until one ends well, as a device does with its retries: on a busy
 * machine a big batch can meet the server's statement timeout or a full request queue
 * (a transient failure that changes nothing on the server). Answers the cycle that ended
 * well (its counts cover the whole batch only when no cycle failed before it), and every
 * transient message met on the way.
 */
export async function syncUntilSettled(engine: SyncEngine, cycles = 5): Promise<{ ok: boolean; pushed?: number; refused?: number; transient: string[] }> {
  const transient: string[] = [];
  for (let cycle = 0; cycle < cycles; cycle += 1) {
    const result = await engine.runOnce('manual');
    if (result.ok) return { ...result, transient };
    if (result.reason !== 'transient') throw new Error(`sync ended ${result.reason}: ${result.message}`);
    transient.push(result.message);
  }
  return { ok: false, transient };
}
