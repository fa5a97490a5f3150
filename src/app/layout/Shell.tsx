import type { ReactNode } from 'react';
import { Suspense, useRef } from 'react';
import { Outlet } from 'react-router-dom';
import { useAccount } from '../../features/session/session-context.tsx';
import { useLegacyKpiMigration } from '../../features/settings/legacy-kpi-preferences.ts';
import { SyncIndicator } from '../../features/sync-status/SyncIndicator.tsx';
import { SessionEndedNotice } from '../../features/sync-status/WaitingEditsNotice.tsx';
import { MonthNavigator } from './MonthNavigator.tsx';
import { SignOutDialog, useGuardedSignOut } from './SignOutDialog.tsx';
import { Sidebar } from './Sidebar.tsx';
import { useFoldedMenu } from './use-folded-menu.ts';
import { useTopbarHeight } from './use-topbar-height.ts';

/** Keyboard users start here: one Tab and Enter, and they are in the screen itself. */
function SkipLink() {
  return (
    <a
      className="skip-link"
      href="#main"
      onClick={(event) => {
        // Focus, not a URL fragment: the screen's address (its month, its section) stays as it is.
        event.preventDefault();
        const main = document.getElementById('main');
        main?.focus({ preventScroll: true });
        main?.scrollIntoView({ block: 'start' });
      }}
    >
      Skip to content
    </a>
  );
}

/**
 * The frame of every signed-in screen: sidebar, top bar (Menu and month where the
 * sidebar is folded, sync status always), and the screen itself. Layout in frame.css.
 */
export function Shell({ updateBanner }: { updateBanner: ReactNode }) {
  const guard = useGuardedSignOut();
  const { open, toggle, close, buttonRef, panelRef } = useFoldedMenu();
  const topbar = useRef<HTMLElement>(null);
  useTopbarHeight(topbar);
  useLegacyKpiMigration(useAccount().storeId);
  return (
    <div className="shell">
      <SkipLink />
      <Sidebar open={open} onChoose={close} panelRef={panelRef} onLogout={() => void guard.signOut()} />
      <div className="content">
        <header className="topbar" ref={topbar}>
          <div className="topbar-start">
            <button type="button" className="menu-button" ref={buttonRef} aria-expanded={open} aria-controls="sidebar" onClick={toggle}>
              Menu
            </button>
            <MonthNavigator />
          </div>
          <SyncIndicator />
        </header>
        <SessionEndedNotice />
        {updateBanner}
        <main id="main" tabIndex={-1}>
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
