import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { DailyPerformance } from '../daily/DailyPerformance.tsx';
import { KpiDashboard } from '../kpi-dashboard/KpiDashboard.tsx';
import { MonthlyPage } from '../monthly/MonthlyPage.tsx';
import { WeeklyPage } from '../weekly/WeeklyPage.tsx';
import { YearlyPage } from '../yearly/YearlyPage.tsx';

/** Sections the sidebar's quick jumps scroll to, by ?section= (docs/screens.md, "Rules the screens keep"). */
export const onePageSections = ['daily', 'weekly', 'monthly-performance', 'yearly-trend'] as const;
/** The scroll waits until the sections have laid out (docs/screens.md, "Rules the screens keep"). */
const scrollDelayMs = 500;

/**
 * Every screen of the month on one wide page (4200 px on a wide screen), led by the KPI
 * dashboard. Where it differs from the product specification: docs/screens.md.
 */
export function OnePage() {
  const [params] = useSearchParams();
  const section = params.get('section');

  useEffect(() => {
    if (!section || !(onePageSections as readonly string[]).includes(section)) return;
    const timer = setTimeout(() => {
      document.getElementById(`${section}-section`)?.scrollIntoView({ behavior: 'smooth', block: 'start', inline: 'start' });
    }, scrollDelayMs);
    return () => clearTimeout(timer);
  }, [section]);

  return (
    <div className="one-page">
      {/* Stays in view while the row of sections below scrolls sideways (frame.css). */}
      <div className="one-page-lead">
        <p className="banner">Ready to crush your goals today?</p>
        <KpiDashboard />
      </div>
      <div className="one-page-sections">
        <div id="daily-section" className="one-page-section daily-column">
          <DailyPerformance mode="submit" title="Daily Performance" />
        </div>
        <div id="weekly-section" className="one-page-section">
          <WeeklyPage daysInDailySection />
        </div>
        <div id="monthly-performance-section" className="one-page-section">
          <MonthlyPage />
        </div>
        <div id="yearly-trend-section" className="one-page-section">
          <YearlyPage />
        </div>
      </div>
    </div>
  );
}
