import type { ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import type { AppDatabase } from '../data/app-database.ts';
import { AdminPage } from '../features/admin/AdminPage.tsx';
import { ComparePage } from '../features/compare/ComparePage.tsx';
import { DailyPerformance } from '../features/daily/DailyPerformance.tsx';
import { FrontEndTeamPage } from '../features/front-end-team/FrontEndTeamPage.tsx';
import { MonthlyPage } from '../features/monthly/MonthlyPage.tsx';
import { OnePage } from '../features/one-page/OnePage.tsx';
import { TodayPage } from '../features/today/TodayPage.tsx';
import { PrintMonthPage } from '../features/print/PrintMonthPage.tsx';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { WaitingEditsNotice } from '../features/sync-status/WaitingEditsNotice.tsx';
import { ServiceOverviewPage } from '../features/service-overview/ServiceOverviewPage.tsx';
import { SettingsPage } from '../features/settings/SettingsPage.tsx';
import { WeeklyPage } from '../features/weekly/WeeklyPage.tsx';
import { YearlyPage } from '../features/yearly/YearlyPage.tsx';
import { LoginRoute, RequireAccount, RequireAdmin } from './guards.tsx';
import { Shell } from './layout/Shell.tsx';

/** Screens this narrow are a tablet held upright or a phone: an advisor's, who starts on Today. */
export const narrowScreen = '(max-width: 820px)';

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
