/**
 * Where the Supabase session lives on the device: IndexedDB rather than localStorage,
 * so the app starts signed in with no network and the service worker (which has no
 * localStorage) can read the token to push queued edits.
 */
import type { AppDatabase } from './app-database.ts';

export type AsyncStorage = {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
};

export function createAuthStorage(db: AppDatabase): AsyncStorage {
  return {
    async getItem(key) {
      return (await db.authStorage.get(key))?.value ?? null;
    },
    async setItem(key, value) {
      await db.authStorage.put({ key, value });
    },
    async removeItem(key) {
      await db.authStorage.delete(key);
    },
  };
}
