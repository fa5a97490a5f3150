/**
 * Drill 8: storage trouble. The device's storage is full (IndexedDB refuses writes with
 * QuotaExceededError), and the database is blocked by an old window that holds an
 * older version open: each time the person is told, and a typed value is never dropped
 * without a word.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DrillStack } from '../support/drill-stack.ts';
import { startDrillStack } from '../support/drill-stack.ts';
import { cellLabel, deviceCounts, enter, openMonth } from '../support/drill-steps.ts';
import { SyncBarModel } from '../support/pages.ts';

type QuotaSwitch = { __quotaFull?: boolean };

describe('drill: storage trouble', () => {
  let drill: DrillStack;
  beforeAll(async () => {
    drill = await startDrillStack();
    // The app reports each write the full disk refuses: this drill's premise.
    drill.expectConsoleErrors(/QuotaExceededError|out of storage/);
  });
  afterAll(() => drill?.close());

  it('keeps a value typed while storage is full, says why, and saves it once there is room', async () => {
    const tablet = await drill.tablet();
    const { page, context } = tablet;
    await new SyncBarModel(page).waitForSynced();
    // Storage fills up: from now on every IndexedDB write of this origin fails as a full disk does.
    await context.addInitScript(() => {
      for (const method of ['put', 'add'] as const) {
        const original = IDBObjectStore.prototype[method];
        IDBObjectStore.prototype[method] = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
          if ((window as QuotaSwitch).__quotaFull) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
          return original.apply(this, args);
        } as IDBObjectStore['put'];
      }
    });
    await page.reload();
    await openMonth(page, drill.appUrl, '2031-12');
    await page.evaluate(() => ((window as QuotaSwitch).__quotaFull = true));
    const cell = { date: '2031-12-02', category: 'W', metric: 'sales', value: 4321.5 } as const;
    await enter(page, cell);
    const input = page.getByLabel(cellLabel(cell));
    await page.getByText(/out of storage space/).first().waitFor();
    expect(await input.inputValue()).toBe('4321.5');
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect((await deviceCounts(page)).outbox).toBe(0);

    await page.evaluate(() => ((window as QuotaSwitch).__quotaFull = false));
    await input.focus();
    await input.press('Tab');
    await page.waitForFunction(async () => {
      const open = await new Promise<IDBDatabase>((resolve) => {
        const request = indexedDB.open('service-dashboard');
        request.onsuccess = () => resolve(request.result);
      });
      const count = await new Promise<number>((resolve) => {
        const request = open.transaction('outbox').objectStore('outbox').count();
        request.onsuccess = () => resolve(request.result);
      });
      open.close();
      return count > 0;
    });
    expect(await input.getAttribute('aria-invalid')).toBeNull();
    expect(tablet.errors.filter((e) => !/QuotaExceededError|out of storage/.test(e))).toEqual([]);
  });

  it('says so when an old window holds an older version of the database open, and goes on once it closes', async () => {
    const tablet = await drill.tablet({ signIn: false });
    const old = await tablet.context.newPage();
    // An old window of the app, opened before an update: version 1 of the database, held open.
    await old.goto(`${drill.appUrl}/manifest.webmanifest`);
    await old.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const request = indexedDB.open('service-dashboard', 1);
          request.onsuccess = () => {
            (window as unknown as { held: IDBDatabase }).held = request.result;
            resolve();
          };
        }),
    );
    await tablet.page.goto(`${drill.appUrl}/login`);
    const banner = tablet.page.getByRole('alert').filter({ hasText: 'open in another tab or window with an older version' });
    await banner.waitFor({ timeout: 20_000 });
    await old.close();
    await banner.waitFor({ state: 'detached', timeout: 20_000 });
    await tablet.page.getByRole('button', { name: 'Login' }).waitFor();
  });
});
