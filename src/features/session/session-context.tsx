/**
 * The running services the screens use: who is signed in (AccountService), sync
 * (SyncRuntime), and the calls made straight to the server (ServerReads, AdminApi).
 * Created once by the app; screens reach them only through these hooks.
 */
import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import type { Account, AccountService, AccountState } from '../../sync/account.ts';
import type { AdminApi } from '../../server/admin-api.ts';
import type { ServerReads } from '../../server/server-reads.ts';
import type { SyncStatus } from '../../sync/status-store.ts';
import type { SyncRuntime } from '../../sync/sync-runtime.ts';

type Session = { account: AccountService; sync: SyncRuntime; reads: ServerReads; admin: AdminApi };

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('SessionProvider is missing');
  return session;
}

export function useAccountState(): AccountState {
  return useStore(useSession().account.state);
}

/** The signed-in account; only for screens behind the sign-in guard. */
export function useAccount(): Account {
  const state = useAccountState();
  if (state.status !== 'signed-in') throw new Error('useAccount outside a signed-in screen');
  return state.account;
}

export function useSignIn() {
  return useSession().account.signIn;
}

/** Setting up, answering and removing authenticator apps (src/sync/authenticator-api.ts). */
export function useAuthenticatorApi() {
  return useSession().account.authenticator;
}

export function useAdminApi(): AdminApi {
  return useSession().admin;
}

/** The change history and the store comparison, read from the server (online only). */
export function useServerReads(): ServerReads {
  return useSession().reads;
}

export function useSyncRuntime(): SyncRuntime {
  return useSession().sync;
}

export function useSyncStatus(): SyncStatus {
  return useStore(useSession().sync.status);
}
