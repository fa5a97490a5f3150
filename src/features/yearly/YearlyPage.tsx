import { lazy, Suspense, useEffect, useState } from 'react';
import { useDevice } from '../../data/device-context.tsx';
import { saveYearlyMonth, useYearlyInputs } from '../../data/repositories/store-month.ts';
import { yearAndMonth } from '../../domain/month.ts';
import { deriveYearlyRow, hasYearlyData } from '../../domain/yearly.ts';
import { useAccount, useSyncStatus } from '../session/session-context.tsx';
import { useSelectedMonth } from '../session/use-month.ts';
import type { Row } from '../../data/synced-tables.ts';
import { useYearDaysAsClosed } from '../../data/repositories/month-closures.ts';
import type { MonthDays } from '../../domain/work-days.ts';
import { todayIso } from '../../data/month-view.ts';
import type { InputField } from './YearBlock.tsx';
import { monthNames } from '../../domain/month.ts';
import { monthInput, YearBlock } from './YearBlock.tsx';
import { CellHistory, useLastCell } from '../history/CellHistory.tsx';
import { yearlyCellRef } from '../history/cell-refs.ts';
import { errorText } from '../../sync/errors.ts';
import { loadWithRetry } from '../../ui/load-with-retry.ts';
import { useScreenDrawn } from '../../ui/screen-drawn.ts';

/** The chart's lines: a month without figures (one not yet begun) is a gap, not a drop to zero. */
function series(year: number, rows: Row[]) {
  const months = monthNames.map((_, i) => monthInput(rows, i + 1));
  return {
    year,
    sales: months.map((m) => (hasYearlyData(m) ? deriveYearlyRow(m).sales : null)),
    net: months.map((m) => (hasYearlyData(m) ? deriveYearlyRow(m).netProfit : null)),
  };
}

const sharesOf = (days: Map<number, MonthDays> | null | undefined) =>
  new Map([...(days ?? new Map<number, MonthDays>())].map(([m, d]) => [m, { daysComplete: d.daysComplete, workDays: d.workDays }]));

// Retried until it arrives: a failed lazy load would be remembered, and break the page, for good.
const YearlyChart = lazy(() => loadWithRetry(() => import('./YearlyChart.tsx')));

type Message = { text: string; error: boolean };
/** Success messages stay 2.5 s, errors 4 s (docs/screens.md, "Rules the screens keep"). */
const clearAfterMs = { success: 2500, error: 4000 } as const;

/** The yearly trend of the selected month's year and the year before; each cell saves when it loses focus. */
export function YearlyPage() {
  const device = useDevice();
  const { storeId } = useAccount();
  // The input that last had focus is the one "History of ..." asks about.
  const lastCell = useLastCell((label) => (storeId ? yearlyCellRef(label, storeId) : null));
  const { month } = useSelectedMonth();
  const { year } = yearAndMonth(month);
  const current = useYearlyInputs(storeId, year);
  const previous = useYearlyInputs(storeId, year - 1);
  const today = todayIso();
  const currentDays = useYearDaysAsClosed(storeId, year, today);
  const previousDays = useYearDaysAsClosed(storeId, year - 1, today);
  const [message, setMessage] = useState<Message | null>(null);

  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), message.error ? clearAfterMs.error : clearAfterMs.success);
    return () => clearTimeout(timer);
  }, [message]);

  async function onCommit(rowYear: number, rowMonth: number, field: InputField, value: number | null) {
    const name = `${monthNames[rowMonth - 1]} ${rowYear}`;
    if (!storeId) return setMessage({ text: 'Store ID is not available. Cannot auto-save.', error: true });
    const rows = (rowYear === year ? current : previous) ?? [];
    const before = monthInput(rows, rowMonth);
    // Empty or zero is saved as "no value".
    const after = { ...before, [field]: value === 0 ? null : value };
    const stored = rows.some((r) => Number(r.month) === rowMonth);
    // A month with nothing in it is not created; clearing a stored month is still saved.
    if (!hasYearlyData(after) && !stored) return;
    try {
      await saveYearlyMonth(device, storeId, rowYear, rowMonth, { [field]: after[field] });
      setMessage({ text: `${name} auto-saved successfully!`, error: false });
    } catch (error) {
      setMessage({ text: `Auto-save failed for ${name}: ${errorText(error)}`, error: true });
    }
  }

  // A device's first sync is still bringing the data: that is loading, not "no data".
  const { initialSync } = useSyncStatus();
  const loading = current === undefined || previous === undefined || (initialSync !== null && current.length + previous.length === 0);
  const empty = !loading && current.length === 0 && previous.length === 0;
  useScreenDrawn(!loading);
  return (
    <section className="card yearly" aria-labelledby="yearly-title">
      <h1 id="yearly-title">Yearly Trend</h1>
      {message ? (
        <p role={message.error ? 'alert' : 'status'} className={message.error ? 'error' : 'success'}>
          {message.text}
        </p>
      ) : null}
      {loading ? <p>Loading yearly performance data...</p> : null}
      {empty ? <p>No data available for the selected years.</p> : null}
      {loading ? null : (
        <Suspense
          fallback={
            <div className="yearly-chart">
              <p>Loading chart...</p>
            </div>
          }
        >
          <YearlyChart current={series(year, current)} previous={series(year - 1, previous)} />
        </Suspense>
      )}
      {loading ? null : (
        <div className="year-blocks" data-grid onFocus={lastCell.onFocus}>
          <YearBlock year={year} rows={current} previous={previous} days={sharesOf(currentDays)} onCommit={(y, m, f, v) => void onCommit(y, m, f, v)} />
          <YearBlock year={year - 1} rows={previous} days={sharesOf(previousDays)} onCommit={(y, m, f, v) => void onCommit(y, m, f, v)} />
        </div>
      )}
      {loading ? null : <CellHistory cell={lastCell.cell} />}
    </section>
  );
}
