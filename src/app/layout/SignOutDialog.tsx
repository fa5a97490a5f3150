import { useState } from 'react';
import { useDevice } from '../../data/device-context.tsx';
import { useSyncRuntime } from '../../features/session/session-context.tsx';
import { ModalDialog } from '../../ui/ModalDialog.tsx';
import { exportUnsyncedFile } from './export-unsynced.ts';

/**
 * Signs out, unless edits have not reached the server yet: then it says how many and
 * lets the person sync now, save them to a file, or discard them. Nothing is dropped
 * without that choice.
 */
export function useGuardedSignOut() {
  const sync = useSyncRuntime();
  const [unsynced, setUnsynced] = useState<number | null>(null);
  return {
    unsynced,
    dismiss: () => setUnsynced(null),
    async signOut(discardUnsynced = false) {
      const outcome = await sync.signOut({ discardUnsynced });
      setUnsynced(outcome.signedOut ? null : outcome.unsynced);
    },
  };
}

export function SignOutDialog({ count, onClose, onDiscard }: { count: number; onClose: () => void; onDiscard: () => void }) {
  const sync = useSyncRuntime();
  const { db } = useDevice();
  const [message, setMessage] = useState<string | null>(null);
  return (
    <ModalDialog title="Edits not sent yet" onClose={onClose}>
      <p>
        {count === 1 ? '1 edit on this device has' : `${count} edits on this device have`} not reached the server. Signing out clears
        this device.
      </p>
      {message ? <p role="status">{message}</p> : null}
      <div className="actions">
        <button
          type="button"
          className="primary"
          onClick={async () => {
            const result = await sync.syncNow();
            setMessage(result.ok ? 'Synced. You can sign out now.' : `Could not sync: ${result.message}`);
            if (result.ok) onClose();
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
