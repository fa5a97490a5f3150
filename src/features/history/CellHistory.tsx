import { useState } from 'react';
import type { FocusEvent } from 'react';
import type { ChangeRecord } from '../../server/history-api.ts';
import type { CellRef } from './cell-refs.ts';
import { isSyncedTable } from '../../data/synced-tables.ts';
import { useServerReads, useSyncStatus } from '../session/session-context.tsx';
import { errorText } from '../../sync/errors.ts';

/** The field a cell names itself (its data-history), when the screen gave it one. */
function storedFieldOf(element: HTMLElement, label: string): CellRef | null {
  const text = element.dataset.history;
  if (!text) return null;
  try {
    const { table, key, field } = JSON.parse(text) as Omit<CellRef, 'label'>;
    return isSyncedTable(table) ? { label, table, key, field } : null;
  } catch {
    return null;
  }
}

/** Remembers the input that last had focus and names a stored field, for "History of ..." beside it. */
export function useLastCell(resolve: (label: string) => CellRef | null) {
  const [cell, setCell] = useState<CellRef | null>(null);
  const onFocus = (event: FocusEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    const label = target.getAttribute('aria-label');
    const found = label ? (storedFieldOf(target, label) ?? resolve(label)) : null;
    if (found) setCell(found);
  };
  return { cell, onFocus };
}

const when = (iso: string) => new Date(iso).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
/** "typed DATE, " or, for an imported value, "imported from FILE DATE, " (what the device says). */
const madeText = (r: ChangeRecord) => {
  const at = r.typedAt ? ` ${when(r.typedAt)}` : '';
  if (r.source) return `${r.source}${at}, `;
  return r.typedAt ? `typed${at}, ` : '';
};
const shown = (value: unknown) => (value === null || value === undefined ? 'empty' : String(value));

/**
 * "History of CP Hours 2031-07-01": every change the server recorded for the cell, newest
 * first (who, which device, typed and arrived, old and new). Needs a connection.
 */
export function CellHistory({ cell }: { cell: CellRef | null }) {
  const reads = useServerReads();
  const { online } = useSyncStatus();
  const [shownFor, setShownFor] = useState<string | null>(null);
  const [records, setRecords] = useState<ChangeRecord[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  if (!cell) return <p className="hint">Select a cell, then ask for its history here.</p>;

  async function load(target: CellRef) {
    setShownFor(target.label);
    setRecords(null);
    if (!online) return setMessage('The history is kept on the server: it needs a connection.');
    setMessage('Loading...');
    try {
      const all = await reads.cellHistory(target.table, target.key);
      setRecords(all.filter((record) => record.field === target.field));
      setMessage(null);
    } catch (error) {
      setMessage(`The history could not be read: ${errorText(error)}`);
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
              {r.device ? ` on ${r.device}` : ''}, {madeText(r)}arrived {when(r.arrivedAt)}
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
