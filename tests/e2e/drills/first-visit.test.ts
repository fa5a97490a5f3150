/**
 * Drill 6: the first visit is already protected. A person signs in on a new tablet and
 * loses the network in the same visit: the service worker took control on its first
 * install, so a reload still opens the app, signed in, with the store's data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DrillStack } from '../support/drill-stack.ts';
import { startDrillStack } from '../support/drill-stack.ts';
import { deviceCounts, enter, openMonth } from '../support/drill-steps.ts';
import { SyncBarModel } from '../support/pages.ts';

describe('drill: the first visit is already protected', () => {
  let drill: DrillStack;
  beforeAll(async () => {
    drill = await startDrillStack();
  });
  afterAll(() => drill?.close());

  it('reloads offline right after the first sign-in, in the same visit', async () => {
    const tablet = await drill.tablet({ width: 1024, height: 768 });
    const { page, context } = tablet;
    await new SyncBarModel(page).waitForSynced();
    // No navigation since the first load: only the first install's claim gives this page a controller.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await context.setOffline(true);
    await page.reload();
    await openMonth(page, drill.appUrl, '2031-11');
    await enter(page, { date: '2031-11-03', category: 'CP', metric: 'hours', value: 7.5 });
    expect((await deviceCounts(page)).outbox).toBe(1);
    await page.goto(`${drill.appUrl}/monthly`);
    await page.getByRole('table', { name: 'Monthly performance' }).waitFor();
    expect(tablet.errors).toEqual([]);
  });
});
