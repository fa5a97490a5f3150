/**
 * Pushes one user's outbox, table by table, in batches of field-level writes
 * (push_changes). An entry leaves the outbox only when the server confirmed it. A batch
 * the server refuses is split until the refused rows are alone; those go to the
 * dead-letter list and the rest still land.
 */
import type { AppDatabase, OutboxEntry } from '../data/app-database.ts';
import type { SentEntry } from '../data/sync-store.ts';
import { confirmPushed, moveToDeadLetter, noteSending, pendingEntries } from '../data/sync-store.ts';
import type { SyncedTable } from '../data/synced-tables.ts';
import { SyncInterrupted } from './errors.ts';
import type { SyncTransport } from './transport.ts';

export type PushContext = { db: AppDatabase; transport: SyncTransport; now: () => number; batchSize: number };
export type PushSummary = { pushed: number; refused: number };

function byTable(entries: OutboxEntry[]): Array<{ table: SyncedTable; entries: OutboxEntry[] }> {
  const groups = new Map<SyncedTable, OutboxEntry[]>();
  for (const entry of entries) {
    const list = groups.get(entry.table);
    if (list) list.push(entry);
    else groups.set(entry.table, [entry]);
  }
  return [...groups].map(([table, list]) => ({ table, entries: list }));
}

async function pushBatch(ctx: PushContext, table: SyncedTable, batch: OutboxEntry[], summary: PushSummary): Promise<void> {
  const sent: SentEntry[] = batch.map((e) => ({ seq: e.seq as number, rev: e.rev, changes: e.changes, base: e.base }));
  const rows = batch.map((e) => ({ ...e.keyValues, ...e.changes }));
  // Before it leaves: an answer lost after the server wrote it must not make these values look like another device's.
  await noteSending(ctx.db, sent);
  const typedAt = batch.map((e) => new Date(e.updatedAt).toISOString());
  // Sources only when an entry has one (an import): a push of typed edits reads as every earlier one did.
  const sources = batch.some((e) => e.source) ? batch.map((e) => e.source ?? null) : undefined;
  const outcome = await ctx.transport.push(table, rows, typedAt, sources);
  if (outcome.ok) {
    await confirmPushed(ctx.db, table, sent, outcome.rows, ctx.now(), outcome.before);
    summary.pushed += batch.length;
    return;
  }
  if (outcome.kind !== 'permanent') throw new SyncInterrupted(outcome);
  if (batch.length === 1) {
    await moveToDeadLetter(ctx.db, sent, { code: outcome.code, message: outcome.message }, ctx.now());
    summary.refused += 1;
    return;
  }
  const middle = Math.ceil(batch.length / 2);
  await pushBatch(ctx, table, batch.slice(0, middle), summary);
  await pushBatch(ctx, table, batch.slice(middle), summary);
}

export async function pushOutbox(ctx: PushContext, userId: string): Promise<PushSummary> {
  const summary: PushSummary = { pushed: 0, refused: 0 };
  for (const group of byTable(await pendingEntries(ctx.db, userId))) {
    for (let start = 0; start < group.entries.length; start += ctx.batchSize) {
      await pushBatch(ctx, group.table, group.entries.slice(start, start + ctx.batchSize), summary);
    }
  }
  return summary;
}
