/**
 * Drill 7: a cold start in an outage. Signed in and loaded once, the browser closed, the
 * network gone: the installed start URL opens the app signed in with this month's data,
 * and the sync details say whether the browser keeps the device's storage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DrillStack } from '../support/drill-stack.ts';
import { startDrillStack } from '../support/drill-stack.ts';
import { SyncBarModel } from '../support/pages.ts';

describe('drill: a cold start in an outage', () => {
  let drill: DrillStack;
  beforeAll(async () => {
    drill = await startDrillStack();
  });
  afterAll(() => drill?.close());

  it("opens signed in with this month's figures, and shows the browser's storage answer", async () => {
    const first = await drill.tablet();
    await new SyncBarModel(first.page).waitForSynced();
    await first.page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    const hoursTile = async (page: typeof first.page) => page.getByRole('region', { name: 'KPI Dashboard' }).getByText(/^Actual: \d/).nth(1).textContent();
    await first.page.goto(`${drill.appUrl}/?view=all`);
    const online = await hoursTile(first.page);
    await drill.closeTablet(first);

    drill.proxy.cut();
    const again = await drill.tablet({ profile: first.profile, signIn: false });
    await again.context.setOffline(true);
    const manifest = (await (await fetch(`${drill.appUrl}/manifest.webmanifest`)).json()) as { start_url: string };
    await again.page.goto(new URL(manifest.start_url, drill.appUrl).href);
    await again.page.locator('nav#sidebar').waitFor({ state: 'attached', timeout: 30_000 });
    expect(again.page.url()).not.toContain('/login');
    await again.page.goto(`${drill.appUrl}/?view=all`);
    expect(await hoursTile(again.page)).toBe(online);

    await again.page.getByRole('button', { name: /Sync details|Sync issues/ }).click();
    const storage = await again.page.locator('.storage-state').textContent();
    expect(storage).toMatch(/^Storage on this device: (kept by the browser|the browser may clear it)/);
    expect(again.errors).toEqual([]);
    console.log(`drill 7: ${storage}`);
  });
});
