import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceLimits } from '../../../src/domain/limits.ts';
import type { SyncReport } from '../../../src/sync/engine.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { engines } from '../../support/test-databases.ts';
import type { Device } from './device.ts';
import { createDevice, dailyWrite } from './device.ts';
import { untilTrue } from '../../support/poll.ts';

// The sync engine against a backend at its limits: a database queue with no room
// (503 with Retry-After), and a server that takes fewer rows per push than the device sends.


for (const engine of engines) {
  describe(`syncing against a busy backend on ${engine}`, () => {
    let stack: TestStack;
    let device: Device;
    const stored = async () =>
      (await stack.database.query<{ n: number }>(`select count(*)::int as n from daily_inputs where entry_date >= '2031-01-01'`)).rows[0]?.n;

    beforeAll(async () => {
      // One request at a time and no room to wait: any request that meets another gets 503.
      stack = await startTestStack({
        engine,
        limits: { dbConcurrentRequests: 1, dbQueueLength: 0, dbQueuePerClient: 0, retryAfterSeconds: 1 },
      });
      device = await createDevice(stack, 'manager@example.com');
    });
    afterAll(async () => {
      device?.close();
      await stack?.stop();
    });

    it('waits at least the Retry-After of a 503 before it tries again, then sends every edit', async () => {
      await device.save([dailyWrite(0, 7.5), dailyWrite(1, 8)]);
      // Another client's long request holds the database's only place.
      let releaseOccupant: () => void = () => undefined;
      const occupant = stack.queue.run('another-client', () => new Promise<void>((resolve) => (releaseOccupant = resolve)));
      const reports: SyncReport[] = [];
      // When each report came, taken as it came: a check made later (a busy machine polls late) would shorten the wait it sees.
      const reportedAt = new Map<SyncReport, number>();
      // Backoff alone would retry within 20 ms; only the server's Retry-After of 1 s can make it wait longer.
      const engineUnderTest = device.engine({
        backoff: { baseMs: 10, capMs: 20 },
        onReport: (report) => {
          reportedAt.set(report, Date.now());
          reports.push(report);
        },
      });
      engineUnderTest.start();
      await untilTrue(() => reports.some((r) => r.state === 'backing-off'), 15_000, 'the first refusal', 20);
      const refusal = reports.find((r) => r.state === 'backing-off') as SyncReport;
      const refusedAt = reportedAt.get(refusal) ?? 0;
      expect(refusal.lastError).toBe('Too many requests are waiting for the database.');
      expect((refusal.nextAttemptAt ?? 0) - refusedAt).toBeGreaterThanOrEqual(1_000 - 50);
      expect(await stored()).toBe(0);

      releaseOccupant();
      await occupant;
      await untilTrue(async () => (await stored()) === 2 && engineUnderTest.status.state === 'idle', 15_000, 'the edits to arrive', 20);
      // No second attempt went out before the second the server asked for.
      const attempts = reports.filter((r, i) => r.state === 'syncing' && reports[i - 1]?.state !== 'syncing').length;
      expect(attempts).toBe(2);
      expect(await device.db.outbox.count()).toBe(0);
      await engineUnderTest.stop();
    });

    it(`gets ${serviceLimits.pushBatchRows + 100} edits in from a device that sends them in one batch the server refuses`, async () => {
      const writes = Array.from({ length: serviceLimits.pushBatchRows + 100 }, (_, n) => dailyWrite(n, n + 0.25, 'W'));
      await device.save(writes);
      const before = (await stack.database.query<{ n: number }>(`select count(*)::int as n from daily_inputs where row_identifier = 'W' and entry_date >= '2031-01-01'`)).rows[0]?.n;
      expect(before).toBe(0);
      const result = await device.engine({ batchSize: serviceLimits.pushBatchRows + 100 }).runOnce('manual');
      expect(result).toMatchObject({ ok: true, pushed: serviceLimits.pushBatchRows + 100, refused: 0 });
      const sum = (await stack.database.query<{ n: number; total: string }>(
        `select count(*)::int as n, sum(value)::text as total from daily_inputs where row_identifier = 'W' and entry_date >= '2031-01-01'`,
      )).rows[0];
      // 0.25 + 1.25 + ... over n = 0..499: 500 * 0.25 + (0 + ... + 499).
      const count = serviceLimits.pushBatchRows + 100;
      expect(sum).toEqual({ n: count, total: (count * 0.25 + (count * (count - 1)) / 2).toFixed(2) });
      expect(await device.db.deadLetters.count()).toBe(0);
    });
  });
}
