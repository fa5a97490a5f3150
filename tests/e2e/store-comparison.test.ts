/**
 * Store comparison: an admin sees every store side by side for the month, sorts by any
 * column, and still sees the last comparison offline with its age; a user is refused
 * (the screen says so, and the database refuses the call itself).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { offlineFailures } from './support/browser.ts';
import { SyncBarModel } from './support/pages.ts';

describe('store comparison', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it('lists every store for an admin, sorts by a column, and shows the last copy offline with its age', async () => {
    const { page, context } = await e2e.signedInPage('admin@example.com', { width: 1920, height: 1080 });
    await new SyncBarModel(page).waitForSynced();
    const month = new Date().toISOString().slice(0, 7);
    await page.goto(`${e2e.appUrl}/compare?month=${month}`);
    const table = page.getByRole('table', { name: 'Stores compared' });
    const names = () => table.locator('tbody th').allTextContents();
    await expect.poll(names, { timeout: 20_000 }).toEqual(['Demo Motors', 'Northside Auto Service']);
    await page.getByText(/as of .+ \(just now\)/).waitFor();

    // Hours per day, highest first: the busier store leads.
    const hours = async () => (await table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.querySelectorAll('td')[0]?.textContent ?? '')));
    await table.getByRole('button', { name: 'Hours / Day' }).click();
    const first = (await hours()).map((text) => Number(text.replace(/[^0-9.]/g, '')));
    expect(first[0]).toBeGreaterThanOrEqual(first[1] ?? 0);
    await table.getByRole('button', { name: 'Hours / Day' }).click();
    const second = (await hours()).map((text) => Number(text.replace(/[^0-9.]/g, '')));
    expect(second).toEqual([...first].reverse());

    // Offline on purpose: the browser logs the requests it cannot make.
    e2e.expectConsoleErrors(offlineFailures);
    await context.setOffline(true);
    await page.reload();
    await expect.poll(names, { timeout: 20_000 }).toEqual(['Demo Motors', 'Northside Auto Service']);
    await page.getByText('Offline: showing the last comparison read.').waitFor();
    await page.getByText(/as of .+ \((just now|\d+ minutes? ago)\)/).waitFor();
    // Its offline browser goes, so its failing requests are not logged during the next test.
    await context.close();
  });

  it('refuses a user who is not an admin', async () => {
    const { page } = await e2e.signedInPage('manager@example.com');
    await page.goto(`${e2e.appUrl}/compare`);
    await page.getByText("You don't have permission to access this area.").waitFor();
    const client = await e2e.stack.signIn('manager@example.com');
    const { error } = await client.rpc('store_comparison', { p_month: '2026-01-01' });
    expect(error?.code).toBe('42501');
  });
});
