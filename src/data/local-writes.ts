/**
 * Local edits: each write puts the row into the device's mirror and records the change
 * in the outbox in one Dexie transaction, so an edit is either saved and queued or not
 * saved at all. Repeated edits of one row before a push coalesce into one outbox entry
 * that keeps the newest values and the values they replaced; a field edited back to the
 * value it replaced has nothing left to send. A row that breaks a field limit is refused
 * before anything is written, whichever screen sent it. A save is noted first so that a
 * page closed a moment later still keeps it (unsaved-writes.ts).
 */
import type { FieldProblem } from '../domain/field-rules.ts';
import { rowProblem } from '../domain/field-rules.ts';
import type { AppDatabase, OutboxEntry } from './app-database.ts';
import type { Row, SyncedTable } from './synced-tables.ts';
import { keyOf, keyText, syncedTables } from './synced-tables.ts';
import { isQuotaError } from './storage-health.ts';
import { sameValue } from '../domain/conflict-rule.ts';
import { forgetUnsavedWrite, holdingThePage, noteUnsavedWrite, unsavedWrites } from './unsaved-writes.ts';

export type WriteContext = { userId: string; now: number };

/**
 * A row to save: its natural key columns plus the fields to set. `seen`: what the person
 * saw in those fields when they started the edit, which becomes the edit's base (the value
 * it replaced); a value another device stored meanwhile is then found and logged as a
 * conflict when the edit meets it, instead of being overwritten unnoticed.
 */
export type RowWrite = { table: SyncedTable; row: Row; seen?: Row; source?: string };

/**
 * Two round trips to IndexedDB per edit rather than four: the stored row and its
 * pending entry are read together, then the row and the outbox are written together.
 * A keystroke's save is on the screen's critical path.
 */
async function writeOne(db: AppDatabase, { table, row, seen, source }: RowWrite, ctx: WriteContext): Promise<boolean> {
  const key = keyOf(table, row);
  const mirror = db.anyMirror(table);
  const text = keyText(key);
  const [existing, pending] = await Promise.all([
    mirror.get(key),
    db.outbox.where('[table+key+userId]').equals([table, text, ctx.userId]).first(),
  ]);
  const keyColumns = syncedTables[table].key as readonly string[];
  const changed = Object.keys(row).filter(
    (field) => !keyColumns.includes(field) && (!existing || !sameValue(existing[field], row[field])),
  );
  if (existing && changed.length === 0) return false;

  const keyValues = Object.fromEntries(keyColumns.map((column) => [column, row[column]]));
  const changes: Row = Object.fromEntries(changed.map((field) => [field, row[field]]));
  const replaced = (field: string) => (seen && field in seen ? seen[field] : existing?.[field]) ?? null;
  let queued: Promise<unknown>;
  if (pending?.seq !== undefined) {
    const base = { ...pending.base };
    for (const field of changed) if (!(field in pending.changes)) base[field] = replaced(field);
    const merged = { ...pending.changes, ...changes };
    // Typed back to the value it replaced (Escape, or a refused entry): nothing to send,
    // unless a push of it may already have reached the server (its answer never came).
    const sentBefore = (field: string) => (pending.unconfirmed ?? []).some((note) => field in note.changes);
    for (const field of changed) {
      if (sameValue(merged[field], base[field]) && !sentBefore(field)) {
        delete merged[field];
        delete base[field];
      }
    }
    queued =
      Object.keys(merged).length === 0
        ? db.outbox.delete(pending.seq)
        : // The newest edit says where the entry's values came from; undefined removes an import's source.
          db.outbox.update(pending.seq, { changes: merged, base, rev: pending.rev + 1, updatedAt: ctx.now, source });
  } else {
    const entry: OutboxEntry = {
      table,
      key: text,
      keyValues,
      changes,
      base: Object.fromEntries(changed.map((field) => [field, replaced(field)])),
      userId: ctx.userId,
      rev: 1,
      createdAt: ctx.now,
      updatedAt: ctx.now,
      ...(source ? { source } : {}),
    };
    queued = db.outbox.add(entry);
  }
  await Promise.all([mirror.put({ ...(existing ?? {}), ...row }), queued]);
  return true;
}

function refusal(writes: RowWrite[]): FieldProblem | null {
  for (const { table, row } of writes) {
    const problem = rowProblem(table, row);
    if (problem) return problem;
  }
  return null;
}

/** The save's transaction; its note goes once it has committed, or failed (the person is told then). */
async function applyWrites(db: AppDatabase, writes: RowWrite[], ctx: WriteContext, note: string | null): Promise<number> {
  const tables = [...new Set(writes.map((w) => w.table))].map((t) => db.anyMirror(t));
  try {
    return await db.transaction('rw', [...tables, db.outbox], async () => {
      let count = 0;
      for (const write of writes) if (await writeOne(db, write, ctx)) count += 1;
      return count;
    });
  } catch (error) {
    if (isQuotaError(error)) throw new StorageFullError();
    throw error;
  } finally {
    forgetUnsavedWrite(note);
  }
}

/**
 * Saves rows locally and queues them for the server, all in one transaction (a
 * screen's "Submit" is one unit). Returns how many rows actually changed. Everything up
 * to the start of the transaction happens in the caller's event (a keystroke's).
 */
export function saveRows(db: AppDatabase, writes: RowWrite[], ctx: WriteContext): Promise<number> {
  // The server would refuse it (the same limits are its CHECK constraints): better never queued.
  const problem = refusal(writes);
  if (problem) return Promise.reject(new FieldLimitError(problem));
  const note = noteUnsavedWrite({ writes, ctx });
  return holdingThePage(applyWrites(db, writes, ctx, note));
}

/**
 * Applies the saves a closed page noted and may never have committed, oldest first (so
 * the last value typed is the one kept; one that did commit is written again, the same).
 * Returns how many were applied. `notes`: the notes' IndexedDB, for tests.
 */
export async function replayUnsavedWrites(db: AppDatabase, notes?: IDBFactory): Promise<number> {
  let applied = 0;
  for (const { key, save } of await unsavedWrites<{ writes: RowWrite[]; ctx: WriteContext }>(notes)) {
    if (refusal(save.writes)) {
      forgetUnsavedWrite(key);
      continue;
    }
    await applyWrites(db, save.writes, save.ctx, key);
    applied += 1;
  }
  return applied;
}

/** The device has no room left: the edit was not saved, and the person must be told. */
export class StorageFullError extends Error {
  constructor() {
    super('This device is out of storage space, so the change was not saved. Free up space, then try again.');
  }
}

/** An edit breaks a field limit (src/domain/limits.ts): nothing of the save was written or queued. */
export class FieldLimitError extends Error {
  constructor(readonly problem: FieldProblem) {
    super(problem.message);
  }
}
