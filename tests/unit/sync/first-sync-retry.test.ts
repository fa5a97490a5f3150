import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { AppDatabase } from '../../../src/data/app-database.ts';
import type { SyncReport } from '../../../src/sync/engine.ts';
import { SyncEngine } from '../../../src/sync/engine.ts';
import { InProcessLocks } from '../../../src/sync/leader.ts';
import type { PullManyOutcome, SyncTransport } from '../../../src/sync/transport.ts';

const row = (day: number) => ({ store_id: 's1', entry_date: `2031-01-${String(day).padStart(2, '0')}`, row_identifier: 'CP', metric_type: 'hours', value: day });

/**
 * A first sync of two tables whose first attempt fails after its first answer: the retry
 * neither asks for the row count again nor counts the stored rows from zero.
 */
describe('a first sync that fails part way and is tried again', () => {
  async function run(countAnswer: 'ok' | 'busy') {
    const db = new AppDatabase(`first-sync-retry-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    let counts = 0;
    let pulls = 0;
    // A small server: each table's rows once, in requests of at most `limit` rows; its
    // second request is refused as a busy backend refuses it.
    const server: Record<string, Array<Record<string, unknown>>> = {
      daily_inputs: [row(1), row(2), row(3)],
      monthly_targets: [{ store_id: 's1', year: 2031, month: 1, metric_key: 'cpElr', target_value: 150 }],
    };
    const transport: SyncTransport = {
      session: async () => ({ status: 'signed-in', userId: 'u1' }),
      refreshSession: async () => ({ status: 'signed-in', userId: 'u1' }),
      push: async (_table, rows) => ({ ok: true, rows }),
      pull: async () => ({ ok: true, page: { rows: [], cursor: null, hasMore: false } }),
      pullMany: async (requests, limit): Promise<PullManyOutcome> => {
        pulls += 1;
        if (pulls === 2) return { ok: false, kind: 'transient', status: 503, code: '', message: 'Too many requests are waiting for the database.', retryAfterMs: 1 };
        let budget = limit;
        const pages = [];
        for (const { table, cursor } of requests) {
          if (budget < 1) break;
          const from = typeof cursor === 'number' ? cursor : 0;
          const rows = (server[table] ?? []).slice(from, from + budget);
          budget -= rows.length;
          const next = from + rows.length;
          pages.push({ table, rows, cursor: next, hasMore: next < (server[table] ?? []).length });
        }
        return { ok: true, pages };
      },
      countRows: async () => {
        counts += 1;
        return countAnswer === 'ok' ? { ok: true, counts: { daily_inputs: 3, monthly_targets: 1 } } : { ok: false, kind: 'transient', status: 503, code: '', message: 'busy' };
      },
    };
    const reports: Array<NonNullable<SyncReport['initialSync']>> = [];
    const engine = new SyncEngine({
      db,
      transport,
      clock: { now: () => Date.UTC(2031, 5, 1) },
      timers: { setTimeout: () => 0, clearTimeout: () => undefined },
      random: () => 0.5,
      locks: new InProcessLocks(),
      tables: ['daily_inputs', 'monthly_targets'],
      // One table per request, so the first sync takes two.
      requestRows: 3,
      onReport: (report) => report.initialSync && reports.push(report.initialSync),
    });
    expect(await engine.runOnce('start')).toMatchObject({ ok: false, reason: 'transient' });
    expect(engine.status.initialSync).not.toBeNull();
    expect(await engine.runOnce('retry')).toMatchObject({ ok: true });
    expect(engine.status.initialSync).toBeNull();
    db.close();
    return { counts, pulls, reports };
  }

  it('counts once and carries on from the rows already stored', async () => {
    const { counts, pulls, reports } = await run('ok');
    expect(counts).toBe(1);
    expect(pulls).toBe(3);
    expect(reports.every((report) => report.unit === 'rows' && report.total === 4)).toBe(true);
    const done = reports.map((report) => report.done);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect([...new Set(done)]).toEqual([0, 3, 4]);
  });

  it('after a refused count, goes by tables for the rest of the first sync without asking again', async () => {
    const { counts, reports } = await run('busy');
    expect(counts).toBe(1);
    expect(reports.every((report) => report.unit === 'tables' && report.total === 2)).toBe(true);
    expect(reports.at(-1)?.done).toBe(2);
  });
});
