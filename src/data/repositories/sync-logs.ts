/** What the sync status panel lists: refused edits and the conflict log. */
import { useLiveQuery } from 'dexie-react-hooks';
import type { ConflictRecord, DeadLetter } from '../app-database.ts';
import type { Device } from '../device-context.tsx';
import { useDevice } from '../device-context.tsx';

export function useDeadLetters(): DeadLetter[] | undefined {
  const device = useDevice();
  return useLiveQuery(() => device.db.deadLetters.orderBy('id').reverse().toArray(), [device]);
}

export function useConflicts(): ConflictRecord[] | undefined {
  const device = useDevice();
  return useLiveQuery(() => device.db.conflicts.orderBy('at').reverse().toArray(), [device]);
}

/**
 * Puts a refused edit back in the outbox (after its cause was fixed). A newer pending
 * edit of the same row keeps its values; the refused one only fills fields it lacks.
 */
export async function retryDeadLetter(device: Pick<Device, 'db'>, id: number): Promise<void> {
  const { db } = device;
  await db.transaction('rw', db.deadLetters, db.outbox, async () => {
    const letter = await db.deadLetters.get(id);
    if (!letter) return;
    const now = Date.now();
    const pending = await db.outbox.where('[table+key+userId]').equals([letter.table, letter.key, letter.userId]).first();
    if (pending?.seq !== undefined) {
      await db.outbox.update(pending.seq, { changes: { ...letter.changes, ...pending.changes }, rev: pending.rev + 1, updatedAt: now });
    } else {
      await db.outbox.add({ table: letter.table, key: letter.key, keyValues: letter.keyValues, changes: letter.changes, base: {}, userId: letter.userId, rev: 1, createdAt: letter.createdAt, updatedAt: now });
    }
    await db.deadLetters.delete(id);
  });
}
