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

/** What one write does to its row and its outbox entry; null when it changes nothing. */
type Planned = {
  row: Row;
  /** The row's outbox entry after the write; null when nothing is left to send (the entry goes). */
  entry: OutboxEntry | null;
};

/**
 * The rule of one write, given the stored row and this user's pending entry for it: the
 * fields that differ from the stored row are the change; a pending entry takes them in
 * (its base keeps what each field held before this device first changed it), and a field
 * typed back to that base leaves it. Both the single edit and a batch apply it.
 */
function plan({ table, row, seen, source }: RowWrite, text: string, existing: Row | undefined, pending: OutboxEntry | undefined, ctx: WriteContext): Planned | null {
  const keyColumns = syncedTables[table].key as readonly string[];
  const changed = Object.keys(row).filter(
    (field) => !keyColumns.includes(field) && (!existing || !sameValue(existing[field], row[field])),
  );
  if (existing && changed.length === 0) return null;

  const keyValues = Object.fromEntries(keyColumns.map((column) => [column, row[column]]));
  const changes: Row = Object.fromEntries(changed.map((field) => [field, row[field]]));
  const replaced = (field: string) => (seen && field in seen ? seen[field] : existing?.[field]) ?? null;
  const next = { ...(existing ?? {}), ...row };
  if (pending) {
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
    if (Object.keys(merged).length === 0) return { row: next, entry: null };
    // The newest edit says where the entry's values came from: a typed edit has no source.
    const { source: _previous, ...rest } = pending;
    return { row: next, entry: { ...rest, changes: merged, base, rev: pending.rev + 1, updatedAt: ctx.now, ...(source ? { source } : {}) } };
  }
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
  return { row: next, entry };
}

/**
 * Two round trips to IndexedDB per edit rather than four: the stored row and its
 * pending entry are read together, then the row and the outbox are written together.
 * A keystroke's save is on the screen's critical path.
 */
async function writeOne(db: AppDatabase, write: RowWrite, ctx: WriteContext): Promise<boolean> {
  const key = keyOf(write.table, write.row);
  const mirror = db.anyMirror(write.table);
  const text = keyText(key);
  const [existing, pending] = await Promise.all([
    mirror.get(key),
    db.outbox.where('[table+key+userId]').equals([write.table, text, ctx.userId]).first(),
  ]);
  const planned = plan(write, text, existing, pending, ctx);
  if (!planned) return false;
  const { entry } = planned;
  let queued: Promise<unknown>;
  if (pending?.seq === undefined) queued = entry ? db.outbox.add(entry) : Promise.resolve();
  else if (!entry) queued = db.outbox.delete(pending.seq);
  // Undefined removes an earlier import's source.
  else queued = db.outbox.update(pending.seq, { changes: entry.changes, base: entry.base, rev: entry.rev, updatedAt: entry.updatedAt, source: entry.source });
  await Promise.all([mirror.put(planned.row), queued]);
  return true;
}

/**
 * A batch (a submission, an import) read and written in bulk: every stored row and pending
 * entry it touches in a request per table, each write planned in order in memory (a row
 * written twice sees its first write), then the rows and entries written back in a
 * request or two each. The same outcome as writing them one by one, in a handful of
 * requests instead of two per write: a year of imported days is 2,190 writes.
 */
async function writeMany(db: AppDatabase, writes: readonly RowWrite[], ctx: WriteContext): Promise<number> {
  const items = writes.map((write) => {
    const key = keyOf(write.table, write.row);
    const text = keyText(key);
    return { write, key, text, id: `${write.table}|${text}` };
  });
  const unique = [...new Map(items.map((item) => [item.id, item])).values()];
  const rows = new Map<string, Row | undefined>();
  const pending = new Map<string, OutboxEntry | undefined>();
  const tables = [...new Set(unique.map((item) => item.write.table))];
  await Promise.all([
    ...tables.map(async (table) => {
      const ofTable = unique.filter((item) => item.write.table === table);
      const found = await db.anyMirror(table).bulkGet(ofTable.map((item) => item.key));
      ofTable.forEach((item, index) => rows.set(item.id, found[index]));
    }),
    db.outbox
      .where('[table+key+userId]')
      .anyOf(unique.map((item) => [item.write.table, item.text, ctx.userId]))
      .toArray()
      .then((entries) => entries.forEach((entry) => pending.set(`${entry.table}|${entry.key}`, entry))),
  ]);

  let count = 0;
  const written = new Map<string, { table: SyncedTable; row: Row }>();
  // Each key's entry after the batch, in the order a one-by-one save would have created them.
  const entries = new Map<string, OutboxEntry | null>();
  const removed: number[] = [];
  for (const item of items) {
    const before = pending.get(item.id);
    const planned = plan(item.write, item.text, rows.get(item.id), before, ctx);
    if (!planned) continue;
    count += 1;
    rows.set(item.id, planned.row);
    written.set(item.id, { table: item.write.table, row: planned.row });
    if (!planned.entry && before?.seq !== undefined) removed.push(before.seq);
    if (!before) entries.delete(item.id);
    entries.set(item.id, planned.entry);
    pending.set(item.id, planned.entry ?? undefined);
  }

  const final = [...entries.values()].filter((entry): entry is OutboxEntry => entry !== null);
  await Promise.all([
    ...tables.map((table) => db.anyMirror(table).bulkPut([...written.values()].filter((w) => w.table === table).map((w) => w.row))),
    db.outbox.bulkDelete(removed),
    db.outbox.bulkPut(final.filter((entry) => entry.seq !== undefined)),
    db.outbox.bulkAdd(final.filter((entry) => entry.seq === undefined)),
  ]);
  return count;
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
      if (writes.length > 1) return writeMany(db, writes, ctx);
      const [write] = writes;
      return write && (await writeOne(db, write, ctx)) ? 1 : 0;
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
