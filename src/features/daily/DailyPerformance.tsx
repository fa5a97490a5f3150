import { startTransition, useCallback, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import type { DailyValue, LabourRow, Metric } from '../../data/repositories/daily-inputs.ts';
import { saveDailyValues } from '../../data/repositories/daily-inputs.ts';
import type { WeekInput } from '../../data/repositories/store-month.ts';
import { saveWeeks } from '../../data/repositories/store-month.ts';
import { useDevice } from '../../data/device-context.tsx';
import type { SubmitDraft, WeekField } from '../../data/repositories/submit-drafts.ts';
import { discardDrafts, forgetSubmitted, keepCellDraft, keepWeekDraft, readShownDrafts, useSubmitDrafts, weekDraftKey } from '../../data/repositories/submit-drafts.ts';
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
import { withDraftWeeks } from './draft-weeks.ts';
import { DraftsBar } from './DraftsBar.tsx';
import { useGoalAlertWatch } from './use-goal-alerts.ts';
import type { CellKey } from '../../data/month-view.ts';
import { cellKey, todayIso, useDailyMonth } from '../../data/month-view.ts';
import { errorText } from '../../sync/errors.ts';
import { useLatestCallback } from '../../ui/use-latest-callback.ts';
import { DealerImportButton } from '../dealer-import/DealerImport.tsx';
import { ShareTodayButton } from '../share/ShareToday.tsx';
import { useScreenDrawn } from '../../ui/screen-drawn.ts';

type Mode = 'autosave' | 'submit';

/** A cell's draft key (repositories/submit-drafts.ts) from the grid's cell key. */
const draftKeyOf = (key: CellKey) => `cell|${key}`;

/** What "Submit Data" writes for a set of drafts: cells as typed over their base, and week parts' fields. */
function submission(drafts: readonly SubmitDraft[]): { cells: DailyValue[]; weeks: WeekInput[] } {
  const cells: DailyValue[] = [];
  const weeks = new Map<IsoDate, WeekInput>();
  for (const draft of drafts) {
    if (draft.cell) cells.push({ date: draft.date, row: draft.cell.row as LabourRow, metric: draft.cell.metric as Metric, value: draft.value, seen: draft.seen });
    if (draft.weekField) weeks.set(draft.date, { weekStart: draft.date, ...weeks.get(draft.date), [draft.weekField]: draft.value });
  }
  return { cells, weeks: [...weeks.values()] };
}

/**
 * The daily calendar: month tiles, the week grid and week summaries. In autosave mode a
 * cell is saved as it is typed; in submit mode what is typed is kept on this device as a
 * draft (marked, counted in the sync bar, kept across pages and reloads) until "Submit
 * Data" writes it. Either way "saved" means saved on this device and queued; the sync bar
 * shows when it arrives. A draft shows on every screen of its field: typing over it in
 * autosave mode saves the new value and drops the draft.
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
  const drafts = useSubmitDrafts(storeId);
  const draftByKey = useMemo(() => new Map((drafts ?? []).map((draft) => [draft.key, draft])), [drafts]);
  const loading = data === undefined || drafts === undefined;
  // A closed month's figures are read-only (the server refuses changes to them too).
  const closure = useMonthClosure(storeId, month);
  const lastCell = useLastCell((label) => (storeId ? dailyCellRef(label, storeId) : null));

  const failed = (error: unknown) => setNotice(`Notice: ${errorText(error)}`);

  function onCell(date: IsoDate, row: LabourRow, metric: Metric, value: number | null, seen: number | null): Promise<unknown> | undefined {
    if (!storeId) return;
    // Held for "Submit Data" on the device: what was on screen before the first keystroke stays the base.
    if (mode !== 'autosave') return keepCellDraft(device.db, storeId, { date, row, metric, value, seen });
    const key = draftKeyOf(cellKey(date, row, metric));
    const draft = draftByKey.get(key);
    const saving = goal.watch(saveDailyValues(device, storeId, [{ date, row, metric, value, seen }]));
    saving.then(() => (draft ? discardDrafts(device.db, storeId, [key]) : undefined)).catch(failed);
    return saving; // the cell keeps the typed value if this fails
  }

  function onWeek(partStart: IsoDate, field: WeekField, value: number | null, seen: number | null): Promise<unknown> | undefined {
    if (!storeId) return;
    if (mode !== 'autosave') return void keepWeekDraft(device.db, storeId, { weekStart: partStart, field, value, seen }).catch(failed);
    const key = weekDraftKey(partStart, field);
    const draft = draftByKey.get(key);
    // Only the changed field is written: the other may have been saved a moment ago.
    const saving = saveWeeks(device, storeId, [{ weekStart: partStart, [field]: value }]);
    saving.then(() => (draft ? discardDrafts(device.db, storeId, [key]) : undefined)).catch(failed);
    return saving; // the input signs "saved on this device", or keeps the typed value with the reason
  }

  async function submit() {
    if (!storeId) return setStatus('Cannot submit data: User store ID is missing.');
    setBusy(true);
    try {
      // The drafts as they are now; a closed month's stay (the server refuses them) until discarded.
      const written = (await readShownDrafts(device.db, storeId)).filter((draft) => !draft.monthClosed);
      const { cells, weeks } = submission(written);
      if (cells.length === 0 && weeks.length === 0) return setStatus('No changes to submit.');
      setStatus('Submitting...');
      const changed = (await goal.watch(saveDailyValues(device, storeId, cells))) + (await saveWeeks(device, storeId, weeks));
      // Only what was written goes: a value typed meanwhile stays a draft.
      await forgetSubmitted(device.db, written);
      setStatus(changed ? 'Data submitted successfully!' : 'No changes to submit.');
    } catch (error) {
      setStatus(`Data submission error: ${errorText(error)}`);
    } finally {
      setBusy(false);
    }
  }

  // The grid, the tiles and the pace panel draw again only when what they show changes, not
  // for each of the page's other updates (the URL's month before its values are read, last
  // year's figures arriving, a cell taking focus): what they are given stays the same.
  const valueOf = useCallback(
    (key: CellKey) => {
      const draft = draftByKey.get(draftKeyOf(key));
      return draft ? draft.value : (data?.values.get(key) ?? null);
    },
    [draftByKey, data],
  );
  const isDraft = useCallback((key: string) => draftByKey.has(key), [draftByKey]);
  const onCellLatest = useLatestCallback(onCell);
  const onWeekLatest = useLatestCallback(onWeek);
  const shown = useMemo(() => (data ? withDraftWeeks(data, drafts) : data), [data, drafts]);
  const today = todayIso();
  // The screen's first drawing of a month (its grid holds some 250 inputs) is a transition,
  // which React draws in slices of a few milliseconds between which the page stays
  // responsive, instead of one long task; it starts once the drafts are read, so the grid
  // is not drawn disabled first and then again. Month switches after it draw at once
  // (docs/performance.md).
  const ready = shown !== undefined && drafts !== undefined;
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    if (ready && !drawn) startTransition(() => setDrawn(true));
  }, [ready, drawn]);
  useScreenDrawn(drawn);

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
        {/* The import saves at once, as this mode does; Submit mode's pages (the One Page's Daily section among them) wait for "Submit Data", and offer neither it nor the recap beside it. */}
        {mode === 'autosave' ? (
          <>
            <DealerImportButton />
            <ShareTodayButton />
          </>
        ) : null}
        <label>
          Week figures
          <select value={average ? 'daily' : 'total'} onChange={(event) => setAverage(event.target.value === 'daily')}>
            <option value="daily">Daily Average</option>
            <option value="total">Total</option>
          </select>
        </label>
      </div>
      <MonthClosureBar month={month} />
      {status ? <p role={/^(Cannot submit|Data submission error)/.test(status) ? 'alert' : 'status'}>{status}</p> : null}
      {storeId && drafts ? <DraftsBar storeId={storeId} drafts={drafts} /> : null}
      {notice ? (
        <p className="notice" role="alert">
          {notice}
        </p>
      ) : null}
      <GoalAlertNotice alert={goal.alert} onDismiss={goal.dismiss} />
      {drawn
        ? shown?.days.warnings.map((warning) => (
            <p key={warning} className="notice" role="status">
              {warning}
            </p>
          ))
        : null}
      {shown && drawn ? (
        <>
          <KpiRow figures={shown.figures} lastYear={lastYear?.figures} headingLevel={2} />
          <PacePanel paces={shown.paces} remainingDays={Math.max(shown.days.workDays - shown.days.daysComplete, 0)} />
          {/* The cell that last had focus is the one "History of ..." below asks about. */}
          <div onFocus={lastCell.onFocus}>
            <DayGrid
              month={shown}
              today={today}
              disabled={loading || busy || !storeId || closure?.closed === true}
              average={average}
              valueOf={valueOf}
              onCell={onCellLatest}
              onWeek={onWeekLatest}
              storeId={storeId ?? undefined}
              isDraft={isDraft}
              signSaved={mode === 'autosave'}
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
