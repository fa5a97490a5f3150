import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { offlineFailures } from './support/browser.ts';

// Until the screens exist, the test puts a signed-in session and one queued edit into the
// device database directly (the shapes the app's own writes produce), then lets the app
// and its service worker do the rest.
describe('Background Sync with every tab closed', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it('pushes an edit queued offline once the network returns, from the service worker alone', async () => {
    const signIn = await fetch(`${e2e.stack.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: e2e.stack.keys.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'manager@example.com', password: demo.password }),
    });
    const session = (await signIn.json()) as { user: { id: string } };
    const context = await e2e.newContext();
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(e2e.appUrl);
    await page.evaluate(async () => navigator.serviceWorker.ready);

    const keyValues = { store_id: demo.storeA, entry_date: '2031-02-03', row_identifier: 'CP', metric_type: 'hours' };
    await page.evaluate(
      async ({ session, keyValues }) => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const request = indexedDB.open('service-dashboard');
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        const tx = db.transaction(['authStorage', 'outbox'], 'readwrite');
        tx.objectStore('authStorage').put({ key: 'service-dashboard-auth', value: JSON.stringify(session) });
        tx.objectStore('outbox').add({
          table: 'daily_inputs',
          key: JSON.stringify(Object.values(keyValues)),
          keyValues,
          changes: { year: 2031, month: 2, day_of_week_iso: 1, value: 42.5 },
          base: { year: null, month: null, day_of_week_iso: null, value: null },
          userId: session.user.id,
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
      { session, keyValues },
    );

    // Offline on purpose: the browser logs the requests it cannot make.
    e2e.expectConsoleErrors(offlineFailures);
    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => page.getByText('1 edit waiting').count(), { timeout: 10_000 }).toBe(1);
    await page.getByRole('button', { name: 'Sync now' }).click();
    // The push failed for lack of network, so the page asked for a Background Sync.
    await expect
      .poll(() => page.evaluate(async () => ((await navigator.serviceWorker.ready) as ServiceWorkerRegistration & { sync: { getTags(): Promise<string[]> } }).sync.getTags()), { timeout: 10_000 })
      .toEqual(['outbox-push']);

    await page.close();
    await context.setOffline(false);
    const landed = async () =>
      (await e2e.stack.database.query<{ value: string }>(`select value::text from daily_inputs where entry_date = '2031-02-03'`)).rows;
    await expect.poll(landed, { timeout: 30_000, interval: 250 }).toEqual([{ value: '42.50' }]);
  });
});
