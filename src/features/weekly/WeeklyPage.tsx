import { useEffect, useState } from 'react';
import { useDevice } from '../../data/device-context.tsx';
import { saveWeeks } from '../../data/repositories/store-month.ts';
import type { WeekField } from '../../data/repositories/submit-drafts.ts';
import { discardDrafts, useSubmitDrafts, weekDraftKey } from '../../data/repositories/submit-drafts.ts';
import type { IsoDate } from '../../domain/calendar.ts';
import { monthLabel } from '../../domain/month.ts';
import { useDailyMonth } from '../../data/month-view.ts';
import { withDraftWeeks } from '../daily/draft-weeks.ts';
import { WeekSummary } from '../daily/WeekSummary.tsx';
import { useAccount } from '../session/session-context.tsx';
import { useSelectedMonth } from '../session/use-month.ts';
import { errorText } from '../../sync/errors.ts';
import { useScreenDrawn } from '../../ui/screen-drawn.ts';

type SaveState = 'saving' | 'saved' | 'error' | null;
const saveText = { saving: 'Saving...', saved: 'Saved', error: 'Error saving' } as const;
/** How long a save outcome stays on screen (docs/screens.md, "Rules the screens keep"). */
const clearAfterMs = { saved: 2000, error: 3000 } as const;

/**
 * Brings the person to a week input of the Daily section on the same page (the One Page),
 * the one place its value is typed.
 */
function focusDailyInput(label: string) {
  const input = document.querySelector<HTMLInputElement>(`section.daily input[aria-label="${label}"]`);
  input?.scrollIntoView({ block: 'center', inline: 'center' });
  input?.focus({ preventScroll: true });
}

/**
 * The month's weeks: summaries from the daily figures, and days complete / work days saved
 * as they change. A week part has one input per field on any page: where the page also
 * holds the Daily section (`daysInDailySection`, the One Page), the week's days show here
 * as text with a way to that input (docs/screens.md). Either way a value typed in Submit
 * mode and not submitted shows here too, marked; typing over it here saves it.
 */
export function WeeklyPage({ daysInDailySection = false }: { daysInDailySection?: boolean }) {
  const device = useDevice();
  const { storeId } = useAccount();
  const { month } = useSelectedMonth();
  const stored = useDailyMonth(storeId, month);
  const drafts = useSubmitDrafts(storeId);
  const draftKeys = new Set((drafts ?? []).map((draft) => draft.key));
  const data = stored && drafts ? withDraftWeeks(stored, drafts) : undefined;
  useScreenDrawn(data !== undefined);
  const [average, setAverage] = useState(true);
  const [saveState, setSaveState] = useState<SaveState>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    if (saveState !== 'saved' && saveState !== 'error') return;
    const timer = setTimeout(() => setSaveState(null), clearAfterMs[saveState]);
    return () => clearTimeout(timer);
  }, [saveState]);

  async function onWeek(weekStart: IsoDate, field: WeekField, value: number | null) {
    if (!storeId) return;
    setSaveState('saving');
    try {
      // Only the changed field is written: the other may have been saved a moment ago.
      await saveWeeks(device, storeId, [{ weekStart, [field]: value }]);
      // What was just typed replaces a value typed in Submit mode and not submitted.
      const key = weekDraftKey(weekStart, field);
      if (draftKeys.has(key)) await discardDrafts(device.db, storeId, [key]);
      setSaveState('saved');
    } catch (error) {
      setSaveState('error');
      setNotice(`Notice: ${errorText(error)}`);
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
            <option value="avg">Daily Average</option>
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
                isDraft={(key) => draftKeys.has(key)}
                enterElsewhere={daysInDailySection ? focusDailyInput : undefined}
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
