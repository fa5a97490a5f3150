/**
 * What the sync engine reads and writes on the device: pending outbox entries, the
 * confirmation of a push, refused edits moved to the dead-letter list, pulled rows
 * merged under pending edits (with the conflict log), cursors and status metadata.
 * Each operation is one Dexie transaction; in-memory state elsewhere changes only after
 * it commits.
 */
import type { AppDatabase, ConflictRecord, OutboxEntry, PullCursor, SentValues } from './app-database.ts';
import type { Row, SyncedTable } from './synced-tables.ts';
import { isSyncedTable, keyOf, keyText } from './synced-tables.ts';
import type { FieldConflict } from '../domain/conflict-rule.ts';
import { conflictsOf } from '../domain/conflict-rule.ts';

/** The outbox entries of one user, oldest first. */
export function pendingEntries(db: AppDatabase, userId: string): Promise<OutboxEntry[]> {
  return db.outbox.where('[userId+seq]').between([userId, -Infinity], [userId, Infinity]).toArray();
}

/** An outbox entry as it was sent; `base` is what its fields held before this device's edit. */
export type SentEntry = { seq: number; rev: number; changes: Row; base?: Row };

/** Conflicts found for one outbox entry, as the conflict log keeps them. */
const logged = (table: SyncedTable, key: string, found: FieldConflict[], at: number): ConflictRecord[] => found.map((conflict) => ({ table, key, ...conflict, at }));

/**
 * Notes, before a push leaves, what it sends for each entry: if its answer is lost after
 * the server wrote it, the device must still recognise those values as its own. One
 * note per revision (a resend of the same revision adds nothing).
 */
export async function noteSending(db: AppDatabase, sent: SentEntry[]): Promise<void> {
  await db.transaction('rw', db.outbox, async () => {
    const currents = await db.outbox.bulkGet(sent.map((item) => item.seq));
    const updates: Array<Promise<unknown>> = [];
    for (const [index, item] of sent.entries()) {
      const current = currents[index];
      if (!current || (current.unconfirmed ?? []).some((note) => note.rev === item.rev)) continue;
      const note: SentValues = { rev: item.rev, changes: item.changes };
      updates.push(db.outbox.update(item.seq, { unconfirmed: [...(current.unconfirmed ?? []), note] }));
    }
    await Promise.all(updates);
  });
}

/**
 * Another device's values this push has just overwritten, by the conflict rule, from the
 * row as the server held it just before the write. Two devices that pull before either
 * pushes find out only here. Only pushes before this one count as this device's own.
 */
function overwritten(table: SyncedTable, item: SentEntry, current: OutboxEntry, before: Row, now: number): ConflictRecord[] {
  const sentEarlier = (current.unconfirmed ?? []).filter((note) => note.rev < item.rev).map((note) => note.changes);
  return logged(table, current.key, conflictsOf({ ours: item.changes, replaced: item.base, sentEarlier, server: before }), now);
}

/**
 * The server confirmed these entries. An entry still at the revision that was sent is
 * done; one edited meanwhile stays queued, with the sent values as its new base (the
 * server holds them now). Values of other devices the push overwrote go into the
 * conflict log. Then the server's rows are merged in. The entries are read, deleted and
 * logged in bulk: a batch is hundreds of rows, and one IndexedDB request each was most
 * of a push's time on the device.
 */
export async function confirmPushed(db: AppDatabase, table: SyncedTable, sent: SentEntry[], serverRows: Row[], now: number, before: Array<Row | null> = []) {
  await db.transaction('rw', [db.outbox, db.conflicts, db.anyMirror(table)], async () => {
    const currents = await db.outbox.bulkGet(sent.map((item) => item.seq));
    const done: number[] = [];
    const conflicts: ConflictRecord[] = [];
    const rebased: Array<Promise<unknown>> = [];
    for (const [index, item] of sent.entries()) {
      const current = currents[index];
      if (!current) continue;
      const previous = before[index];
      if (previous) conflicts.push(...overwritten(table, item, current, previous, now));
      if (current.rev === item.rev) done.push(item.seq);
      else {
        // The server holds what this push sent: what earlier pushes sent is behind it.
        const unconfirmed = (current.unconfirmed ?? []).filter((note) => note.rev > item.rev);
        rebased.push(db.outbox.update(item.seq, { base: { ...current.base, ...item.changes }, unconfirmed }));
      }
    }
    await Promise.all([db.outbox.bulkDelete(done), db.conflicts.bulkAdd(conflicts), ...rebased]);
    await mergeServerRows(db, table, serverRows, now);
  });
}

/** The server refused these entries for good: keep them, visibly, with the reason. */
export async function moveToDeadLetter(db: AppDatabase, sent: SentEntry[], error: { code: string; message: string }, now: number) {
  await db.transaction('rw', [db.outbox, db.deadLetters], async () => {
    for (const item of sent) {
      const current = await db.outbox.get(item.seq);
      // Edited since it was sent: the newer values get their own chance.
      if (!current || current.rev !== item.rev) continue;
      await db.outbox.delete(item.seq);
      await db.deadLetters.add({
        table: current.table,
        key: current.key,
        keyValues: current.keyValues,
        changes: current.changes,
        userId: current.userId,
        code: error.code,
        message: error.message,
        createdAt: current.createdAt,
        failedAt: now,
      });
    }
  });
}

/**
 * The pending entries (of any user) for the given keys of one table, by key text. A
 * device usually has none or a few, so the table's entries are read at once; when the
 * outbox holds many more than the rows asked about (a long offline day being pushed),
 * the keys are looked up instead, all requests in flight together.
 */
async function pendingByKey(db: AppDatabase, table: SyncedTable, keys: string[]): Promise<Map<string, OutboxEntry[]>> {
  const byKey = new Map<string, OutboxEntry[]>();
  const total = await db.outbox.where('table').equals(table).count();
  if (total === 0) return byKey;
  const entries =
    total <= keys.length * 4
      ? await db.outbox.where('table').equals(table).toArray()
      : (await Promise.all(keys.map((key) => db.outbox.where('[table+key+userId]').between([table, key, ''], [table, key, '\uffff']).toArray()))).flat();
  for (const entry of entries) byKey.set(entry.key, [...(byKey.get(entry.key) ?? []), entry]);
  return byKey;
}

/**
 * Merges server rows into the mirror: the server's values, except fields with a pending
 * local edit, which stay as edited (local view = server rows + pending edits). What the
 * server's value of such a field says about another device goes by the conflict rule
 * (src/domain/conflict-rule.ts): this device's value still wins when it arrives at the
 * server, and the server's value becomes what the edit replaces.
 *
 * A page is merged in bulk (one outbox read, one bulkPut, one bulkDelete) inside the
 * caller's transaction: a first sync is thousands of rows, and live queries see the
 * page once, when the transaction commits.
 */
async function mergeServerRows(db: AppDatabase, table: SyncedTable, rows: Row[], now: number): Promise<number> {
  const placed: Array<{ row: Row; key: unknown[]; text: string }> = [];
  for (const row of rows) {
    try {
      const key = keyOf(table, row);
      placed.push({ row, key, text: keyText(key) });
    } catch {
      // A row without its key cannot be placed; the pull skips it rather than corrupt the mirror.
    }
  }
  const pending = await pendingByKey(db, table, placed.map((item) => item.text));
  // The last word per key wins, as it would row by row.
  const finalByKey = new Map<string, { put: Row } | { remove: unknown[] }>();
  const conflicts: ConflictRecord[] = [];
  const bases = new Map<number, Row>();
  for (const { row, key, text } of placed) {
    const entries = pending.get(text) ?? [];
    const merged: Row = { ...row };
    for (const entry of entries) {
      // A row met twice in one page is met the second time with the first's values as the base.
      const base = { ...(bases.get(entry.seq ?? -1) ?? entry.base) };
      const sentEarlier = (entry.unconfirmed ?? []).map((note) => note.changes);
      const server = row.deleted_at ? 'deleted' : row;
      conflicts.push(...logged(table, entry.key, conflictsOf({ ours: entry.changes, replaced: base, sentEarlier, server }), now));
      // Removed on the server: the edit cannot land anywhere visible (logged above) and keeps its base.
      if (server === 'deleted') continue;
      for (const [field, ours] of Object.entries(entry.changes)) {
        base[field] = row[field] ?? null;
        merged[field] = ours;
      }
      if (entry.seq !== undefined) bases.set(entry.seq, base);
    }
    finalByKey.set(text, row.deleted_at ? { remove: key } : { put: merged });
  }
  const puts: Row[] = [];
  const removals: unknown[][] = [];
  for (const action of finalByKey.values()) {
    if ('put' in action) puts.push(action.put);
    else removals.push(action.remove);
  }
  const mirror = db.anyMirror(table);
  await Promise.all([
    mirror.bulkDelete(removals),
    mirror.bulkPut(puts),
    db.conflicts.bulkAdd(conflicts),
    ...[...bases].map(([seq, base]) => db.outbox.update(seq, { base })),
  ]);
  return placed.length;
}

export async function applyPulledRows(db: AppDatabase, table: SyncedTable, rows: Row[], now: number): Promise<number> {
  return db.transaction('rw', [db.outbox, db.conflicts, db.anyMirror(table)], () => mergeServerRows(db, table, rows, now));
}

/** Pulled rows and the cursor that follows them, in one transaction: a crash re-pulls, never skips. */
export async function applyPullPage(db: AppDatabase, table: SyncedTable, rows: Row[], cursor: PullCursor, now: number) {
  const [applied] = await applyPullPages(db, [{ table, rows, cursor }], now);
  return applied ?? 0;
}

export type PulledPage = { table: SyncedTable; rows: Row[]; cursor: PullCursor };

/**
 * Several pulled pages, each with the cursor that follows it, in one transaction (a
 * multi-table answer): a crash re-pulls them all, never skips; and live queries see the
 * answer once, not once per page. Returns the rows applied per page.
 */
export async function applyPullPages(db: AppDatabase, pages: readonly PulledPage[], now: number): Promise<number[]> {
  const tables = [...new Set(pages.map((page) => page.table))];
  return db.transaction('rw', [db.outbox, db.conflicts, db.cursors, ...tables.map((table) => db.anyMirror(table))], async () => {
    const applied: number[] = [];
    for (const page of pages) {
      applied.push(await mergeServerRows(db, page.table, page.rows, now));
      await db.cursors.put(page.cursor);
    }
    return applied;
  });
}

export function readCursor(db: AppDatabase, table: SyncedTable): Promise<PullCursor | undefined> {
  return db.cursors.get(table);
}

/** Several tables' cursors in one request, in the order asked. */
export function readCursors(db: AppDatabase, tables: readonly SyncedTable[]): Promise<Array<PullCursor | undefined>> {
  return db.cursors.bulkGet([...tables]);
}

export async function readMeta<T>(db: AppDatabase, key: string): Promise<T | undefined> {
  return (await db.meta.get(key))?.value as T | undefined;
}

export async function writeMeta(db: AppDatabase, key: string, value: unknown): Promise<void> {
  await db.meta.put({ key, value });
}

/** Rewrites a stored value from what is stored, in one transaction, so nothing stored meanwhile is lost. */
export async function updateMeta<T>(db: AppDatabase, key: string, change: (stored: T | undefined) => T): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    await db.meta.put({ key, value: change((await db.meta.get(key))?.value as T | undefined) });
  });
}

export async function syncCounts(db: AppDatabase) {
  const [pending, deadLetters, conflicts] = await Promise.all([db.outbox.count(), db.deadLetters.count(), db.conflicts.count()]);
  return { pending, deadLetters, conflicts };
}

/** Everything not yet on the server, as a file a person can keep (before a sign-out that discards it). */
export async function exportUnsynced(db: AppDatabase) {
  const [outbox, deadLetters] = await Promise.all([db.outbox.toArray(), db.deadLetters.toArray()]);
  return { exportedAt: new Date().toISOString(), pending: outbox, refused: deadLetters };
}

export { isSyncedTable };
