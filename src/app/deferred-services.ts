/**
 * Services the screens hold from the first render while the module behind them is still
 * loading (connect.ts): each call waits for it, then runs. Nothing here imports
 * supabase-js, so the first screen does not wait for it.
 */
import type { AdminApi } from '../server/admin-api.ts';
import type { ServerReads } from '../server/server-reads.ts';
import type { SyncStatusStore } from '../sync/status-store.ts';
import type { SyncRuntime } from '../sync/sync-runtime.ts';

type AsyncMethods<T> = { [K in keyof T]: T[K] extends (...args: never[]) => Promise<unknown> ? K : never }[keyof T];

/** An object whose named async methods wait for `loading`, then call the loaded object's. */
function waitingFor<T, K extends AsyncMethods<T>>(loading: Promise<T>, names: readonly K[]): Pick<T, K> {
  return Object.fromEntries(
    names.map((name) => [
      name,
      async (...args: unknown[]) => {
        const loaded = await loading;
        return (loaded[name] as (...a: unknown[]) => Promise<unknown>)(...args);
      },
    ]),
  ) as Pick<T, K>;
}

export function deferredSyncRuntime(status: SyncStatusStore, loading: Promise<SyncRuntime>): SyncRuntime {
  return {
    status,
    ...waitingFor(loading, ['syncNow', 'signOut', 'endSession', 'unsyncedEditsText', 'stop'] as const),
  };
}

export function deferredServerReads(loading: Promise<ServerReads>): ServerReads {
  return waitingFor(loading, ['cellHistory', 'storeComparison'] as const);
}

export function deferredAdminApi(loading: Promise<AdminApi>): AdminApi {
  return waitingFor(loading, ['listUsers', 'createUser', 'updateUser', 'deleteUser', 'deleteUserFactors', 'securitySettings', 'setAdminsNeedMfa', 'listStores', 'addStore', 'updateStore', 'storeDeletionImpact', 'deleteStore'] as const);
}
