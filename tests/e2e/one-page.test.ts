import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';

describe('One Page and the KPI dashboard', () => {
  let e2e: E2E;
  let page: Page;
  const tileTitles = () => page.locator('.one-page .kpi-row').first().locator('article').evaluateAll((tiles) => tiles.map((t) => t.getAttribute('aria-label')));

  beforeAll(async () => {
    e2e = await startE2E();
    ({ page } = await e2e.signedInPage('manager@example.com', { width: 1600, height: 1000 }));
  });
  afterAll(() => e2e?.close());

  it('shows all twelve tiles in the default order, and the last three months behind Actual', async () => {
    await page.goto(`${e2e.appUrl}/?month=2026-11`);
    await page.getByRole('heading', { name: 'KPI Dashboard' }).waitFor();
    expect(await tileTitles()).toEqual([
      'Month Complete', 'Hours Per Day', 'Sales Per Day', 'CP ELR', 'Warranty ELR', 'Internal ELR', 'Total ELR',
      'CP Hours Per RO', 'ROs Over 30 Days', 'Due Bills Over 30 Days', 'Shop Supplies', 'Work Mix',
    ]);
    const cpElr = page.getByRole('article', { name: 'CP ELR' }).first();
    await cpElr.getByRole('button', { name: /^Actual:/ }).hover();
    const tooltip = cpElr.getByRole('tooltip');
    expect(await tooltip.textContent()).toContain('Last 3 Months (Actual)');
    expect(await tooltip.locator('li').allTextContents()).toHaveLength(3);
    expect((await tooltip.locator('li').first().textContent())?.startsWith('October 2026: $')).toBe(true);
    await e2e.screenshot(page, 'one-page-dark');
  });

  it('reorders tiles from the keyboard and saves the order for the person', async () => {
    const handle = page.getByRole('button', { name: 'Move Hours Per Day' });
    // Each key waits for what dnd-kit tells a screen reader it did (its live region), so the
    // next one lands on a drag in the state that key expects.
    const announced = () => page.locator('[id^="DndLiveRegion-"]').textContent();
    await handle.focus();
    await page.keyboard.press('Space');
    await expect.poll(announced).toMatch(/was moved over droppable area hoursPerDay\.$/);
    // A person's pause before the arrow: dnd-kit measures the other tiles after the pick-up
    // and shows no sign of having done so; an arrow before that moves nothing.
    await page.waitForTimeout(250);
    await page.keyboard.press('ArrowRight');
    await expect.poll(announced).toMatch(/was moved over droppable area salesPerDay\.$/);
    await page.keyboard.press('Space');
    await expect.poll(announced).toMatch(/was dropped over droppable area salesPerDay$/);
    await expect.poll(async () => (await tileTitles()).slice(0, 3)).toEqual(['Month Complete', 'Sales Per Day', 'Hours Per Day']);
    const saved = async () =>
      (await e2e.stack.database.query<{ order: string[] | string }>(`select kpi_order as order from user_dashboard_preferences where user_id = $1`, [demo.managerId])).rows.map((r) =>
        Array.isArray(r.order) ? r.order.slice(0, 3) : String(r.order),
      );
    await expect.poll(saved, { timeout: 20_000 }).toEqual([['monthComplete', 'salesPerDay', 'hoursPerDay']]);
  });

  it('scrolls to the section the sidebar asked for', async () => {
    const left = () => page.evaluate(() => Math.round(document.getElementById('yearly-trend-section')?.getBoundingClientRect().left ?? 9999));
    await page.goto(`${e2e.appUrl}/?month=2026-11`);
    await page.getByRole('heading', { name: 'Yearly Trend' }).waitFor();
    expect(await left()).toBeGreaterThan(1600); // off to the right, out of view
    await page.goto(`${e2e.appUrl}/?month=2026-11&section=yearly-trend`);
    await page.getByRole('heading', { name: 'Yearly Trend' }).waitFor();
    // In view once scrolled (the last section can only come as far as the page's end allows).
    await expect.poll(left, { timeout: 5000 }).toBeLessThan(1000);
  });

  it('says how to choose tiles when none are selected', async () => {
    await page.goto(`${e2e.appUrl}/settings`);
    await page.getByRole('tab', { name: 'Dashboard KPIs' }).click();
    // The choices appear once the device database has answered; until then there is nothing to uncheck.
    await expect.poll(() => page.getByRole('checkbox').count()).toBe(12);
    for (const box of await page.getByRole('checkbox').all()) await box.uncheck();
    await page.getByRole('button', { name: 'Save Dashboard KPIs' }).click();
    await page.getByText('Dashboard preferences saved.').waitFor();
    await page.goto(`${e2e.appUrl}/`);
    await expect
      .poll(() => page.getByText('No KPI containers selected. Go to Settings → Dashboard KPIs to choose which containers to display.').count())
      .toBe(1);
  });
});
