import { useState } from 'react';
import { downloadText } from '../../ui/download.ts';
import { useSyncRuntime, useSyncStatus } from '../session/session-context.tsx';

function fileName(): string {
  return `unsynced-edits-${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}.json`;
}

/** "Export waiting edits": the edits not yet on the server, as a file the person keeps. */
export function ExportWaitingEditsButton() {
  const sync = useSyncRuntime();
  const [busy, setBusy] = useState(false);
  async function exportEdits() {
    setBusy(true);
    try {
      downloadText(fileName(), await sync.unsyncedEditsText(), 'application/json');
    } finally {
      setBusy(false);
    }
  }
  return (
    <button type="button" onClick={() => void exportEdits()} disabled={busy}>
      Export waiting edits
    </button>
  );
}

/**
 * On the login page: edits typed on this device are still waiting (their person's
 * session ended, or someone signed out of a device that could not send them). They go
 * to the server only under the account that typed them.
 */
export function WaitingEditsNotice() {
  const status = useSyncStatus();
  const waiting = status.pending + status.deadLetters;
  if (waiting === 0) return null;
  return (
    <section className="card notice waiting-edits" role="alert" aria-label="Edits waiting on this device">
      <p>
        {waiting === 1 ? '1 edit' : `${waiting} edits`} typed on this device {waiting === 1 ? 'is' : 'are'} not on the server yet. Sign in as
        the person who typed them to send them, or export them to keep a copy.
      </p>
      <ExportWaitingEditsButton />
    </section>
  );
}

/**
 * In every signed-in screen: the server no longer accepts this session (the account was
 * disabled or removed, or the session revoked). Nothing is sent; the person signs in
 * again, or keeps a copy of what waits.
 */
export function SessionEndedNotice() {
  const status = useSyncStatus();
  const sync = useSyncRuntime();
  if (status.state !== 'signed-out') return null;
  return (
    <section className="card notice session-ended" role="alert" aria-label="Session ended">
      <p>
        Your session has ended. Sign in again to send the {status.pending === 1 ? 'edit' : `${status.pending} edits`} waiting on this device;
        they stay here until then.
      </p>
      <button type="button" className="primary" onClick={() => void sync.endSession()}>
        Sign in again
      </button>
      <ExportWaitingEditsButton />
    </section>
  );
}
