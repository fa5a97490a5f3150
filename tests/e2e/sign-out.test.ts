import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { offlineFailures } from './support/browser.ts';
import { LoginPageModel, ShellModel } from './support/pages.ts';

describe('signing out with edits not yet on the server', () => {
  let e2e: E2E;
  let context: BrowserContext;
  let page: Page;
  let shell: ShellModel;
  const outboxSize = () =>
    page.evaluate(async () => {
      const db = await new Promise<IDBDatabase>((resolve) => {
        const request = indexedDB.open('service-dashboard');
        request.onsuccess = () => resolve(request.result);
      });
      return new Promise<number>((resolve) => {
        const request = db.transaction('outbox').objectStore('outbox').count();
        request.onsuccess = () => resolve(request.result);
      });
    });

  beforeAll(async () => {
    e2e = await startE2E();
    context = await e2e.newContext();
    page = context.pages()[0] ?? (await context.newPage());
    await page.setViewportSize({ width: 1440, height: 900 });
    const login = new LoginPageModel(page);
    await login.open(e2e.appUrl);
    await login.signIn('manager@example.com');
    shell = new ShellModel(page);
    await shell.waitForSignedIn();
    await page.goto(`${e2e.appUrl}/settings?month=2031-05`);
    await page.getByRole('heading', { name: 'Targets for May 2031' }).waitFor();
    await page.evaluate(async () => navigator.serviceWorker.ready);
  });
  afterAll(() => e2e?.close());

  it('shows how many edits wait and changes nothing when the person cancels', async () => {
    // Offline on purpose: the browser logs the requests it cannot make.
    e2e.expectConsoleErrors(offlineFailures);
    await context.setOffline(true);
    await page.getByLabel('Hours Per Day').fill('111');
    await page.getByRole('button', { name: 'Save Targets' }).click();
    await page.getByText('Targets saved successfully!').waitFor();
    await expect.poll(outboxSize).toBeGreaterThan(0);
    const waiting = await outboxSize();

    await shell.logout();
    const dialog = page.getByRole('dialog', { name: 'Edits not sent yet' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`${waiting === 1 ? '1 edit on this device has' : `${waiting} edits on this device have`} not reached the server`);
    await e2e.screenshot(page, 'sign-out-guard');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await outboxSize()).toBe(waiting);
    expect(page.url()).toContain('/settings');
  });

  it('sends them with "Sync now" once online, and then signs out cleanly', async () => {
    // Asked while the edits still wait (once online, sync may send them before a click could).
    e2e.expectConsoleErrors(offlineFailures);
    await shell.logout();
    const dialog = page.getByRole('dialog', { name: 'Edits not sent yet' });
    await dialog.waitFor();
    await context.setOffline(false);
    await dialog.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(outboxSize, { timeout: 15_000 }).toBe(0);
    const rows = await e2e.stack.database.query<{ value: string }>(
      `select target_value::text as value from monthly_targets where store_id = $1 and year = 2031 and month = 5 and metric_key = 'hoursPerDay'`,
      [demo.storeA],
    );
    expect(rows.rows).toEqual([{ value: '111.00' }]);
    await shell.logout();
    await page.waitForURL(/\/login$/);
  });
});
