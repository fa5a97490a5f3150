/**
 * Local edits: each write puts the row into the device's mirror and records the change
 * in the outbox in one Dexie transaction, so an edit is either saved and queued or not
 * saved at all. Repeated edits of one row before a push coalesce into one outbox entry
 * that keeps the newest values and the values they replaced. A row that breaks a field
 * limit is refused before anything is written, whichever screen sent it.
 */
import type { FieldProblem } from '../domain/field-rules.ts';
import { rowProblem } from '../domain/field-rules.ts';
import type { AppDatabase, OutboxEntry } from './app-database.ts';
import type { Row, SyncedTable } from './synced-tables.ts';
import { keyOf, keyText, syncedTables } from './synced-tables.ts';
import { isQuotaError } from './storage-health.ts';
import { sameValue } from './values.ts';

export type WriteContext = { userId: string; now: number };

/** A row to save: its natural key columns plus the fields to set. */
export type RowWrite = { table: SyncedTable; row: Row };

/**
 * Two round trips to IndexedDB per edit rather than four: the stored row and its
 * pending entry are read together, then the row and the outbox are written together.
 * A keystroke's save is on the screen's critical path.
 */
async function writeOne(db: AppDatabase, { table, row }: RowWrite, ctx: WriteContext): Promise<boolean> {
  const key = keyOf(table, row);
  const mirror = db.mirror(table);
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
  let queued: Promise<unknown>;
  if (pending?.seq !== undefined) {
    const base = { ...pending.base };
    for (const field of changed) if (!(field in pending.changes)) base[field] = existing?.[field] ?? null;
    queued = db.outbox.update(pending.seq, {
      changes: { ...pending.changes, ...changes },
      base,
      rev: pending.rev + 1,
      updatedAt: ctx.now,
    });
  } else {
    const entry: OutboxEntry = {
      table,
      key: text,
      keyValues,
      changes,
      base: Object.fromEntries(changed.map((field) => [field, existing?.[field] ?? null])),
      userId: ctx.userId,
      rev: 1,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    queued = db.outbox.add(entry);
  }
  await Promise.all([mirror.put({ ...(existing ?? {}), ...row }), queued]);
  return true;
}

/**
 * Saves rows locally and queues them for the server, all in one transaction (a
 * screen's "Submit" is one unit). Returns how many rows actually changed.
 */
export async function saveRows(db: AppDatabase, writes: RowWrite[], ctx: WriteContext): Promise<number> {
  // The server would refuse it (the same limits are its CHECK constraints): better never queued.
  for (const { table, row } of writes) {
    const problem = rowProblem(table, row);
    if (problem) throw new FieldLimitError(problem);
  }
  const tables = [...new Set(writes.map((w) => w.table))].map((t) => db.mirror(t));
  try {
    return await db.transaction('rw', [...tables, db.outbox], async () => {
      let count = 0;
      for (const write of writes) if (await writeOne(db, write, ctx)) count += 1;
      return count;
    });
  } catch (error) {
    if (isQuotaError(error)) throw new StorageFullError();
    throw error;
  }
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
