/**
 * A save survives the page closing a moment after it was asked for.
 *
 * A save is a Dexie transaction that reads the stored row and its outbox entry, then
 * writes both: it needs the page alive for a few milliseconds after the keystroke, and
 * longer when keystrokes queue up behind one another, so a page closed (or an app swiped
 * away) meanwhile took the last values with it. So, in the same event, before that
 * transaction starts, the save is noted with a single put in a transaction of its own,
 * committed at once, in a small database of its own that nothing else reads or writes:
 * no transaction there ever waits for the page, and the browser finishes it without the
 * page. The note is deleted once the save has committed; the next start applies the notes
 * left (saves that never committed), oldest first, which ends on the last value typed.
 * Notes of a page still open (another tab, its saves in flight) are left to it: each
 * page holds a Web Lock named after it for as long as it lives.
 *
 * While a save has not committed, closing the page asks first (beforeunload), so the
 * person can stay until it is stored.
 */
/**
 * A noted save: its writes and their context, as local-writes.ts gives them, kept as a
 * structured clone. Only their time is read here (to order the notes); this module knows
 * nothing else of them, so that local-writes.ts alone depends on the other.
 */
export type UnsavedWrite = { writes: readonly unknown[]; ctx: { now: number } };
type Note = { key: string; page: string; save: UnsavedWrite };

const notesDatabase = 'service-dashboard-unsaved-saves';
const lockPrefix = 'unsaved-saves-page:';
const page = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
let connection: IDBDatabase | null = null;
let opening: Promise<IDBDatabase | null> | null = null;
let noted = 0;
let uncommitted = 0;

type Locks = {
  request(name: string, callback: () => Promise<void>): Promise<void>;
  query(): Promise<{ held?: Array<{ name?: string }> }>;
};
const locks = (): Locks | undefined => (globalThis.navigator as { locks?: Locks } | undefined)?.locks;

/** Opens the notes' database (once); null where there is no IndexedDB. Saves are noted once it is open. */
export function openSaveNotes(factory: IDBFactory | undefined = globalThis.indexedDB): Promise<IDBDatabase | null> {
  if (opening) return opening;
  if (!factory) return Promise.resolve(null);
  opening = new Promise((resolve) => {
    // This page's notes are its own while it lives.
    void locks()?.request(`${lockPrefix}${page}`, () => new Promise<void>(() => undefined)).catch(() => undefined);
    const request = factory.open(notesDatabase, 1);
    request.onupgradeneeded = () => request.result.createObjectStore('notes', { keyPath: 'key' });
    request.onsuccess = () => {
      connection = request.result;
      // Deleted or upgraded elsewhere: step aside; saves go on without notes.
      connection.onversionchange = () => {
        connection?.close();
        connection = null;
      };
      resolve(connection);
    };
    request.onerror = () => resolve(null);
  });
  return opening;
}

/** One request in a transaction committed at once: the browser finishes it without the page. */
function writeNotes(change: (notes: IDBObjectStore) => void): boolean {
  if (!connection) return false;
  try {
    const transaction = connection.transaction('notes', 'readwrite');
    change(transaction.objectStore('notes'));
    transaction.commit?.();
    return true;
  } catch {
    return false;
  }
}

/**
 * Notes a save about to start; returns the note's key, or null when it cannot be noted
 * (the notes' database not open yet, or no room: the save itself then says so).
 */
export function noteUnsavedWrite(save: UnsavedWrite): string | null {
  if (!connection) {
    void openSaveNotes();
    return null;
  }
  noted += 1;
  const key = `${String(save.ctx.now).padStart(15, '0')}:${page}:${String(noted).padStart(9, '0')}`;
  return writeNotes((notes) => notes.put({ key, page, save } satisfies Note)) ? key : null;
}

/** The save committed (or failed, and the person was told): its note goes. */
export function forgetUnsavedWrite(key: string | null): void {
  if (key) writeNotes((notes) => notes.delete(key));
}

/**
 * Every note goes (signing out and clearing the device): a save noted before the device
 * was cleared must not come back at the next start, nor under the next person's session.
 */
export async function forgetAllUnsavedWrites(factory?: IDBFactory): Promise<void> {
  const db = await openSaveNotes(factory);
  if (!db) return;
  await new Promise<void>((resolve) => {
    const transaction = db.transaction('notes', 'readwrite');
    transaction.objectStore('notes').clear();
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => resolve();
    transaction.onabort = () => resolve();
  });
}

/** Counts a save from its start to its commit (or failure), for the closing page's question. */
export async function holdingThePage<T>(save: Promise<T>): Promise<T> {
  uncommitted += 1;
  try {
    return await save;
  } finally {
    uncommitted -= 1;
  }
}

/**
 * Asks before the page closes while a save has not committed (the browser shows its own
 * "Leave site?" question). Returns the function that stops asking.
 */
export function guardClosingPage(target: Pick<Window, 'addEventListener' | 'removeEventListener'> | undefined = globalThis.window): () => void {
  if (!target) return () => undefined;
  const ask = (event: BeforeUnloadEvent) => {
    if (uncommitted === 0) return;
    event.preventDefault();
    // Older browsers ask only when returnValue is set.
    event.returnValue = '';
  };
  target.addEventListener('beforeunload', ask);
  return () => target.removeEventListener('beforeunload', ask);
}

/** The saves noted by pages no longer open and never committed, oldest first. */
export async function unsavedWrites<Save extends UnsavedWrite = UnsavedWrite>(factory?: IDBFactory): Promise<Array<{ key: string; save: Save }>> {
  const db = await openSaveNotes(factory);
  if (!db) return [];
  const all = await new Promise<Note[]>((resolve, reject) => {
    const request = db.transaction('notes', 'readonly').objectStore('notes').getAll();
    request.onsuccess = () => resolve(request.result as Note[]);
    request.onerror = () => reject(request.error);
  });
  const held = new Set(((await locks()?.query())?.held ?? []).map((lock) => lock.name));
  return all
    .filter((note) => !held.has(`${lockPrefix}${note.page}`))
    .sort((a, b) => (a.key < b.key ? -1 : 1))
    // Notes are written by noteUnsavedWrite alone, with the saves local-writes.ts makes.
    .map((note) => ({ key: note.key, save: note.save as Save }));
}

// A page opens the notes' database as it loads, so that even its first keystroke is noted
// (a save asked for before it is open goes un-noted). Not in the service worker, which saves nothing.
if (globalThis.document && globalThis.indexedDB) void openSaveNotes();
