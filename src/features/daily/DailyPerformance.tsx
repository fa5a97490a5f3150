import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { DailyValue, LabourRow, Metric } from '../../data/repositories/daily-inputs.ts';
import { saveDailyValues } from '../../data/repositories/daily-inputs.ts';
import type { WeekInput } from '../../data/repositories/store-month.ts';
import { saveWeeks } from '../../data/repositories/store-month.ts';
import { useDevice } from '../../data/device-context.tsx';
import type { IsoDate } from '../../domain/calendar.ts';
import { monthLabel, shiftMonth } from '../../domain/month.ts';
import { useMonthClosure } from '../../data/repositories/month-closures.ts';
import { MonthClosureBar } from '../month-close/MonthClosureBar.tsx';
import { CellHistory, useLastCell } from '../history/CellHistory.tsx';
import { dailyCellRef } from '../history/cell-refs.ts';
import { useAccount } from '../session/session-context.tsx';
import { useSelectedMonth } from '../session/use-month.ts';
import { DayGrid } from './DayGrid.tsx';
import { KpiRow } from './KpiRow.tsx';
import { PacePanel } from './PacePanel.tsx';
import { GoalAlertNotice } from './GoalAlertNotice.tsx';
import { useGoalAlertWatch } from './use-goal-alerts.ts';
import type { CellKey, DailyMonth } from './use-daily-month.ts';
import { cellKey, todayIso, useDailyMonth } from './use-daily-month.ts';

/** Week entries typed in submit mode show in their cells until they are submitted. */
function withPendingWeeks(data: DailyMonth, pending: Map<IsoDate, WeekEdit>): DailyMonth {
  const weeks = new Map(data.weeks);
  for (const [start, figures] of data.weeks) {
    const edit = pending.get(figures.part.start);
    if (!edit) continue;
    const entered = { ...figures.entered, ...edit };
    weeks.set(start, { ...figures, entered, daysComplete: entered.daysComplete ?? figures.pattern.daysComplete, workDays: entered.workDays ?? figures.pattern.workDays });
  }
  return { ...data, weeks };
}

type Mode = 'autosave' | 'submit';
type WeekEdit = { daysComplete?: number | null; workDays?: number | null };

/**
 * The daily calendar: month tiles, the week grid and week summaries. In autosave mode a
 * cell is saved when it loses focus; in submit mode edits wait for "Submit Data". Either
 * way "saved" means saved on this device and queued; the sync bar shows when it arrives.
 */
export function DailyPerformance({ mode, title }: { mode: Mode; title: string }) {
  const device = useDevice();
  const { storeId } = useAccount();
  const { month, move } = useSelectedMonth();
  const data = useDailyMonth(storeId, month);
  const lastYear = useDailyMonth(storeId, shiftMonth(month, -12));
  const goal = useGoalAlertWatch(storeId, month, data?.figures);
  const [average, setAverage] = useState(true);
  const [notice, setNotice] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pendingCells, setPendingCells] = useState(new Map<CellKey, DailyValue>());
  const [pendingWeeks, setPendingWeeks] = useState(new Map<IsoDate, WeekEdit>());
  const loading = data === undefined;
  // A closed month's figures are read-only (the server refuses changes to them too).
  const closure = useMonthClosure(storeId, month);
  const lastCell = useLastCell((label) => (storeId ? dailyCellRef(label, storeId) : null));

  const failed = (error: unknown) => setNotice(`Notice: ${error instanceof Error ? error.message : String(error)}`);

  function onCell(date: IsoDate, row: LabourRow, metric: Metric, value: number | null, seen: number | null): Promise<unknown> | undefined {
    if (!storeId) return;
    const key = cellKey(date, row, metric);
    // Held for "Submit Data": what was on screen before the first keystroke stays the base.
    const edit = { date, row, metric, value, seen: pendingCells.has(key) ? pendingCells.get(key)?.seen : seen };
    if (mode !== 'autosave') return void setPendingCells(new Map(pendingCells).set(key, edit));
    const saving = goal.watch(saveDailyValues(device, storeId, [edit]));
    saving.catch(failed);
    return saving; // the cell keeps the typed value if this fails
  }

  function onWeek(partStart: IsoDate, field: 'daysComplete' | 'workDays', value: number | null) {
    if (!storeId) return;
    // Only the changed field is written: the other may have been saved a moment ago.
    if (mode === 'autosave') void saveWeeks(device, storeId, [{ weekStart: partStart, [field]: value }]).catch(failed);
    else setPendingWeeks(new Map(pendingWeeks).set(partStart, { ...pendingWeeks.get(partStart), [field]: value }));
  }

  async function submit() {
    if (!storeId) return setStatus('Cannot submit data: User store ID is missing.');
    const cells = [...pendingCells.values()].filter((cell) => cell.value !== null || data?.values.has(cellKey(cell.date, cell.row, cell.metric)));
    const weeks: WeekInput[] = [...pendingWeeks].map(([weekStart, edit]) => ({ weekStart, ...edit }));
    if (cells.length === 0 && weeks.length === 0) return setStatus('No changes to submit.');
    setBusy(true);
    setStatus('Submitting...');
    try {
      const changed = (await goal.watch(saveDailyValues(device, storeId, cells))) + (await saveWeeks(device, storeId, weeks));
      setPendingCells(new Map());
      setPendingWeeks(new Map());
      setStatus(changed ? 'Data submitted successfully!' : 'No changes to submit.');
    } catch (error) {
      setStatus(`Data submission error: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setBusy(false);
    }
  }

  const valueOf = (key: CellKey) => (pendingCells.has(key) ? (pendingCells.get(key)?.value ?? null) : (data?.values.get(key) ?? null));
  const shown = data && pendingWeeks.size > 0 ? withPendingWeeks(data, pendingWeeks) : data;
  const today = todayIso();

  return (
    <section className="daily" aria-labelledby="daily-title">
      <h1 id="daily-title">{title}</h1>
      {storeId ? null : <p className="error">Error: Store ID not found for user. Cannot load data.</p>}
      <div className="kpi-bar">
        <div className="month-navigator" role="group" aria-label="Daily month">
          <button type="button" disabled={loading} onClick={() => move(-1)}>
            {'< Prev'}
          </button>
          <span>{monthLabel(month)}</span>
          <button type="button" disabled={loading} onClick={() => move(1)}>
            {'Next >'}
          </button>
        </div>
        {mode === 'submit' ? (
          <button type="button" className="primary" disabled={loading || busy} onClick={() => void submit()}>
            {busy ? 'Submitting...' : 'Submit Data'}
          </button>
        ) : null}
        <Link className="button-link" to={{ pathname: '/print', search: `?month=${month}` }}>
          Print month
        </Link>
        <label>
          Week figures
          <select value={average ? 'daily' : 'total'} onChange={(event) => setAverage(event.target.value === 'daily')}>
            <option value="daily">Daily Average</option>
            <option value="total">Total</option>
          </select>
        </label>
      </div>
      <MonthClosureBar month={month} />
      {status ? <p role="status">{status}</p> : null}
      {notice ? (
        <p className="notice" role="alert">
          {notice}
        </p>
      ) : null}
      <GoalAlertNotice alert={goal.alert} onDismiss={goal.dismiss} />
      {shown?.days.warnings.map((warning) => (
        <p key={warning} className="notice" role="status">
          {warning}
        </p>
      ))}
      {shown ? (
        <>
          <KpiRow figures={shown.figures} lastYear={lastYear?.figures} />
          <PacePanel paces={shown.paces} remainingDays={Math.max(shown.days.workDays - shown.days.daysComplete, 0)} />
          {/* The cell that last had focus is the one "History of ..." below asks about. */}
          <div onFocus={lastCell.onFocus}>
            <DayGrid
              month={shown}
              today={today}
              disabled={loading || busy || !storeId || closure?.closed === true}
              average={average}
              valueOf={valueOf}
              onCell={onCell}
              onWeek={onWeek}
              storeId={storeId ?? undefined}
            />
          </div>
          <CellHistory cell={lastCell.cell} />
        </>
      ) : (
        <p>Loading performance data...</p>
      )}
    </section>
  );
}
