import { useState } from 'react';
import { useDevice } from '../../data/device-context.tsx';
import { saveCalendarDay, saveStoreSettings, useCalendarDays, useStoreSettings } from '../../data/repositories/store-and-people.ts';
import { isoDayOfWeek } from '../../domain/calendar.ts';
import { characterCount } from '../../domain/field-rules.ts';
import { fieldLimits } from '../../domain/limits.ts';
import { yearAndMonth } from '../../domain/month.ts';
import { isWorkWeek, defaultWorkWeek, weekdayNames } from '../../domain/work-days.ts';
import type { FormResult } from '../../ui/NumberFieldsForm.tsx';
import { FormMessage } from '../../ui/NumberFieldsForm.tsx';
import { useAccount } from '../session/session-context.tsx';
import { useSelectedMonth } from '../session/use-month.ts';
import { errorText } from '../../sync/errors.ts';

const noteLimit = fieldLimits.store_calendar_days.note.maxLength;
const failed = (error: unknown) => ({ text: `Failed to save settings: ${errorText(error)}`, error: true });

/**
 * The weekdays the store works and the dates that differ from them (holidays, an extra
 * opening). Every month's work days come from these until a manager enters a week's own
 * figure, so a new month is never empty.
 */
export function WorkPatternTab() {
  const device = useDevice();
  const { storeId } = useAccount();
  const { month } = useSelectedMonth();
  const [year, setYear] = useState(yearAndMonth(month).year);
  const settings = useStoreSettings(storeId);
  const days = useCalendarDays(storeId, year);
  const [message, setMessage] = useState<FormResult | null>(null);
  const [date, setDate] = useState('');
  const [note, setNote] = useState('');
  if (settings === undefined || !days) return <p>Loading store settings...</p>;
  const workWeek = isWorkWeek(settings?.work_week) ? settings.work_week : defaultWorkWeek;

  async function toggleWeekday(index: number) {
    if (!storeId) return setMessage({ text: 'Store ID is missing. Cannot save settings.', error: true });
    const next = [...workWeek].map((flag, i) => (i === index ? (flag === '1' ? '0' : '1') : flag)).join('');
    try {
      await saveStoreSettings(device, storeId, { work_week: next });
      setMessage({ text: 'Work pattern saved successfully!', error: false });
    } catch (error) {
      setMessage(failed(error));
    }
  }

  async function addDay(isWorkDay: boolean) {
    if (!storeId) return setMessage({ text: 'Store ID is missing. Cannot save settings.', error: true });
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return setMessage({ text: 'Nothing was saved: choose a date.', error: true });
    if (characterCount(note) > noteLimit) return setMessage({ text: `Nothing was saved: the note may hold at most ${noteLimit} characters.`, error: true });
    try {
      await saveCalendarDay(device, storeId, date, isWorkDay, note.trim() || null);
      setMessage({ text: `${date} saved as ${isWorkDay ? 'an extra work day' : 'closed'}.`, error: false });
      setDate('');
      setNote('');
    } catch (error) {
      setMessage(failed(error));
    }
  }

  const exceptions = days.filter((day) => typeof day.is_work_day === 'boolean');
  return (
    <section aria-labelledby="work-pattern-title" className="work-pattern">
      <h2 id="work-pattern-title">Work Pattern</h2>
      <p className="hint">A month&apos;s work days and days complete come from these until a week&apos;s own figures are entered on the Daily or Weekly page; an entry always wins.</p>
      <fieldset>
        <legend>Open on</legend>
        <div className="weekday-choices">
          {weekdayNames.map((name, index) => (
            <label key={name}>
              <input type="checkbox" checked={workWeek[index] === '1'} onChange={() => void toggleWeekday(index)} /> {name}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Holidays and extra work days</legend>
        <div className="calendar-form">
          <label>
            Date
            <input type="date" value={date} onChange={(event) => setDate(event.target.value)} />
          </label>
          <label>
            Note
            <input type="text" value={note} maxLength={noteLimit} onChange={(event) => setNote(event.target.value)} placeholder="Thanksgiving" />
          </label>
          <button type="button" onClick={() => void addDay(false)}>
            Closed on this day
          </button>
          <button type="button" onClick={() => void addDay(true)}>
            Open on this day
          </button>
        </div>
        <div className="year-picker" role="group" aria-label="Calendar year">
          <button type="button" onClick={() => setYear(year - 1)}>
            {year - 1}
          </button>
          <strong>{year}</strong>
          <button type="button" onClick={() => setYear(year + 1)}>
            {year + 1}
          </button>
        </div>
        <div className="scroll-x">
          <table className="admin-table" aria-label={`Holidays and extra work days ${year}`}>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Day</th>
                <th scope="col">Store</th>
                <th scope="col">Note</th>
                <th scope="col">
                  <span className="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {exceptions.length === 0 ? (
                <tr>
                  <td colSpan={5}>No holidays or extra work days in {year}.</td>
                </tr>
              ) : (
                exceptions.map((day) => {
                  const when = String(day.calendar_date);
                  return (
                    <tr key={when}>
                      <td>{when}</td>
                      <td>{weekdayNames[isoDayOfWeek(when) - 1]}</td>
                      <td>{day.is_work_day ? 'Open' : 'Closed'}</td>
                      <td>{typeof day.note === 'string' ? day.note : ''}</td>
                      <td>
                        <button type="button" onClick={() => storeId && void saveCalendarDay(device, storeId, when, null, null).catch((error: unknown) => setMessage(failed(error)))}>
                          Follow the pattern on {when}
                        </button>
                      </td>
                    </tr>
                  );
                })
              )}
            </tbody>
          </table>
        </div>
      </fieldset>
      <FormMessage message={message} />
    </section>
  );
}
