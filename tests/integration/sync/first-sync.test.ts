import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncedTableNames } from '../../../src/data/synced-tables.ts';
import type { SyncReport } from '../../../src/sync/engine.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { createDevice } from './device.ts';

/**
 * A device's first sync: a handful of requests for thousands of rows, a progress report
 * in rows that ends at the total the server announced, and every row on the device.
 */
describe("a device's first sync", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.stop());

  it('brings every row in a few requests and reports its progress in rows up to the total', async () => {
    const device = await createDevice(stack, 'manager@example.com');
    try {
      const reports: Array<NonNullable<SyncReport['initialSync']>> = [];
      const engine = device.engine({ onReport: (report) => report.initialSync && reports.push(report.initialSync) });
      // Each write transaction to the mirrors is a redraw of every screen reading them.
      const mirrors = new Set<string>(syncedTableNames);
      let mirrorWrites = 0;
      device.db.close(); // a middleware joins when the database opens
      device.db.use({
        stack: 'dbcore',
        name: 'count-mirror-writes',
        create: (down) => ({
          ...down,
          transaction: (stores, mode, options) => {
            if (mode === 'readwrite' && stores.some((store) => mirrors.has(store))) mirrorWrites += 1;
            return down.transaction(stores, mode, options);
          },
        }),
      });
      await device.db.open();
      const before = device.network.requests;
      const result = await engine.runOnce('start');
      const requests = device.network.requests - before;
      expect(result).toMatchObject({ ok: true });

      const stored = (await Promise.all(syncedTableNames.map((table) => device.db.mirror(table).count()))).reduce((a, b) => a + b, 0);
      // What the manager may read, counted by the server as the manager, over the REST path.
      const { data: counts, error } = await device.client.rpc('pull_row_counts', { p_tables: syncedTableNames, p_min_year: new Date().getUTCFullYear() - 1 });
      expect(error).toBeNull();
      const announced = Object.values(counts as Record<string, number>).reduce((a, b) => a + b, 0);
      expect(stored).toBe(announced);
      expect(stored).toBeGreaterThan(2000);

      expect(reports.every((report) => report.unit === 'rows' && report.total === announced)).toBe(true);
      expect(reports.at(-1)?.done).toBe(announced);
      const done = reports.map((report) => report.done);
      expect(done).toEqual([...done].sort((a, b) => a - b));
      expect(engine.status.initialSync).toBeNull();
      // One count, one pull per 5,000 rows (and the empty push needs none): not one per table and page.
      expect(requests).toBeLessThanOrEqual(1 + Math.ceil((announced + 1) / 5000));
      // One per pull request (the count request stores nothing), not one per page of 1,000 rows.
      expect(mirrorWrites).toBeGreaterThan(0);
      expect(mirrorWrites).toBeLessThanOrEqual(requests - 1);
    } finally {
      device.close();
    }
  });
});
