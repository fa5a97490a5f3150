/**
 * Everything the Front End Team page shows for a month, from the device database: the
 * active advisors and any inactive one with figures in the month, each advisor's month
 * figures (days worked and pay, totals, op codes, surveys), the month's score card
 * targets, and how far through the month the store is.
 */
import { useStoreAdvisors } from '../../data/repositories/store-and-people.ts';
import { useTeamMonth } from '../../data/repositories/front-end-team.ts';
import type { Row } from '../../data/synced-tables.ts';
import type { Figures } from '../../domain/front-end-team.ts';
import { addUp, opCodeFields, totalsFields } from '../../domain/front-end-team.ts';
import type { MonthKey } from '../../domain/month.ts';
import { yearAndMonth } from '../../domain/month.ts';
import { monthComplete } from '../../domain/kpi-math.ts';
import { advisorsOfMonth } from '../../domain/month-advisors.ts';
import { useMonthDays } from '../../data/month-view.ts';
import { useSyncStatus } from '../session/session-context.tsx';

export type Advisor = { id: string; name: string };

export type TeamMonth = {
  year: number;
  month: number;
  advisors: Advisor[];
  pay: Map<string, Figures>;
  totals: Map<string, Figures>;
  opCodes: Map<string, Figures>;
  surveys: Map<string, Row>;
  targets: Row | undefined;
  /** Shown where the team would be listed when it has nobody in it. */
  emptyText: string;
  /** The store's month so far (from the weeks' days complete and work days). */
  daysComplete: number;
  monthComplete: number;
};

function byAdvisor(advisors: Advisor[], rows: Row[], keys: readonly string[]): Map<string, Figures> {
  return new Map(advisors.map((a) => [a.id, addUp(rows.filter((row) => row.advisor_id === a.id), keys)]));
}

/** Undefined while the device database is still answering. */
export function useFrontEndTeamMonth(storeId: string | null, monthKey: MonthKey): TeamMonth | undefined {
  const { lastSyncedAt } = useSyncStatus();
  const { year, month } = yearAndMonth(monthKey);
  const advisorRows = useStoreAdvisors(storeId);
  const pay = useTeamMonth('front_end_team_daily_performance', storeId, year, month);
  const totals = useTeamMonth('front_end_team_advisor_totals', storeId, year, month);
  const opCodes = useTeamMonth('front_end_team_advisor_op_codes', storeId, year, month);
  const surveys = useTeamMonth('advisor_survey_data', storeId, year, month);
  const targets = useTeamMonth('front_end_team_targets', storeId, year, month);
  const store = useMonthDays(storeId, monthKey);
  if (!advisorRows || !pay || !totals || !opCodes || !surveys || !targets || !store) return undefined;
  // An advisor set inactive keeps their place in the months that hold their figures.
  const advisors = advisorsOfMonth(advisorRows, [...pay, ...totals, ...opCodes, ...surveys]);
  return {
    year,
    month,
    advisors,
    pay: byAdvisor(advisors, pay, ['days_worked', 'pay_amount']),
    totals: byAdvisor(advisors, totals, totalsFields.map((f) => f.key)),
    opCodes: byAdvisor(advisors, opCodes, opCodeFields.map((f) => f.key)),
    surveys: new Map(surveys.map((row) => [String(row.advisor_id), row])),
    targets: targets[0],
    // Before this device's first sync an empty list says nothing about the store.
    emptyText: lastSyncedAt === null ? 'Fetching the team from the server...' : 'No advisors yet: add them in the Front End Team panel.',
    daysComplete: store.daysComplete,
    monthComplete: monthComplete(store.daysComplete, store.workDays),
  };
}
