/**
 * Drill 10: a new version arrives while edits wait. The backend is unreachable, three
 * edits wait on the tablet, and a new build is deployed: the update prompt appears,
 * accepting it reloads into the new version with every edit still waiting, and they
 * reach the server once it is back. (That a newer device-database schema carries queued
 * edits over is proven in tests/integration/sync/schema-upgrade.test.ts.)
 */
import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distDir as builtApp } from '../../../scripts/build-if-needed.ts';
import { precompress } from '../../../scripts/precompress.ts';
import type { DrillStack } from '../support/drill-stack.ts';
import { startDrillStack } from '../support/drill-stack.ts';
import type { Cell } from '../support/drill-steps.ts';
import { byCell, cellKey, cellLabel, daysOf, deviceCounts, enter, openMonth, serverCells } from '../support/drill-steps.ts';
import { until } from '../../support/poll.ts';
import { SyncBarModel } from '../support/pages.ts';

const month = '2032-01';

describe('drill: a new version while edits wait', () => {
  let drill: DrillStack;
  let distDir: string;
  beforeAll(async () => {
    distDir = await mkdtemp(path.join(tmpdir(), 'drill-dist-'));
    await cp(builtApp, distDir, { recursive: true });
    drill = await startDrillStack({ distDir });
  });
  afterAll(async () => {
    await drill?.close();
    await rm(distDir, { recursive: true, force: true });
  });

  it('offers the update, and keeps every waiting edit through it', async () => {
    const tablet = await drill.tablet();
    const { page } = tablet;
    await new SyncBarModel(page).waitForSynced();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await openMonth(page, drill.appUrl, month);
    drill.proxy.cut();
    const cells: Cell[] = daysOf(month, 3).map((date, i) => ({ date, category: 'W', metric: 'hours', value: 2 + i }));
    for (const cell of cells) await enter(page, cell);
    expect((await deviceCounts(page)).outbox).toBe(3);
    // The tablet backs off while the backend is unreachable: a few attempts in five seconds,
    // not a loop of pushes (worker and page asking each other) that also held the update back.
    let attempts = 0;
    const countAttempt = (request: { url(): string }) => {
      if (request.url().startsWith(drill.proxy.url)) attempts += 1;
    };
    page.context().on('request', countAttempt);
    await page.waitForTimeout(5_000);
    page.context().off('request', countAttempt);
    expect(attempts).toBeLessThan(15);

    // A new build: its service worker differs from the running one (compressed copies too).
    await appendFile(path.join(distDir, 'sw.js'), `\n// build ${Date.now()}\n`);
    await precompress(distDir);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    const reload = page.getByRole('alert').filter({ hasText: 'New version available' }).getByRole('button', { name: 'Reload' });
    await reload.waitFor({ timeout: 30_000 });
    expect((await deviceCounts(page)).outbox).toBe(3);
    const before = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
    await Promise.all([page.waitForEvent('load', { timeout: 30_000 }), reload.click()]);
    await openMonth(page, drill.appUrl, month);
    expect((await deviceCounts(page)).outbox).toBe(3);
    for (const cell of cells) expect(await page.getByLabel(cellLabel(cell)).inputValue()).toBe(String(cell.value));
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    expect(before).toBeTruthy();

    drill.proxy.restore();
    const client = await drill.signedInClient('manager@example.com');
    await until(
      async () => byCell(await serverCells(client, `${month}-01`, `${month}-31`)),
      (onServer) => cells.every((cell) => onServer.get(cellKey(cell)) === cell.value),
      30_000,
      'the waiting edits on the server',
    );
    expect(tablet.errors).toEqual([]);
  }, 120_000);
});
