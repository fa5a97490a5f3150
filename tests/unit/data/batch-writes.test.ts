/**
 * A batch of writes (a submission, an import) is read and written in bulk, and must leave
 * the device exactly as the same writes saved one by one do: the same rows, and the same
 * outbox entries in the same order (changes, bases, revisions, sources, typed-back fields
 * gone). Generated cases from a seeded source: cells written several times in one batch,
 * typed back to what they replaced, over entries already pending (some with a push whose
 * answer was lost), with and without a source.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { AppDatabase } from '../../../src/data/app-database.ts';
import type { RowWrite, WriteContext } from '../../../src/data/local-writes.ts';
import { saveRows } from '../../../src/data/local-writes.ts';
import { seeded } from '../../support/random.ts';

const dates = ['2026-07-01', '2026-07-02'];
const rowsOf = ['CP', 'W'];

function cell(random: ReturnType<typeof seeded>): RowWrite {
  const value = random.one([null, 1, 2, 3]);
  return {
    table: 'daily_inputs',
    row: { store_id: 's1', entry_date: random.one(dates), row_identifier: random.one(rowsOf), metric_type: 'hours', value, year: 2026, month: 7 },
    ...(random.chance(0.3) ? { seen: { value: random.one([null, 1, 2]) } } : {}),
    ...(random.chance(0.4) ? { source: 'imported from a.csv' } : {}),
  };
}

async function deviceState(db: AppDatabase) {
  const rows = await db.anyMirror('daily_inputs').toArray();
  const outbox = (await db.outbox.orderBy('seq').toArray()).map(({ seq: _seq, ...entry }) => entry);
  return { rows, outbox };
}

describe('a batch of writes', () => {
  it('leaves the same rows and outbox as the writes saved one by one', async () => {
    const random = seeded(20260730);
    for (let round = 0; round < 60; round += 1) {
      const one = new AppDatabase(`one-${round}`, { indexedDB: new IDBFactory(), IDBKeyRange });
      const batch = new AppDatabase(`batch-${round}`, { indexedDB: new IDBFactory(), IDBKeyRange });
      const ctx: WriteContext = { userId: 'u1', now: 1_000 };
      // What both devices held before: rows pulled from the server, values typed since and still
      // pending, a push of one of them unanswered.
      const pulled = dates.flatMap((date) => rowsOf.map((row) => ({ store_id: 's1', entry_date: date, row_identifier: row, metric_type: 'hours', value: random.one([null, 1, 2]), year: 2026, month: 7 })));
      for (const db of [one, batch]) await db.anyMirror('daily_inputs').bulkPut(pulled.filter((_, index) => index % 2 === round % 2));
      const earlier = Array.from({ length: random.int(0, 4) }, () => cell(random));
      for (const write of earlier) {
        await saveRows(one, [write], ctx);
        await saveRows(batch, [write], ctx);
      }
      if (random.chance(0.5)) {
        for (const db of [one, batch]) {
          const first = await db.outbox.orderBy('seq').first();
          if (first?.seq !== undefined) await db.outbox.update(first.seq, { unconfirmed: [{ rev: first.rev, changes: first.changes }] });
        }
      }
      const writes = Array.from({ length: random.int(2, 8) }, () => cell(random));
      const later = { ...ctx, now: 2_000 };
      let oneByOne = 0;
      for (const write of writes) oneByOne += await saveRows(one, [write], later);
      const together = await saveRows(batch, writes, later);
      expect(together, `round ${round}`).toBe(oneByOne);
      expect(await deviceState(batch), `round ${round}: ${JSON.stringify(writes)}`).toEqual(await deviceState(one));
      one.close();
      batch.close();
    }
  });
});
