import { useStore } from 'zustand';
import type { SyncRuntime } from '../sync/sync-runtime.ts';
import type { RuntimeConfig } from './runtime-config.ts';

type AppProps = { config: RuntimeConfig; sync: SyncRuntime; updateReady: (() => void) | null };

/** The app's root. The screens arrive with the app shell; until then it names itself, its backend and the sync state. */
export function App({ config, sync, updateReady }: AppProps) {
  const status = useStore(sync.status);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem' }}>
      <h1>Service Department Dashboard</h1>
      <p>Ready to crush your goals today?</p>
      <p>
        Backend: <code>{config.supabaseUrl}</code>
      </p>
      <section aria-label="Sync status">
        <p>
          {status.online ? 'Online' : 'Offline'} · {status.pending} pending edit(s) · last synced{' '}
          {status.lastSyncedAt ? new Date(status.lastSyncedAt).toLocaleTimeString() : 'never'}
          {status.deadLetters > 0 ? ` · ${status.deadLetters} refused` : ''}
          {status.conflicts > 0 ? ` · ${status.conflicts} conflict(s)` : ''}
        </p>
        {status.initialSync ? (
          <p>
            <label>
              Fetching this store's data ({status.initialSync.done} of {status.initialSync.total})
              <progress value={status.initialSync.done} max={status.initialSync.total} />
            </label>
          </p>
        ) : null}
        {status.lastError ? <p role="status">{status.lastError}</p> : null}
        <button type="button" onClick={() => void sync.syncNow()}>
          Sync now
        </button>
      </section>
      {updateReady ? (
        <p role="alert">
          New version available — <button type="button" onClick={updateReady}>Reload</button>
        </p>
      ) : null}
    </main>
  );
}
