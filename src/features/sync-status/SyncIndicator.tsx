import { useState } from 'react';
import { retryDeadLetter, useConflicts, useDeadLetters } from '../../data/repositories/sync-logs.ts';
import { useDevice } from '../../data/device-context.tsx';
import { useDraftCount } from '../../data/repositories/submit-drafts.ts';
import { explainRefusal } from '../../domain/refusals.ts';
import { useAccount, useSyncRuntime, useSyncStatus } from '../session/session-context.tsx';
import { ActivityList } from './ActivityList.tsx';
import { shownValue, syncedFieldName } from './row-names.ts';

function when(time: number | null, read: boolean): string {
  if (time) return new Date(time).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return read ? 'never' : '…';
}

/** "N edits waiting", or no number at all until the device's count has been read. */
function waitingText(pending: number, read: boolean): string {
  if (!read) return '… edits waiting';
  return pending === 1 ? '1 edit waiting' : `${pending} edits waiting`;
}

/** Always visible: online state, edits waiting, last sync, "Sync now", and a panel of refused edits and conflicts. */
export function SyncIndicator() {
  const status = useSyncStatus();
  const sync = useSyncRuntime();
  const [open, setOpen] = useState(false);
  const problems = status.deadLetters + status.conflicts;
  // Values typed in Submit mode wait on this device too, until submitted (any page may hold them).
  const drafts = useDraftCount(useAccount().storeId) ?? 0;
  return (
    <div className="sync-indicator">
      <div className="sync-summary" aria-label="Sync status" role="status" aria-busy={status.countsRead && status.lastSyncedRead ? undefined : true}>
        {status.online ? null : <span className="badge offline">Offline</span>}
        <span>{waitingText(status.pending, status.countsRead)}</span>
        {drafts > 0 ? <span className="drafts-count">{drafts} not submitted</span> : null}
        <span>Last synced {when(status.lastSyncedAt, status.lastSyncedRead)}</span>
        {status.initialSync ? <FirstSyncProgress {...status.initialSync} /> : null}
      </div>
      <button type="button" onClick={() => void sync.syncNow()} disabled={status.inFlight}>
        {status.inFlight ? 'Syncing...' : 'Sync now'}
      </button>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {problems ? `Sync issues (${problems})` : 'Sync details'}
      </button>
      {open ? <SyncPanel lastError={status.lastError} storagePersisted={status.storagePersisted} /> : null}
    </div>
  );
}

type FirstSync = { done: number; total: number; unit: 'rows' | 'tables' };

/** A first sync's progress in words: rows and percent when the server said how many, else tables. */
export function firstSyncText({ done, total, unit }: FirstSync): string {
  const percent = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 0;
  const counted = unit === 'rows' ? `${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows` : `${done} of ${total} tables`;
  return `Fetching data: ${counted} (${percent}%)`;
}

function FirstSyncProgress(progress: FirstSync) {
  return (
    <label className="progress">
      {firstSyncText(progress)}
      <progress value={progress.done} max={Math.max(progress.total, 1)} />
    </label>
  );
}

function storageText(persisted: boolean | null): string {
  if (persisted === null) return 'Storage on this device: not confirmed yet.';
  return persisted
    ? 'Storage on this device: kept by the browser (persistent), even when space runs short.'
    : 'Storage on this device: the browser may clear it when space runs short. Install the app, or send waiting edits promptly.';
}

function SyncPanel({ lastError, storagePersisted }: { lastError: string | null; storagePersisted: boolean | null }) {
  const device = useDevice();
  const letters = useDeadLetters() ?? [];
  const conflicts = useConflicts() ?? [];
  return (
    <section className="card sync-panel" aria-label="Sync details">
      {lastError ? <p className="notice">{lastError}</p> : null}
      <p className="storage-state">{storageText(storagePersisted)}</p>
      <h2>Refused by the server</h2>
      {letters.length === 0 ? <p>None.</p> : null}
      <ul className="refusals">
        {letters.map((letter) => (
          <li key={letter.id}>
            <p>{explainRefusal(letter)}</p>
            {/* The server's own words stay available, for support and for causes the sentence cannot name. */}
            <details>
              <summary>Server&apos;s answer</summary>
              <p>
                <code>{letter.code}</code> {letter.message}
              </p>
              <p>
                <strong>{letter.table}</strong> {letter.key}
              </p>
            </details>
            <button type="button" onClick={() => void retryDeadLetter(device, letter.id as number)}>
              Try again
            </button>
          </li>
        ))}
      </ul>
      <h2>Changed on another device too</h2>
      {conflicts.length === 0 ? <p>None.</p> : null}
      <ul>
        {conflicts.map((c) => (
          <li key={c.id}>
            <strong>{syncedFieldName(c.table, c.key, c.field)}</strong>: was {shownValue(c.old)}, other device {shownValue(c.theirs)}, this device{' '}
            {shownValue(c.ours)} (kept)
          </li>
        ))}
      </ul>
      <ActivityList />
    </section>
  );
}
