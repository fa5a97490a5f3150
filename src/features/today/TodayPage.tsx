import { CellHistory, useLastCell } from '../history/CellHistory.tsx';
import { dailyCellRef } from '../history/cell-refs.ts';
import { useState } from 'react';
import type { LabourRow, Metric } from '../../data/repositories/daily-inputs.ts';
import { saveDailyValues } from '../../data/repositories/daily-inputs.ts';
import { useDevice } from '../../data/device-context.tsx';
import { parseDate } from '../../domain/calendar.ts';
import { numberLimitOf } from '../../domain/field-rules.ts';
import { formatCurrency } from '../../domain/format.ts';
import { monthKeyOf, shiftMonth } from '../../domain/month.ts';
import { CategorySummary } from '../../ui/CategorySummary.tsx';
import { NumberCell } from '../../ui/NumberCell.tsx';
import { KpiRow } from '../daily/KpiRow.tsx';
import { PacePanel } from '../daily/PacePanel.tsx';
import { GoalAlertNotice } from '../daily/GoalAlertNotice.tsx';
import { useGoalAlertWatch } from '../daily/use-goal-alerts.ts';
import { cellKey, monthlyTableOf, todayIso, useDailyMonth } from '../../data/month-view.ts';
import { useAccount } from '../session/session-context.tsx';
import { errorText } from '../../sync/errors.ts';
import { DealerImportButton } from '../dealer-import/DealerImport.tsx';
import { ShareTodayButton } from '../share/ShareToday.tsx';
import { useScreenDrawn } from '../../ui/screen-drawn.ts';

const rows: Array<{ row: LabourRow; name: string }> = [
  { row: 'CP', name: 'Customer pay' },
  { row: 'W', name: 'Warranty' },
  { row: 'I', name: 'Internal' },
];
const metrics: Array<{ metric: Metric; name: string }> = [
  { metric: 'hours', name: 'Hours' },
  { metric: 'sales', name: 'Sales' },
];
const dateFormat = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });

/**
 * An advisor's day on a tablet: today's hours and sales per category as large inputs,
 * then this week's running totals and the month's pace. Saved on the device like every
 * other entry; the bar at the top shows when it reaches the server.
 */
export function TodayPage() {
  const device = useDevice();
  const { storeId } = useAccount();
  const today = todayIso();
  const month = monthKeyOf(parseDate(today));
  const data = useDailyMonth(storeId, month);
  const lastYear = useDailyMonth(storeId, shiftMonth(month, -12));
  const goal = useGoalAlertWatch(storeId, month, data?.figures);
  // The input that last had focus is the one "History of ..." asks about.
  const lastCell = useLastCell((label) => (storeId ? dailyCellRef(label, storeId) : null));
  const [notice, setNotice] = useState<string | null>(null);
  useScreenDrawn(data !== undefined);
  if (!data) return <p>Loading performance data...</p>;

  const week = data.grid.find((w) => w.days.some((day) => day.date === today));
  const weekFigures = week ? data.weeks.get(week.start) : undefined;
  const table = monthlyTableOf(data);
  const save = (row: LabourRow, metric: Metric, value: number | null, seen: number | null) => {
    if (!storeId) return setNotice('Notice: Store ID not found for user. Cannot save.');
    const saving = goal.watch(saveDailyValues(device, storeId, [{ date: today, row, metric, value, seen }]));
    saving.then(
      () => setNotice(null),
      (error: unknown) => setNotice(`Notice: ${errorText(error)}`),
    );
    return saving; // the cell keeps the typed value if this fails
  };

  return (
    <section className="card today-page" aria-labelledby="today-title">
      <h1 id="today-title">Today</h1>
      <p className="today-date">{dateFormat.format(parseDate(today))}</p>
      <div className="actions today-actions">
        <ShareTodayButton />
        <DealerImportButton />
      </div>
      <GoalAlertNotice alert={goal.alert} onDismiss={goal.dismiss} />
      {notice ? (
        <p className="notice" role="alert">
          {notice}
        </p>
      ) : null}
      <div className="today-entry" data-grid role="group" aria-label="Today's hours and sales" onFocus={lastCell.onFocus}>
        <span className="today-corner" />
        {metrics.map(({ metric, name }) => (
          <span key={metric} className="today-head">
            {name}
          </span>
        ))}
        {rows.map(({ row, name }, rowIndex) => [
          <span key={`${row}-name`} className="today-row">
            {name} ({row})
          </span>,
          ...metrics.map(({ metric, name: metricName }, metricIndex) => (
            <NumberCell
              key={`${row}-${metric}`}
              className="cell today-input"
              label={`${row} ${metricName} ${today}`}
              value={data.values.get(cellKey(today, row, metric)) ?? null}
              limit={numberLimitOf('daily_inputs', 'value', { metric_type: metric })}
              disabled={!storeId}
              order={rowIndex * 2 + metricIndex + 1}
              row={rowIndex}
              column={metricIndex}
              onCommit={(value, seen) => save(row, metric, value, seen)}
            />
          )),
        ])}
      </div>
      {week && weekFigures ? (
        <section aria-labelledby="today-week-title">
          <h2 id="today-week-title">
            This week so far ({weekFigures.part.start} to {weekFigures.part.end})
          </h2>
          <CategorySummary
            label="This week's totals"
            lines={[
              { name: 'ALL', hours: weekFigures.totals.CP.hours + weekFigures.totals.W.hours + weekFigures.totals.I.hours, sales: weekFigures.totals.CP.sales + weekFigures.totals.W.sales + weekFigures.totals.I.sales },
              ...rows.map(({ row }) => ({ name: row, ...weekFigures.totals[row] })),
            ]}
          />
        </section>
      ) : null}
      <section aria-labelledby="today-month-title">
        <h2 id="today-month-title">The month&apos;s pace</h2>
        <p>
          Sales pacing {formatCurrency(table.pacing)} against a target of {formatCurrency(table.target)} ({data.days.daysComplete} of {data.days.workDays} work days complete).
        </p>
        <KpiRow figures={data.figures} lastYear={lastYear?.figures} tiles={['monthComplete', 'hoursPerDay', 'salesPerDay', 'cpElr']} />
        <PacePanel paces={data.paces} remainingDays={Math.max(data.days.workDays - data.days.daysComplete, 0)} />
      </section>
      <CellHistory cell={lastCell.cell} />
    </section>
  );
}
