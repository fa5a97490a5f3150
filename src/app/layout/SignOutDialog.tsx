import { useState } from 'react';
import { useDevice } from '../../data/device-context.tsx';
import { countAllDrafts, useDeviceDraftCount } from '../../data/repositories/submit-drafts.ts';
import { useSyncRuntime } from '../../features/session/session-context.tsx';
import { ModalDialog } from '../../ui/ModalDialog.tsx';
import { exportUnsyncedFile } from './export-unsynced.ts';

/**
 * Signs out, unless edits have not reached the server yet, or values typed in Submit mode
 * were not submitted (signing out deletes them with the device's data): then it says how
 * many and lets the person sync now, save the edits to a file, or discard them. Nothing is
 * dropped without that choice. `unsynced` counts the edits alone; the dialog counts the
 * values not submitted itself.
 */
export function useGuardedSignOut() {
  const sync = useSyncRuntime();
  const { db } = useDevice();
  const [unsynced, setUnsynced] = useState<number | null>(null);
  return {
    unsynced,
    dismiss: () => setUnsynced(null),
    async signOut(discardUnsynced = false) {
      const outcome = await sync.signOut({ discardUnsynced });
      setUnsynced(outcome.signedOut ? null : Math.max(outcome.unsynced - (await countAllDrafts(db)), 0));
    },
  };
}

export function SignOutDialog({ count, onClose, onDiscard }: { count: number; onClose: () => void; onDiscard: () => void }) {
  const sync = useSyncRuntime();
  const { db } = useDevice();
  const [message, setMessage] = useState<string | null>(null);
  const drafts = useDeviceDraftCount() ?? 0;
  return (
    <ModalDialog title="Edits not sent yet" onClose={onClose}>
      {count > 0 ? (
        <p>
          {count === 1 ? '1 edit on this device has' : `${count} edits on this device have`} not reached the server. Signing out clears
          this device.
        </p>
      ) : null}
      {drafts > 0 ? (
        <p>
          {drafts === 1 ? '1 value' : `${drafts} values`} typed on this device {drafts === 1 ? 'was' : 'were'} not submitted (Submit Data).
          Signing out deletes {drafts === 1 ? 'it' : 'them'}.
        </p>
      ) : null}
      {message ? <p role="status">{message}</p> : null}
      <div className="actions">
        <button
          type="button"
          className="primary"
          onClick={async () => {
            const result = await sync.syncNow();
            // Syncing sends edits, not values waiting for "Submit Data": those still need a choice.
            setMessage(result.ok ? (drafts > 0 ? 'Synced. Values not submitted are still on this device.' : 'Synced. You can sign out now.') : `Could not sync: ${result.message}`);
            if (result.ok && drafts === 0) onClose();
          }}
        >
          Sync now
        </button>
        <button type="button" onClick={() => void exportUnsyncedFile(db).then(() => setMessage('Saved to a file.'))}>
          Export as a file
        </button>
        <button type="button" className="danger" onClick={onDiscard}>
          Discard and sign out
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </ModalDialog>
  );
}
