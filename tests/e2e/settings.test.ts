import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';

describe('Settings', () => {
  let e2e: E2E;
  let page: Page;
  const server = async (sql: string, params: unknown[] = []) => (await e2e.stack.database.query(sql, params)).rows;

  beforeAll(async () => {
    e2e = await startE2E();
    page = (await e2e.signedInPage('manager@example.com')).page;
  });
  afterAll(() => e2e?.close());

  it('saves a month’s targets, keeps them across a reload, and sends them to the server', async () => {
    await page.goto(`${e2e.appUrl}/settings?month=2031-03`);
    await page.getByRole('heading', { name: 'Targets for March 2031' }).waitFor();
    expect(await page.getByLabel('Sales Per Day').inputValue()).toBe('17500'); // the default, nothing stored yet
    await page.getByLabel('CP ELR').fill('192.5');
    // Shown, not typed: March 2031 has 31 days, five of them Sundays (the default pattern closes them).
    expect(await page.getByLabel('Work Days in Month').textContent()).toBe('26');
    await page.getByRole('button', { name: 'Save Targets' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Targets saved successfully!' }).count()).toBe(1);
    await e2e.screenshot(page, 'settings-targets');

    await page.reload();
    await page.getByRole('heading', { name: 'Targets for March 2031' }).waitFor();
    expect(await page.getByLabel('CP ELR').inputValue()).toBe('192.5');
    await page.getByRole('button', { name: 'Save Targets' }).click();
    await expect.poll(() => page.getByText('No changes to save.').count()).toBe(1);

    await expect
      .poll(() => server(`select metric_key, target_value::text as value from monthly_targets where store_id = $1 and year = 2031 and month = 3 order by 1`, [demo.storeA]), { timeout: 15_000 })
      .toEqual([
        { metric_key: 'cpElr', value: '192.50' },
        { metric_key: 'cpHoursPerRo', value: '2.50' },
        { metric_key: 'grossPerEmployee', value: null },
        { metric_key: 'hoursPerDay', value: '100.00' },
        { metric_key: 'internalElr', value: '180.00' },
        { metric_key: 'rosOver30Days', value: null },
        { metric_key: 'rosOver45Days', value: null },
        { metric_key: 'salesPerDay', value: '17500.00' },
        { metric_key: 'shopSupplies', value: null },
        // Empty: the category targets weighted by the month's hours.
        { metric_key: 'totalElr', value: null },
        { metric_key: 'warrantyElr', value: '180.00' },
        { metric_key: 'weOweOver30Days', value: null },
      ]);
  });

  it('refuses a store setting that is not a whole number and saves nothing', async () => {
    await page.getByRole('tab', { name: 'Service Overview Settings' }).click();
    const stalls = page.getByLabel('Stalls');
    const before = await stalls.inputValue();
    await stalls.fill('2.5');
    await page.getByLabel('Labour Rate').fill('199.99');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toEqual(['Stalls: enter a whole number from 0 to 1,000.', 'Nothing was saved: one field needs correcting.']);
    expect((await server('select stalls, labour_rate::text as rate from store_settings where store_id = $1', [demo.storeA]))[0]).toEqual({
      stalls: Number(before),
      rate: '189.95',
    });
    await stalls.fill('26');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect.poll(() => page.getByText('Store settings saved successfully!').count()).toBe(1);
  });

  it('shows a KPI order chosen in one browser in another browser of the same person, without a reload', async () => {
    const second = (await e2e.signedInPage('manager@example.com')).page;
    await second.goto(`${e2e.appUrl}/settings`);
    await second.getByRole('tab', { name: 'Dashboard KPIs' }).click();
    await second.getByRole('heading', { name: 'Dashboard KPIs' }).waitFor();

    await page.getByRole('tab', { name: 'Dashboard KPIs' }).click();
    await page.getByRole('checkbox', { name: 'Work Mix' }).uncheck();
    await page.getByRole('button', { name: 'Move Total ELR up' }).click();
    await page.getByRole('button', { name: 'Save Dashboard KPIs' }).click();
    await expect.poll(() => page.getByText('Dashboard preferences saved.').count()).toBe(1);

    const labels = (p: Page) => p.locator('.kpi-choices li label').allTextContents();
    const expected = await labels(page);
    expect(expected.slice(5, 7)).toEqual(['Total ELR', 'Internal ELR']);
    await expect.poll(() => labels(second), { timeout: 20_000 }).toEqual(expected);
    expect(await second.getByRole('checkbox', { name: 'Work Mix' }).isChecked()).toBe(false);
  });

  it('keeps a target being typed when another device changes the same month', async () => {
    await page.goto(`${e2e.appUrl}/settings?month=2031-03`);
    await page.getByRole('heading', { name: 'Targets for March 2031' }).waitFor();
    await page.getByLabel('Hours Per Day').fill('111');
    // Another device saves a different target of the month; sync brings it here mid-entry.
    await server(`update monthly_targets set target_value = 205 where store_id = $1 and year = 2031 and month = 3 and metric_key = 'cpElr'`, [demo.storeA]);
    await expect.poll(() => page.getByLabel('CP ELR').inputValue(), { timeout: 20_000 }).toBe('205');
    expect(await page.getByLabel('Hours Per Day').inputValue()).toBe('111');

    await page.getByRole('button', { name: 'Save Targets' }).click();
    await page.getByText('Targets saved successfully!').waitFor();
    const stored = () => server(`select metric_key, target_value::text as value from monthly_targets where store_id = $1 and year = 2031 and month = 3 and metric_key in ('cpElr', 'hoursPerDay') order by 1`, [demo.storeA]);
    await expect.poll(stored, { timeout: 15_000 }).toEqual([
      { metric_key: 'cpElr', value: '205.00' },
      { metric_key: 'hoursPerDay', value: '111.00' },
    ]);
  });

  it('keeps an unsaved KPI choice when another device saves a different one, and the later save wins', async () => {
    const second = (await e2e.signedInPage('manager@example.com')).page;
    const secondDashboard = await second.context().newPage();
    await second.goto(`${e2e.appUrl}/settings`);
    await second.getByRole('tab', { name: 'Dashboard KPIs' }).click();
    // Start from the saved choice of the test before (Work Mix off), then change it unsaved.
    await expect.poll(() => second.getByRole('checkbox', { name: 'Work Mix' }).isChecked(), { timeout: 20_000 }).toBe(false);
    await second.getByRole('checkbox', { name: 'Shop Supplies' }).uncheck();

    await page.goto(`${e2e.appUrl}/settings`);
    await page.getByRole('tab', { name: 'Dashboard KPIs' }).click();
    await page.getByRole('button', { name: 'Move Sales Per Day up' }).click();
    await page.getByRole('button', { name: 'Save Dashboard KPIs' }).click();
    await page.getByText('Dashboard preferences saved.').waitFor();

    // The second device has the first one's choice (its dashboard shows it), yet its own edit stays.
    const tiles = () => secondDashboard.locator('.kpi-row').first().locator('article').evaluateAll((all) => all.map((t) => t.getAttribute('aria-label')));
    await secondDashboard.goto(`${e2e.appUrl}/`);
    await expect.poll(async () => (await tiles()).slice(0, 3), { timeout: 20_000 }).toEqual(['Month Complete', 'Sales Per Day', 'Hours Per Day']);
    const secondLabels = await second.locator('.kpi-choices li label').allTextContents();
    expect(secondLabels.slice(0, 3)).toEqual(['Month Complete', 'Hours Per Day', 'Sales Per Day']);
    expect(await second.getByRole('checkbox', { name: 'Shop Supplies' }).isChecked()).toBe(false);

    await second.getByRole('button', { name: 'Save Dashboard KPIs' }).click();
    await second.getByText('Dashboard preferences saved.').waitFor();
    await expect.poll(() => page.getByRole('checkbox', { name: 'Shop Supplies' }).isChecked(), { timeout: 20_000 }).toBe(false);
  });
});
