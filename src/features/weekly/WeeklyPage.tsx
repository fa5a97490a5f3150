import { useEffect, useState } from 'react';
import { useDevice } from '../../data/device-context.tsx';
import { saveWeeks } from '../../data/repositories/store-month.ts';
import type { IsoDate } from '../../domain/calendar.ts';
import { monthLabel } from '../../domain/month.ts';
import { useDailyMonth } from '../daily/use-daily-month.ts';
import { WeekSummary } from '../daily/WeekSummary.tsx';
import { useAccount } from '../session/session-context.tsx';
import { useSelectedMonth } from '../session/use-month.ts';

type SaveState = 'saving' | 'saved' | 'error' | null;
const saveText = { saving: 'Saving...', saved: 'Saved', error: 'Error saving' } as const;
/** How long a save outcome stays on screen (spec: "Saved" 2 s, "Error saving" 3 s). */
const clearAfterMs = { saved: 2000, error: 3000 } as const;

/** The month's weeks: summaries from the daily figures, and days complete / work days saved as they change. */
export function WeeklyPage() {
  const device = useDevice();
  const { storeId } = useAccount();
  const { month } = useSelectedMonth();
  const data = useDailyMonth(storeId, month);
  const [average, setAverage] = useState(true);
  const [saveState, setSaveState] = useState<SaveState>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    if (saveState !== 'saved' && saveState !== 'error') return;
    const timer = setTimeout(() => setSaveState(null), clearAfterMs[saveState]);
    return () => clearTimeout(timer);
  }, [saveState]);

  async function onWeek(weekStart: IsoDate, field: 'daysComplete' | 'workDays', value: number | null) {
    if (!storeId) return;
    setSaveState('saving');
    try {
      // Only the changed field is written: the other may have been saved a moment ago.
      await saveWeeks(device, storeId, [{ weekStart, [field]: value }]);
      setSaveState('saved');
    } catch (error) {
      setSaveState('error');
      setNotice(`Notice: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  return (
    <section className="card weekly" aria-labelledby="weekly-title">
      <h1 id="weekly-title">Weekly Performance</h1>
      <p>Manage weekly performance data and summaries</p>
      <div className="kpi-bar">
        <span>{monthLabel(month)}</span>
        <label>
          Week figures
          <select value={average ? 'avg' : 'total'} onChange={(event) => setAverage(event.target.value === 'avg')}>
            <option value="avg">avg</option>
            <option value="total">Weekly Total</option>
          </select>
        </label>
        <span className="save-status" role="status" aria-live="polite">
          {saveState ? saveText[saveState] : ''}
        </span>
      </div>
      {notice ? (
        <p className="notice" role="alert">
          {notice}
        </p>
      ) : null}
      {data ? (
        <div className="week-list" data-grid>
          {data.grid.map((week) => (
            <article key={week.start} className="card week-card" aria-label={`Week ${week.index}`}>
              <h2>
                Week {week.index}: {week.start} to {week.end}
              </h2>
              <WeekSummary
                week={week}
                figures={data.weeks.get(week.start)}
                average={average}
                disabled={!storeId}
                onWeek={(start, field, value) => void onWeek(start, field, value)}
              />
            </article>
          ))}
        </div>
      ) : (
        <p>Loading weekly performance data...</p>
      )}
    </section>
  );
}
