/**
 * The device's Supabase client: its session stored in the device database (so the app
 * starts signed in offline and the service worker can push), auth-js's own refresh kept
 * for interactive use, and the session keeper the sync engine refreshes with.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { createClient } from '@supabase/supabase-js';
import type { AppDatabase } from '../data/app-database.ts';
import type { Database } from '../data/database.types.ts';
import { createAuthStorage } from '../data/auth-storage.ts';
import { authStorageKey } from '../data/device.ts';
import { fetchNotingRetryAfter } from './retry-after.ts';
import type { SessionKeeper } from './session-keeper.ts';
import { sessionKeeper } from './session-keeper.ts';

export type BackendConfig = { supabaseUrl: string; supabaseAnonKey: string };

/** The device's client, typed by the database's generated types (src/data/database.types.ts). */
export type DeviceClient = SupabaseClient<Database>;

export function createDeviceClient(
  config: BackendConfig,
  db: AppDatabase,
  options: { autoRefreshToken?: boolean } = {},
): { client: DeviceClient; sessions: SessionKeeper } {
  const storage = createAuthStorage(db);
  const client = createClient<Database>(config.supabaseUrl, config.supabaseAnonKey, {
    auth: {
      storage,
      storageKey: authStorageKey,
      persistSession: true,
      autoRefreshToken: options.autoRefreshToken ?? true,
      detectSessionInUrl: false,
    },
    global: { fetch: fetchNotingRetryAfter() },
  });
  const sessions = sessionKeeper({
    supabaseUrl: config.supabaseUrl,
    anonKey: config.supabaseAnonKey,
    storage,
    storageKey: authStorageKey,
    now: () => Date.now(),
  });
  return { client, sessions };
}
