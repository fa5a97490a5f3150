import type { ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import type { AppDatabase } from '../data/app-database.ts';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { WaitingEditsNotice } from '../features/sync-status/WaitingEditsNotice.tsx';
import { lazyScreen } from './lazy-screen.ts';
import { LoginRoute, RequireAccount, RequireAdmin } from './guards.tsx';
import { Shell } from './layout/Shell.tsx';

// Each screen is its own chunk, loaded when first opened (the service worker holds them
// all for offline use), so the first screen does not wait for the code of every other.
const AdminPage = lazyScreen(() => import('../features/admin/AdminPage.tsx'), 'AdminPage');
const ComparePage = lazyScreen(() => import('../features/compare/ComparePage.tsx'), 'ComparePage');
const DailyPerformance = lazyScreen(() => import('../features/daily/DailyPerformance.tsx'), 'DailyPerformance');
const FrontEndTeamPage = lazyScreen(() => import('../features/front-end-team/FrontEndTeamPage.tsx'), 'FrontEndTeamPage');
const MonthlyPage = lazyScreen(() => import('../features/monthly/MonthlyPage.tsx'), 'MonthlyPage');
const OnePage = lazyScreen(() => import('../features/one-page/OnePage.tsx'), 'OnePage');
const TodayPage = lazyScreen(() => import('../features/today/TodayPage.tsx'), 'TodayPage');
const PrintMonthPage = lazyScreen(() => import('../features/print/PrintMonthPage.tsx'), 'PrintMonthPage');
const ServiceOverviewPage = lazyScreen(() => import('../features/service-overview/ServiceOverviewPage.tsx'), 'ServiceOverviewPage');
const SettingsPage = lazyScreen(() => import('../features/settings/SettingsPage.tsx'), 'SettingsPage');
const WeeklyPage = lazyScreen(() => import('../features/weekly/WeeklyPage.tsx'), 'WeeklyPage');
const YearlyPage = lazyScreen(() => import('../features/yearly/YearlyPage.tsx'), 'YearlyPage');

/** Screens this narrow are a tablet held upright or a phone: an advisor's, who starts on Today. */
export const narrowScreen = '(max-width: 820px)';

const screensByPath: Record<string, { preload(): Promise<void> }> = {
  '/today': TodayPage,
  '/print': PrintMonthPage,
  '/daily': DailyPerformance,
  '/daily-weekly': DailyPerformance,
  '/new-daily-weekly-performance': DailyPerformance,
  '/weekly': WeeklyPage,
  '/monthly': MonthlyPage,
  '/yearly': YearlyPage,
  '/service-overview': ServiceOverviewPage,
  '/front-end-team': FrontEndTeamPage,
  '/settings': SettingsPage,
  '/compare': ComparePage,
  '/admin': AdminPage,
};

/**
 * Starts loading the screen the app opens on, before the account and the route are
 * known, so its module arrives together with the main one rather than after it. Settles
 * once it has arrived, or its first try failed, or at once for a path without a screen.
 */
export function preloadScreenFor(pathname: string): Promise<void> {
  if (pathname === '/') return (window.matchMedia(narrowScreen).matches ? TodayPage : OnePage).preload();
  return screensByPath[pathname]?.preload() ?? Promise.resolve();
}

/**
 * The start page: the One Page on a desktop, Today on a narrow screen. The One Page stays
 * one link away there (?view=all, or a section quick jump).
 */
function HomeRoute() {
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const wantsOnePage = params.has('view') || params.has('section');
  if (!wantsOnePage && window.matchMedia(narrowScreen).matches) return <Navigate to={{ pathname: '/today', search }} replace />;
  return <OnePage />;
}

export function AppRoutes({ db, updateBanner }: { db: AppDatabase; updateBanner: ReactNode }) {
  return (
    <BrowserRouter>
      <Routes>
        <Route
          path="/login"
          element={
            <LoginRoute>
              <LoginPage notice={<WaitingEditsNotice />} />
            </LoginRoute>
          }
        />
        <Route element={<RequireAccount db={db} />}>
          <Route element={<Shell updateBanner={updateBanner} />}>
            <Route index element={<HomeRoute />} />
            <Route path="/today" element={<TodayPage />} />
            <Route path="/print" element={<PrintMonthPage />} />
            <Route path="/daily" element={<DailyPerformance mode="autosave" title="Daily Performance" />} />
            {['/daily-weekly', '/new-daily-weekly-performance'].map((path) => (
              <Route key={path} path={path} element={<DailyPerformance mode="submit" title="Daily and Weekly Performance" />} />
            ))}
            <Route path="/weekly" element={<WeeklyPage />} />
            <Route path="/monthly" element={<MonthlyPage />} />
            <Route path="/yearly" element={<YearlyPage />} />
            <Route path="/service-overview" element={<ServiceOverviewPage />} />
            <Route path="/front-end-team" element={<FrontEndTeamPage />} />
            <Route path="/settings" element={<SettingsPage />} />
            <Route
              path="/compare"
              element={
                <RequireAdmin>
                  <ComparePage />
                </RequireAdmin>
              }
            />
            <Route
              path="/admin"
              element={
                <RequireAdmin>
                  <AdminPage />
                </RequireAdmin>
              }
            />
          </Route>
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </BrowserRouter>
  );
}
