import type { ReactNode } from 'react';
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { useAccount } from '../../features/session/session-context.tsx';
import { useLegacyKpiMigration } from '../../features/settings/legacy-kpi-preferences.ts';
import { SyncIndicator } from '../../features/sync-status/SyncIndicator.tsx';
import { SessionEndedNotice } from '../../features/sync-status/WaitingEditsNotice.tsx';
import { SignOutDialog, useGuardedSignOut } from './SignOutDialog.tsx';
import { Sidebar } from './Sidebar.tsx';

/** The frame of every signed-in screen: sidebar, sync status, and the screen itself. */
export function Shell({ updateBanner }: { updateBanner: ReactNode }) {
  const guard = useGuardedSignOut();
  useLegacyKpiMigration(useAccount().storeId);
  return (
    <div className="shell">
      <Sidebar onLogout={() => void guard.signOut()} />
      <div className="content">
        <header className="topbar">
          <SyncIndicator />
        </header>
        <SessionEndedNotice />
        {updateBanner}
        <main>
          {/* Screens load on first use; the sidebar and sync status stay while one arrives. */}
          <Suspense fallback={<p className="loading-screen">Loading...</p>}>
            <Outlet />
          </Suspense>
        </main>
      </div>
      {guard.unsynced !== null ? (
        <SignOutDialog count={guard.unsynced} onClose={guard.dismiss} onDiscard={() => void guard.signOut(true)} />
      ) : null}
    </div>
  );
}
