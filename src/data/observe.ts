/**
 * Live views of the device database for code outside React (the sync runtime, the
 * service worker glue): Dexie liveQuery, which also sees writes made by other tabs.
 */
import { liveQuery } from 'dexie';
import type { AppDatabase } from './app-database.ts';
import { readMeta, syncCounts } from './sync-store.ts';

export type Unsubscribe = () => void;

export type SyncCounts = Awaited<ReturnType<typeof syncCounts>>;

export function observeSyncCounts(db: AppDatabase, onChange: (counts: SyncCounts) => void): Unsubscribe {
  const subscription = liveQuery(() => syncCounts(db)).subscribe({ next: onChange, error: () => undefined });
  return () => subscription.unsubscribe();
}

export function observeMeta<T>(db: AppDatabase, key: string, onChange: (value: T | undefined) => void): Unsubscribe {
  const subscription = liveQuery(() => readMeta<T>(db, key)).subscribe({ next: onChange, error: () => undefined });
  return () => subscription.unsubscribe();
}

/** The stored sign-in session as text (null when signed out), as it changes in any tab. */
export function observeStoredSession(db: AppDatabase, key: string, onChange: (value: string | null) => void): Unsubscribe {
  const subscription = liveQuery(async () => (await db.authStorage.get(key))?.value ?? null).subscribe({ next: onChange, error: () => undefined });
  return () => subscription.unsubscribe();
}
