import { useState } from 'react';
import { useTeamMonth } from '../../data/repositories/front-end-team.ts';
import { useStoreAdvisors, useStoreName } from '../../data/repositories/store-and-people.ts';
import type { DailyMonth } from '../../data/month-view.ts';
import { cellKey, monthlyTableOf, todayIso, useDailyMonth } from '../../data/month-view.ts';
import type { IsoDate } from '../../domain/calendar.ts';
import { parseDate } from '../../domain/calendar.ts';
import type { RecapAdvisor } from '../../domain/day-recap.ts';
import { dayRecapText, latestDayWithFigures } from '../../domain/day-recap.ts';
import { addUp } from '../../domain/front-end-team.ts';
import type { Category, Totals } from '../../domain/kpi-math.ts';
import { advisorsOfMonth } from '../../domain/month-advisors.ts';
import { monthKeyOf, yearAndMonth } from '../../domain/month.ts';
import { useAccount } from '../session/session-context.tsx';

const categories: Category[] = ['CP', 'W', 'I'];

/** Each day of the month with its totals by category, from the month's grid values. */
function daysOf(month: DailyMonth): Map<IsoDate, Totals> {
  const days = new Map<IsoDate, Totals>();
  for (const week of month.grid) {
    for (const day of week.days) {
      if (!day.inMonth) continue;
      const totals = Object.fromEntries(
        categories.map((category) => [category, { hours: month.values.get(cellKey(day.date, category, 'hours')) ?? 0, sales: month.values.get(cellKey(day.date, category, 'sales')) ?? 0 }]),
      ) as Totals;
      days.set(day.date, totals);
    }
  }
  return days;
}

type ShareNavigator = Navigator & { share?: (data: { text: string }) => Promise<void> };
type Said = { kind: 'status' | 'alert'; text: string; copyable?: string };

/**
 * "Share today's numbers": the day's recap (docs/figures.md, "The day's recap") for the
 * team's group chat, from this device's figures (it works offline), through the device's
 * share sheet where there is one, else copied to the clipboard.
 */
export function ShareTodayButton() {
  const { storeId } = useAccount();
  const today = todayIso();
  const monthKey = monthKeyOf(parseDate(today));
  const { year, month } = yearAndMonth(monthKey);
  const data = useDailyMonth(storeId, monthKey);
  const storeName = useStoreName(storeId);
  const advisorRows = useStoreAdvisors(storeId);
  const advisorTotals = useTeamMonth('front_end_team_advisor_totals', storeId, year, month);
  const [said, setSaid] = useState<Said | null>(null);
  const ready = data !== undefined && advisorRows !== undefined && advisorTotals !== undefined;

  function recap(): string {
    if (!data || !advisorRows || !advisorTotals) return '';
    const days = daysOf(data);
    const date = latestDayWithFigures(days, today);
    const advisors: RecapAdvisor[] = advisorsOfMonth(advisorRows, advisorTotals).map(({ id, name }) => {
      const sums = addUp(advisorTotals.filter((row) => row.advisor_id === id), ['labour_sales', 'total_hours']);
      return { name, labourSales: sums.labour_sales ?? null, hours: sums.total_hours ?? null };
    });
    const table = monthlyTableOf(data);
    return dayRecapText({
      storeName: storeName ?? null,
      day: date ? { date, totals: days.get(date) as Totals } : null,
      month: { totals: data.totals, daysComplete: data.days.daysComplete, workDays: data.days.workDays },
      figures: data.figures,
      paces: data.paces,
      salesPacing: { pacing: table.pacing, target: table.target },
      advisors,
    });
  }

  async function share() {
    const text = recap();
    setSaid(null);
    const device = navigator as ShareNavigator;
    if (typeof device.share === 'function') {
      try {
        await device.share({ text });
        return setSaid({ kind: 'status', text: 'Shared.' });
      } catch (error) {
        // Closing the share sheet is the person's choice, not a failure.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(text);
      setSaid({ kind: 'status', text: "Copied today's numbers: paste them into the team's chat." });
    } catch {
      setSaid({ kind: 'alert', text: 'This browser could not share or copy the text; select it below and copy it.', copyable: text });
    }
  }

  return (
    <span className="share-today">
      <button type="button" disabled={!ready} onClick={() => void share()}>
        Share today&apos;s numbers
      </button>
      {said ? (
        <span role={said.kind} className={said.kind === 'alert' ? 'error' : 'success'}>
          {said.text}
        </span>
      ) : null}
      {said?.copyable ? <textarea readOnly aria-label="Today's numbers" value={said.copyable} rows={8} /> : null}
    </span>
  );
}
