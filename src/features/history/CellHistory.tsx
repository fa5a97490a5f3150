import { useState } from 'react';
import type { FocusEvent } from 'react';
import type { ChangeRecord } from '../../sync/history-api.ts';
import { useSyncRuntime, useSyncStatus } from '../session/session-context.tsx';

/** A daily grid cell as its label names it ("CP Hours 2031-07-01"), or null for any other input. */
export type DailyCell = { label: string; date: string; row: string; metric: 'hours' | 'sales' };

export function dailyCellOf(label: string | null): DailyCell | null {
  const match = /^(CP|W|I) (Hours|Sales) (\d{4}-\d{2}-\d{2})$/.exec(label ?? '');
  if (!match) return null;
  return { label: label as string, row: match[1] as string, metric: match[2] === 'Hours' ? 'hours' : 'sales', date: match[3] as string };
}

/** Remembers the daily cell that last had focus, for "History of ..." beside the grid. */
export function useLastDailyCell() {
  const [cell, setCell] = useState<DailyCell | null>(null);
  const onFocus = (event: FocusEvent<HTMLElement>) => {
    const found = dailyCellOf((event.target as HTMLElement).getAttribute('aria-label'));
    if (found) setCell(found);
  };
  return { cell, onFocus };
}

const when = (iso: string) => new Date(iso).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
const shown = (value: unknown) => (value === null || value === undefined ? 'empty' : String(value));

/**
 * "History of CP Hours 2031-07-01": every change the server recorded for the cell, newest
 * first (who, which device, typed and arrived, old and new). Needs a connection.
 */
export function CellHistory({ storeId, cell }: { storeId: string; cell: DailyCell | null }) {
  const sync = useSyncRuntime();
  const { online } = useSyncStatus();
  const [shownFor, setShownFor] = useState<string | null>(null);
  const [records, setRecords] = useState<ChangeRecord[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  if (!cell) return <p className="hint">Select a day&apos;s cell, then ask for its history here.</p>;

  async function load(target: DailyCell) {
    setShownFor(target.label);
    setRecords(null);
    if (!online) return setMessage('The history is kept on the server: it needs a connection.');
    setMessage('Loading...');
    try {
      const key = { store_id: storeId, entry_date: target.date, row_identifier: target.row, metric_type: target.metric };
      setRecords(await sync.cellHistory('daily_inputs', key));
      setMessage(null);
    } catch (error) {
      setMessage(`The history could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  return (
    <section className="cell-history" aria-label="Cell history">
      <button type="button" onClick={() => void load(cell)}>
        History of {cell.label}
      </button>
      {shownFor ? <h2>Changes to {shownFor}</h2> : null}
      {message ? <p role="status">{message}</p> : null}
      {records && records.length === 0 ? <p>No changes recorded on the server.</p> : null}
      {records && records.length > 0 ? (
        <ol className="history">
          {records.map((r, index) => (
            <li key={index}>
              {shown(r.oldValue)} → {shown(r.newValue)} by {r.by ?? 'the server'}
              {r.device ? ` on ${r.device}` : ''}, {r.typedAt ? `typed ${when(r.typedAt)}, ` : ''}arrived {when(r.arrivedAt)}
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
