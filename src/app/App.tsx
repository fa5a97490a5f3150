import { SessionProvider } from '../features/session/session-context.tsx';
import type { AppDatabase } from '../data/app-database.ts';
import type { AccountService } from '../sync/account.ts';
import type { AdminApi } from '../server/admin-api.ts';
import type { ServerReads } from '../server/server-reads.ts';
import type { SyncRuntime } from '../sync/sync-runtime.ts';
import { AppRoutes } from './routes.tsx';

type AppProps = { db: AppDatabase; account: AccountService; sync: SyncRuntime; reads: ServerReads; admin: AdminApi; updateReady: (() => void) | null };

/** The app's root: the running services, then the routes. */
export function App({ db, account, sync, reads, admin, updateReady }: AppProps) {
  const updateBanner = updateReady ? (
    <p className="notice update" role="alert">
      New version available —{' '}
      <button type="button" onClick={updateReady}>
        Reload
      </button>
    </p>
  ) : null;
  return (
    <SessionProvider session={{ account, sync, reads, admin }}>
      <AppRoutes db={db} updateBanner={updateBanner} />
    </SessionProvider>
  );
}
