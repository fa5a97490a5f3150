import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { offlineFailures, refusedWith } from './support/browser.ts';
import { LoginPageModel } from './support/pages.ts';

/** A store of the test's own, with rows and users it wrote itself, so the counts shown are known. */
const closing = { id: '55555555-5555-4555-8555-555555555555', name: 'Closing Store' };

/** Puts one edit into the device's outbox directly, as the app's own writes store it. */
async function queueEdit(page: Page, userId: string, session?: unknown) {
  const keyValues = { store_id: demo.storeA, entry_date: '2031-02-03', row_identifier: 'CP', metric_type: 'hours' };
  await page.evaluate(
    async ({ session, keyValues, userId }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('service-dashboard');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const tx = db.transaction(['authStorage', 'outbox'], 'readwrite');
      if (session) tx.objectStore('authStorage').put({ key: 'service-dashboard-auth', value: JSON.stringify(session) });
      tx.objectStore('outbox').add({
        table: 'daily_inputs',
        key: JSON.stringify(Object.values(keyValues)),
        keyValues,
        changes: { year: 2031, month: 2, day_of_week_iso: 1, value: 42.5 },
        base: { year: null, month: null, day_of_week_iso: null, value: null },
        userId,
        rev: 1,
        createdAt: Date.now(),
        updatedAt: Date.now(),
      });
      await new Promise((resolve, reject) => {
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    },
    { session, keyValues, userId },
  );
}

describe('the texts a person reads', () => {
  let e2e: E2E;
  const server = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) => (await e2e.stack.database.query<T>(sql, params)).rows;

  beforeAll(async () => {
    e2e = await startE2E();
    // Three tests work offline: failed requests, and auth-js logging its offline sign-out.
    e2e.expectConsoleErrors(offlineFailures);
  });
  afterAll(() => e2e?.close());

  it('says in words that the server cannot be reached, never "TypeError: Failed to fetch"', async () => {
    const { page, context } = await e2e.signedInPage('manager@example.com');
    await expect.poll(() => page.getByText(/Last synced \d/).count(), { timeout: 30_000 }).toBe(1);
    // Offline, as a phone out of reach of the shop's Wi-Fi, with a figure typed and waiting:
    // "Sync now" still tries to send it, and fails.
    await page.goto(`${e2e.appUrl}/daily`);
    // The first cell on screen (the grid keeps hidden inputs for the days outside the month).
    const cell = page.locator('input.cell:visible').first();
    await cell.waitFor();
    await context.setOffline(true);
    await cell.fill('7');
    await cell.press('Tab');
    await expect.poll(() => page.getByText('1 edit waiting').count(), { timeout: 10_000 }).toBe(1);
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.getByRole('button', { name: /^Sync (details|issues)/ }).click();
    const details = page.getByRole('region', { name: 'Sync details' });
    // The panel's first words: the last sync's failure, as a person reads it.
    await expect.poll(() => details.textContent(), { timeout: 20_000 }).toMatch(/^Cannot reach the server\./);
    expect(await details.textContent()).not.toMatch(/TypeError|Failed to fetch/);
    // The device synced before it lost the network: the bar still says when, not "never".
    expect(await page.getByRole('status', { name: 'Sync status' }).textContent()).toMatch(/Last synced \d/);
    await e2e.screenshot(page, 'texts-sync-details-offline');
    await context.close();
  });

  it('says in words that the server cannot be reached when signing in offline', async () => {
    const context = await e2e.newContext();
    const page = context.pages()[0] ?? (await context.newPage());
    await new LoginPageModel(page).open(e2e.appUrl);
    await context.setOffline(true);
    await new LoginPageModel(page).signIn('manager@example.com');
    const error = page.getByRole('alert');
    await expect.poll(() => error.textContent(), { timeout: 15_000 }).toMatch(/^Cannot reach the server\./);
    await context.setOffline(false);
    // A wrong password still gets the server's own answer (a 400 the browser logs).
    e2e.expectConsoleErrors(refusedWith(400));
    await new LoginPageModel(page).signIn('manager@example.com', 'wrong-password');
    await expect.poll(() => error.textContent(), { timeout: 15_000 }).toBe('Invalid login credentials');
    await context.close();
  });

  describe('deleting a store', () => {
    let admin: Page;
    let adminContext: BrowserContext;

    beforeAll(async () => {
      await server(`insert into stores (id, name) values ($1, $2)`, [closing.id, closing.name]);
      await server(
        `insert into auth.users (id, email, raw_app_meta_data) values
           ('aaaaaaaa-5555-4000-8000-000000000001', 'closing.one@example.com', jsonb_build_object('store_id', $1::text)),
           ('aaaaaaaa-5555-4000-8000-000000000002', 'closing.two@example.com', jsonb_build_object('store_id', $1::text))`,
        [closing.id],
      );
      await server(
        `insert into daily_inputs (store_id, entry_date, year, month, day_of_week_iso, row_identifier, metric_type, value)
         values ($1, '2034-02-06', 2034, 2, 1, 'CP', 'hours', 11), ($1, '2034-02-06', 2034, 2, 1, 'CP', 'sales', 900),
                ($1, '2034-02-07', 2034, 2, 2, 'CP', 'hours', 12)`,
        [closing.id],
      );
      await server(
        `insert into weekly_store_performance (store_id, year, week_start_date, week_end_date, days_complete, work_days)
         values ($1, 2034, '2034-02-05', '2034-02-11', 2, 6)`,
        [closing.id],
      );
      ({ page: admin, context: adminContext } = await e2e.signedInPage('admin@example.com'));
      await admin.goto(`${e2e.appUrl}/admin`);
      await admin.getByRole('tab', { name: 'Manage Stores' }).click();
      await admin.getByRole('table', { name: 'Stores' }).waitFor();
    });
    afterAll(() => adminContext?.close());

    it('names the users and figures that go with it, and deletes only once its name is typed', async () => {
      let browserDialogs = 0;
      admin.on('dialog', (dialog) => {
        browserDialogs += 1;
        void dialog.dismiss();
      });
      await admin.getByRole('button', { name: `Delete ${closing.name}` }).click();
      const dialog = admin.getByRole('dialog', { name: `Delete ${closing.name}?` });
      await dialog.waitFor();
      await expect.poll(() => dialog.textContent(), { timeout: 10_000 }).toContain('2 users');
      const text = (await dialog.textContent()) ?? '';
      expect(text).toContain('4 saved figures');
      expect(text).toContain('3 daily figures');
      expect(text).toContain('cannot be undone');

      const confirm = dialog.getByRole('button', { name: 'Delete store' });
      const typed = dialog.getByLabel(`Type ${closing.name} to confirm`);
      expect(await confirm.isDisabled()).toBe(true);
      await typed.fill('Closing stor');
      expect(await confirm.isDisabled()).toBe(true);
      await typed.fill('closing store');
      expect(await confirm.isDisabled()).toBe(true);
      await typed.fill(closing.name);
      expect(await confirm.isDisabled()).toBe(false);
      await e2e.screenshot(admin, 'texts-store-deletion');
      // Nothing was deleted while the dialog asked.
      expect(await server(`select id from stores where id = $1`, [closing.id])).toHaveLength(1);

      await confirm.click();
      const message = admin.locator('[role="status"].success, [role="alert"].error').first();
      await expect.poll(() => message.textContent(), { timeout: 10_000 }).toBe(`Store "${closing.name}" deleted successfully!`);
      expect(await server(`select id from stores where id = $1`, [closing.id])).toHaveLength(0);
      expect(await server(`select 1 from daily_inputs where store_id = $1`, [closing.id])).toHaveLength(0);
      expect(browserDialogs).toBe(0);
    });

    it('cancelling the dialog deletes nothing', async () => {
      await admin.getByRole('button', { name: 'Delete Northside Auto Service' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Delete Northside Auto Service?' });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await server(`select id from stores where id = $1`, [demo.storeB])).toHaveLength(1);
    });
  });

  it('the Authentication Issue screen logs out and clears the cache, warning first of edits waiting to sync', async () => {
    // A session whose account has no store, and one edit queued on the device: the shapes the app's own writes produce.
    const signIn = await fetch(`${e2e.stack.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: e2e.stack.keys.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'manager@example.com', password: demo.password }),
    });
    const session = (await signIn.json()) as { user: { id: string; app_metadata: Record<string, unknown> } };
    delete session.user.app_metadata.store_id;
    const context = await e2e.newContext();
    const page = context.pages()[0] ?? (await context.newPage());
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(`${e2e.appUrl}/login`);
    await page.evaluate(async () => {
      localStorage.setItem('left-behind', 'yes');
      sessionStorage.setItem('left-behind', 'yes');
      await navigator.serviceWorker.ready;
    });
    // Offline (the app starts from its service worker), so the queued edit stays queued whatever the countdown does.
    await context.setOffline(true);
    await queueEdit(page, session.user.id, session);
    // The countdown runs on the page's clock, which the test moves on instead of waiting.
    await page.clock.install();
    await page.goto(`${e2e.appUrl}/`);
    await page.getByRole('heading', { name: 'Authentication Issue' }).waitFor();
    const countdown = page.getByText(/^Logging out automatically in \d+ seconds\.$/);
    const secondsLeft = async () => Number(/\d+/.exec((await countdown.textContent()) ?? '')?.[0]);
    const shown = await secondsLeft();
    await page.clock.fastForward(1_000);
    await expect.poll(secondsLeft).toBe(shown - 1);
    const outboxCount = () =>
      page.evaluate(
        () =>
          new Promise<number>((resolve, reject) => {
            const request = indexedDB.open('service-dashboard');
            request.onerror = () => reject(request.error);
            request.onsuccess = () => {
              const count = request.result.transaction('outbox').objectStore('outbox').count();
              count.onsuccess = () => {
                resolve(count.result);
                request.result.close();
              };
            };
          }),
      );

    await page.getByRole('button', { name: 'Logout and Clear Cache' }).click();
    const warning = page.getByRole('dialog', { name: 'Edits not sent yet' });
    await warning.waitFor();
    expect(await warning.textContent()).toContain('1 edit on this device has not reached the server');
    await e2e.screenshot(page, 'texts-auth-issue-warning');
    // Nothing was dropped while the dialog asks, nor by the countdown, which the button stopped:
    // eleven seconds pass on the page's clock, each followed by a turn of its event loop.
    for (let second = 0; second < 11; second += 1) {
      await page.clock.fastForward(1_000);
      await page.evaluate(() => new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      }));
    }
    expect(await countdown.count()).toBe(0);
    expect(await outboxCount()).toBe(1);
    expect(page.url()).not.toMatch(/\/login$/);

    await warning.getByRole('button', { name: 'Discard and sign out' }).click();
    await page.waitForURL(/\/login$/);
    expect(await outboxCount()).toBe(0);
    expect(await page.evaluate(() => [localStorage.getItem('left-behind'), sessionStorage.getItem('left-behind')])).toEqual([null, null]);
    await context.close();
  });

  it('shows the Front End Team panel\'s one "TOTALS PROJECTING" row and its foot rows in red', async () => {
    const { page, context } = await e2e.signedInPage('manager@example.com', { width: 1440, height: 1000 });
    await page.goto(`${e2e.appUrl}/front-end-team`);
    const table = page.getByRole('table', { name: 'Front End Team' });
    await table.waitFor();
    await expect.poll(() => table.getByRole('row', { name: /^TOTALS PROJECTING/ }).count(), { timeout: 20_000 }).toBe(1);
    expect(await table.getByRole('row', { name: /^PROJECTING/ }).count()).toBe(0);
    // The demo month's pay arrives with the first sync: the row then shows the total and its projection.
    const pay = table.getByRole('row', { name: /^TOTALS PROJECTING/ }).locator('td').nth(1);
    await expect.poll(() => pay.locator('.figure-total').textContent(), { timeout: 20_000 }).toMatch(/^\$[\d,]+$/);
    expect(await pay.locator('.projection').textContent()).toMatch(/^projecting \$[\d,]+$/);
    const footRows = table.locator('tfoot tr');
    expect(await footRows.count()).toBeGreaterThan(0);
    const colours = await footRows.evaluateAll((rows) => rows.map((row) => getComputedStyle(row.querySelector('th') as Element).color));
    for (const colour of colours) {
      const [r = 0, g = 0, b = 0] = (colour.match(/\d+(\.\d+)?/g) ?? []).map(Number);
      expect(r, `foot row colour ${colour}`).toBeGreaterThan(150);
      expect(r - Math.max(g, b), `foot row colour ${colour}`).toBeGreaterThan(60);
    }
    await e2e.screenshot(table, 'texts-front-end-team-foot');
    await context.close();
  });
});
