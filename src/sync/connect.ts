/**
 * Everything that talks to the backend, in one module the app loads after its first
 * screen is up: supabase-js (auth, REST, Realtime), the sync runtime and the admin calls.
 * The screens read the device database and need none of it to show this month's figures.
 */
import type { AppDatabase } from '../data/app-database.ts';
import { createAdminApi } from './admin-api.ts';
import type { BackendConfig } from './device-client.ts';
import { createDeviceClient } from './device-client.ts';
import type { SyncStatusStore } from './status-store.ts';
import { startSyncRuntime } from './sync-runtime.ts';

export function connect(config: BackendConfig, db: AppDatabase, status: SyncStatusStore) {
  const { client, sessions } = createDeviceClient(config, db);
  return { client, sync: startSyncRuntime({ db, client, sessions, status }), admin: createAdminApi(client) };
}

export type Connection = ReturnType<typeof connect>;
