/**
 * The sync status every tab shows: the leader's report (published through the device
 * database, so tabs that do not lead see it too), the counts of pending, refused and
 * conflicting edits, and whether the browser is online. Plain zustand store, no React.
 */
import { createStore } from 'zustand/vanilla';
import type { SyncReport } from './engine.ts';

export type SyncStatus = Omit<SyncReport, 'leader'> & {
  /** Whether this tab runs the engine. */
  leader: boolean;
  online: boolean;
  inFlight: boolean;
  pending: number;
  deadLetters: number;
  conflicts: number;
  /**
   * Whether the counts above were read from the device yet: until then they are not
   * known, and the indicator shows none (a "0 edits waiting" before the first read
   * would be false whenever edits wait).
   */
  countsRead: boolean;
  /** Whether the device's last sync report was read yet: until then "Last synced" is not known either. */
  lastSyncedRead: boolean;
  /** The browser's answer to navigator.storage.persist(): null until it answered. */
  storagePersisted: boolean | null;
};

export const initialSyncStatus: SyncStatus = {
  state: 'idle',
  leader: false,
  lastSyncedAt: null,
  lastError: null,
  nextAttemptAt: null,
  initialSync: null,
  online: true,
  inFlight: false,
  pending: 0,
  deadLetters: 0,
  conflicts: 0,
  countsRead: false,
  lastSyncedRead: false,
  storagePersisted: null,
};

export function createSyncStatusStore(online: boolean) {
  return createStore<SyncStatus>(() => ({ ...initialSyncStatus, online }));
}

export type SyncStatusStore = ReturnType<typeof createSyncStatusStore>;
