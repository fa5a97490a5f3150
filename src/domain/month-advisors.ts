/**
 * Who a month's Front End Team figures are listed for. An advisor who leaves is set
 * inactive and drops off the months to come, but a month that holds their figures keeps
 * listing them: otherwise setting someone inactive would take their figures out of the
 * team totals of every month they worked, closed months included (docs/security.md,
 * closed months).
 */

export type MonthAdvisor = { id: string; name: string };

type AdvisorRow = Record<string, unknown>;

/** The active advisors and every advisor with a row among `monthRows`, in the order they joined. */
export function advisorsOfMonth(advisors: AdvisorRow[], monthRows: Array<Record<string, unknown>>): MonthAdvisor[] {
  const withFigures = new Set(monthRows.map((row) => String(row.advisor_id)));
  return advisors
    .filter((row) => row.is_active !== false || withFigures.has(String(row.id)))
    .sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)))
    .map((row) => ({ id: String(row.id), name: String(row.advisor_name) }));
}
