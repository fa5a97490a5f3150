import { useState } from 'react';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { DeviceProvider, useDevice } from '../data/device-context.tsx';
import { unsyncedCount } from '../data/local-data.ts';
import type { AppDatabase } from '../data/app-database.ts';
import { AuthIssueScreen } from '../features/auth/AuthIssueScreen.tsx';
import { SecondStepScreen } from '../features/auth/SecondStepScreen.tsx';
import { useAccount, useAccountState } from '../features/session/session-context.tsx';
import { SignOutDialog, useGuardedSignOut } from './layout/SignOutDialog.tsx';

/**
 * Signed-out people see only the login page; a person with an authenticator app gives
 * its code first; accounts without a store see the Authentication Issue screen.
 */
export function RequireAccount({ db }: { db: AppDatabase }) {
  const state = useAccountState();
  const location = useLocation();
  if (state.status === 'loading') return <p className="splash">Authenticating user...</p>;
  if (state.status === 'signed-out') return <Navigate to="/login" replace state={{ from: location }} />;
  return (
    <DeviceProvider device={{ db, userId: state.account.userId }}>
      {state.account.secondStepNeeded ? <SecondStep /> : state.authError ? <AuthIssue message={state.authError} /> : <Outlet />}
    </DeviceProvider>
  );
}

function SecondStep() {
  const guard = useGuardedSignOut();
  return (
    <>
      <SecondStepScreen onSignOut={() => void guard.signOut()} />
      {guard.unsynced !== null ? <SignOutDialog count={guard.unsynced} onClose={guard.dismiss} onDiscard={() => void guard.signOut(true)} /> : null}
    </>
  );
}

/** What the browser keeps for the site besides the device database (theme, preferences kept before the database had them). */
function clearBrowserStorage() {
  for (const storage of [globalThis.localStorage, globalThis.sessionStorage]) {
    try {
      storage?.clear();
    } catch {
      // A browser that refuses storage access has nothing kept there to clear.
    }
  }
}

function AuthIssue({ message }: { message: string }) {
  const guard = useGuardedSignOut();
  const { db } = useDevice();
  // Remembered while the sign-out dialog asks about edits waiting, so "Discard and sign out" clears as asked.
  const [clearCache, setClearCache] = useState(false);
  const signOut = async (clear: boolean, discardUnsynced = false) => {
    setClearCache(clear);
    await guard.signOut(discardUnsynced);
    // Signing out refuses only while something is waiting; once it went through, the device holds nothing unsent.
    if (clear && (await unsyncedCount(db)) === 0) clearBrowserStorage();
  };
  return (
    <>
      <AuthIssueScreen message={message} onLogout={() => void signOut(false)} onLogoutAndClearCache={() => void signOut(true)} />
      {guard.unsynced !== null ? (
        <SignOutDialog count={guard.unsynced} onClose={guard.dismiss} onDiscard={() => void signOut(clearCache, true)} />
      ) : null}
    </>
  );
}

/** The admin area; everyone else is told they have no access. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const account = useAccount();
  if (account.isAdmin) return <>{children}</>;
  return (
    <section className="card" aria-labelledby="no-access-title">
      <h1 id="no-access-title">Admin</h1>
      <p>You don't have permission to access this area.</p>
      <p>Please contact your administrator if you need access.</p>
    </section>
  );
}

/** The login page; once signed in, the first screen (docs/screens.md, "Rules the screens keep"). */
export function LoginRoute({ children }: { children: ReactNode }) {
  const state = useAccountState();
  if (state.status === 'signed-in') return <Navigate to="/" replace />;
  return <>{children}</>;
}
