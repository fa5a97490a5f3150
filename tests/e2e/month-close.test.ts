/**
 * Who changed a number, and closing a month. A cell's history lists every change the
 * server recorded, with who, the device and when. Closing a month: a manager closes it after review, the header says who closed it and
 * when, its grid stops taking entries, an admin can reopen it; and an edit typed offline
 * for a month closed meanwhile lands in the refused list with the reason, for export.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { offlineFailures, refusedWith } from './support/browser.ts';
import { SyncBarModel } from './support/pages.ts';

describe('closing a month', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it('closes a month from its header, shows who closed it, stops its grid, and lets only an admin reopen it', async () => {
    const { page } = await e2e.signedInPage('manager@example.com', { width: 1366, height: 900 });
    await new SyncBarModel(page).waitForSynced();
    await page.goto(`${e2e.appUrl}/daily?month=2032-02`);
    const status = page.getByRole('group', { name: 'Month status' });
    await status.getByText('Open').waitFor();
    await status.getByRole('button', { name: 'Close month' }).click();
    await status.getByRole('button', { name: 'Close February 2032' }).click();
    await status.getByText(/^Closed by .+ on \d{4}-\d{2}-\d{2}$/).waitFor({ timeout: 30_000 });
    expect(await page.getByLabel('CP Hours 2032-02-02').isDisabled()).toBe(true);
    expect(await status.getByRole('button', { name: 'Reopen month' }).count()).toBe(0);
    const { rows } = await e2e.stack.database.query<{ closed: boolean; by: string }>(
      `select closed, closed_by::text as by from month_closures where store_id = $1 and month_start = '2032-02-01'`,
      [demo.storeA],
    );
    expect(rows).toEqual([{ closed: true, by: demo.managerId }]);

    const admin = await e2e.signedInPage('admin@example.com', { width: 1366, height: 900 });
    await new SyncBarModel(admin.page).waitForSynced();
    await admin.page.goto(`${e2e.appUrl}/monthly?month=2032-02`);
    await admin.page.getByRole('group', { name: 'Month status' }).getByRole('button', { name: 'Reopen month' }).click();
    await status.getByText('Open').waitFor({ timeout: 30_000 });
    expect(await page.getByLabel('CP Hours 2032-02-02').isDisabled()).toBe(false);
  });

  it("shows a cell's history: each change with who made it, on which device, typed and arrived", async () => {
    const { page } = await e2e.signedInPage('manager@example.com', { width: 1366, height: 900 });
    await new SyncBarModel(page).waitForSynced();
    await page.goto(`${e2e.appUrl}/daily?month=2032-05`);
    const input = page.getByLabel('I Hours 2032-05-04');
    for (const value of ['3', '4.5']) {
      await input.fill(value);
      await input.press('Tab');
      await expect.poll(async () => (await e2e.stack.database.query(`select value::text as v from daily_inputs where store_id = $1 and entry_date = '2032-05-04' and row_identifier = 'I'`, [demo.storeA])).rows, { timeout: 20_000 }).toEqual([{ v: value === '3' ? '3.00' : '4.50' }]);
    }
    await input.focus();
    await page.getByRole('button', { name: 'History of I Hours 2032-05-04' }).click();
    const changes = page.getByRole('region', { name: 'Cell history' }).locator('ol.history li');
    await expect.poll(() => changes.allTextContents(), { timeout: 10_000 }).toHaveLength(2);
    const [newest, first] = await changes.allTextContents();
    expect(newest).toMatch(/^3 → 4\.5 by .+ on device-[0-9a-f-]{36}, typed .+, arrived .+$/);
    expect(first).toMatch(/^empty → 3 by .+ on device-/);

    // A monthly table entry has its history too.
    await page.goto(`${e2e.appUrl}/monthly?month=2032-05`);
    const gross = page.getByLabel('Gross WARRANTY');
    await gross.fill('1234');
    await gross.press('Tab');
    await expect.poll(async () => (await e2e.stack.database.query(`select gross_value::text as v from monthly_labor_gross_inputs where store_id = $1 and month_year = '2032-05-01' and labor_type = 'warranty'`, [demo.storeA])).rows, { timeout: 20_000 }).toEqual([{ v: '1234.00' }]);
    await gross.focus();
    await page.getByRole('button', { name: 'History of Gross WARRANTY' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Cell history' }).locator('ol.history li').allTextContents(), { timeout: 10_000 }).toEqual([
      expect.stringMatching(/^empty → 1234 by .+ on device-/),
    ]);

    // So has an advisor's figure.
    await page.goto(`${e2e.appUrl}/front-end-team?month=2032-05`);
    const days = page.getByLabel(/^Days Worked /).first();
    const label = (await days.getAttribute('aria-label')) ?? '';
    await days.fill('12');
    await days.press('Tab');
    await expect.poll(async () => (await e2e.stack.database.query(`select days_worked::text as v from front_end_team_daily_performance where store_id = $1 and entry_date = '2032-05-01'`, [demo.storeA])).rows, { timeout: 20_000 }).toEqual([{ v: '12.00' }]);
    await days.focus();
    await page.getByRole('button', { name: `History of ${label}` }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Cell history' }).locator('ol.history li').allTextContents(), { timeout: 10_000 }).toEqual([
      expect.stringMatching(/^empty → 12 by .+ on device-/),
    ]);
  });

  it('puts an offline edit to a month closed meanwhile in the refused list, with who closed it and when', async () => {
    const { page, context } = await e2e.signedInPage('manager@example.com', { width: 1366, height: 900 });
    await new SyncBarModel(page).waitForSynced();
    await page.goto(`${e2e.appUrl}/daily?month=2032-03`);
    // Offline on purpose, then the server refuses the edit to the closed month (400).
    e2e.expectConsoleErrors(offlineFailures, refusedWith(400));
    await context.setOffline(true);
    const input = page.getByLabel('W Sales 2032-03-03');
    await input.fill('2500');
    await input.press('Tab');

    // Meanwhile, on another device, the month is closed.
    const elsewhere = await e2e.stack.signIn('manager@example.com');
    const { error } = await elsewhere.from('month_closures').insert({ store_id: demo.storeA, month_start: '2032-03-01', year: 2032, closed: true });
    expect(error).toBeNull();

    await context.setOffline(false);
    const issues = page.getByRole('button', { name: /^Sync issues \(\d+\)$/ });
    await issues.waitFor({ timeout: 30_000 });
    await issues.click();
    const refused = page.getByRole('region', { name: 'Sync details' }).locator('ul.refusals li');
    await expect.poll(() => refused.first().textContent(), { timeout: 10_000 }).toMatch(
      /This edit was not saved on the server: the month closed by .+ on \d{4}-\d{2}-\d{2}\. An administrator can reopen the month; export the edit to keep it\./,
    );
    const { rows } = await e2e.stack.database.query(`select 1 from daily_inputs where store_id = $1 and entry_date = '2032-03-03'`, [demo.storeA]);
    expect(rows).toEqual([]);
  });
});
