/**
 * Everything that talks to the backend, in one module the app loads after its first
 * screen is up: supabase-js (auth, REST, Realtime), the sync runtime, and the calls the
 * screens make straight to the server (history, store comparison, admin). The screens
 * read the device database and need none of it to show this month's figures.
 */
import type { AppDatabase } from '../data/app-database.ts';
import { createAdminApi } from '../server/admin-api.ts';
import { createServerReads } from '../server/server-reads.ts';
import type { BackendConfig } from '../sync/device-client.ts';
import { createDeviceClient } from '../sync/device-client.ts';
import type { SyncStatusStore } from '../sync/status-store.ts';
import { startSyncRuntime } from '../sync/sync-runtime.ts';

export function connect(config: BackendConfig, db: AppDatabase, status: SyncStatusStore) {
  const { client, sessions } = createDeviceClient(config, db);
  return { client, sync: startSyncRuntime({ db, client, sessions, status }), reads: createServerReads(client), admin: createAdminApi(client) };
}

export type Connection = ReturnType<typeof connect>;
