/**
 * The rows of the months on screen and of the months beside them, kept in memory and
 * current through live queries. A month switch finds the next month already read, so it
 * draws once, at once, instead of drawing the old month under the new title and then
 * waiting for the device database. A month stays watched for a moment after its last
 * screen lets go, so a switch (which lets go of the old months before taking the new
 * ones) keeps what both share.
 */
import { liveQuery } from 'dexie';
import type { AppDatabase } from '../app-database.ts';
import type { MonthKey } from '../../domain/month.ts';

type Entry<T> = { storeId: string; month: MonthKey; value: T | undefined; error: unknown; watchers: number; stop: () => void };

/** How long a month nobody watches is still kept current. */
const keepUnwatchedMs = 2_000;

export class LiveMonths<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly read: (storeId: string, month: MonthKey) => Promise<T>) {}

  /** Keeps the month current until the returned function is called. */
  watch(storeId: string, month: MonthKey): () => void {
    const key = `${storeId}|${month}`;
    let entry = this.entries.get(key);
    if (!entry) {
      const created: Entry<T> = { storeId, month, value: undefined, error: null, watchers: 0, stop: () => undefined };
      const subscription = liveQuery(() => this.read(storeId, month)).subscribe({
        next: (value) => {
          created.value = value;
          created.error = null;
          this.changed();
        },
        error: (error: unknown) => {
          created.error = error;
          this.changed();
        },
      });
      created.stop = () => subscription.unsubscribe();
      this.entries.set(key, created);
      entry = created;
    }
    const watched = entry;
    watched.watchers += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      watched.watchers -= 1;
      if (watched.watchers > 0) return;
      setTimeout(() => {
        if (watched.watchers > 0 || this.entries.get(key) !== watched) return;
        watched.stop();
        this.entries.delete(key);
      }, keepUnwatchedMs);
    };
  }

  /**
   * Starts reading the month now if nobody does, kept for a moment unless watched: a
   * screen calls it while it draws, so the read does not wait for the screen's effects.
   */
  prefetch(storeId: string, month: MonthKey): void {
    if (!this.entries.has(`${storeId}|${month}`)) this.watch(storeId, month)();
  }

  /** The month's rows; undefined until first read. Throws what reading them threw. */
  get(storeId: string, month: MonthKey): T | undefined {
    const entry = this.entries.get(`${storeId}|${month}`);
    if (entry?.error) throw entry.error;
    return entry?.value;
  }

  /**
   * Replaces the kept value of the store's months that `change` answers for, until their
   * next read; returns a function that puts back those not read again since.
   */
  patch(storeId: string, change: (month: MonthKey, value: T) => T | null): () => void {
    const patched: Array<{ entry: Entry<T>; before: T; after: T }> = [];
    for (const entry of this.entries.values()) {
      if (entry.storeId !== storeId || entry.value === undefined) continue;
      const after = change(entry.month, entry.value);
      if (after === null) continue;
      patched.push({ entry, before: entry.value, after });
      entry.value = after;
    }
    if (patched.length > 0) this.changed();
    return () => {
      const restored = patched.filter(({ entry, after }) => entry.value === after);
      for (const { entry, before } of restored) entry.value = before;
      if (restored.length > 0) this.changed();
    };
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

const byDatabase = new WeakMap<AppDatabase, Map<string, LiveMonths<unknown>>>();

/** One set of live months per device database and kind of read. */
export function liveMonthsOf<T>(db: AppDatabase, kind: string, read: (storeId: string, month: MonthKey) => Promise<T>): LiveMonths<T> {
  let kinds = byDatabase.get(db);
  if (!kinds) byDatabase.set(db, (kinds = new Map()));
  let live = kinds.get(kind) as LiveMonths<T> | undefined;
  if (!live) kinds.set(kind, (live = new LiveMonths(read) as LiveMonths<unknown> as LiveMonths<T>));
  return live;
}
