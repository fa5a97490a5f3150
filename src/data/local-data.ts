/**
 * Clearing the device's data on sign-out, guarded: unsynced edits (outbox and refused
 * edits, and values typed in Submit mode but not submitted) are never discarded silently. Callers first ask what is unsynced, let the person
 * choose (sync now, export as a file, or discard), then clear.
 */
import type { AppDatabase } from './app-database.ts';
import { syncedTableNames } from './synced-tables.ts';
import { forgetAllUnsavedWrites } from './unsaved-writes.ts';

export async function unsyncedCount(db: AppDatabase): Promise<number> {
  const [pending, refused, drafts] = await Promise.all([db.outbox.count(), db.deadLetters.count(), db.submitDrafts.count()]);
  return pending + refused + drafts;
}

export class UnsyncedEditsError extends Error {
  constructor(readonly count: number) {
    super(`${count} edit(s) on this device have not reached the server.`);
  }
}

/**
 * Deletes every local row, cursor, log and the stored session. Refuses while unsynced
 * edits remain unless the person chose to discard them (`discardUnsynced`).
 */
export async function clearLocalData(db: AppDatabase, options: { discardUnsynced: boolean }): Promise<void> {
  const tables = [...syncedTableNames.map((t) => db.anyMirror(t)), db.outbox, db.deadLetters, db.conflicts, db.cursors, db.meta, db.authStorage, db.submitDrafts];
  await db.transaction('rw', tables, async () => {
    const unsynced = (await db.outbox.count()) + (await db.deadLetters.count()) + (await db.submitDrafts.count());
    if (unsynced > 0 && !options.discardUnsynced) throw new UnsyncedEditsError(unsynced);
    await Promise.all(tables.map((table) => table.clear()));
  });
  // Saves noted but never committed belonged to the edits just cleared (see unsaved-writes.ts).
  await forgetAllUnsavedWrites();
}
