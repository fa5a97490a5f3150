import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { SyncBarModel } from './support/pages.ts';

/**
 * Typing on a shop-floor tablet: labels, the keypad and the order Enter moves in. Touch
 * targets, whole values and no sideways scroll at every size are the every-route layout
 * suite's (layouts.test.ts).
 */
describe('a shop-floor tablet and every other screen size', () => {
  let e2e: E2E;
  let page: Page;

  beforeAll(async () => {
    e2e = await startE2E();
    ({ page } = await e2e.signedInPage('admin@example.com', { width: 1366, height: 900 }));
    // Let the first sync finish, so every screen has its figures to lay out.
    await new SyncBarModel(page).waitForSynced();
  });
  afterAll(() => e2e?.close());

  it('labels each day input visibly, takes decimals from the keypad, and moves in reading order with Enter', async () => {
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.goto(`${e2e.appUrl}/daily?month=2031-03`);
    const week = page.getByRole('region', { name: 'Week 2' });
    // On a tablet each day is a row of six inputs under visible column headings (read as
    // drawn: a week is drawn once the browser has placed it near the screen, entry.css).
    await expect
      .poll(async () => (await week.locator('.list-head').innerText()).split('\n').map((s) => s.trim()))
      .toEqual(['Day', 'CP Hours', 'CP Sales', 'W Hours', 'W Sales', 'I Hours', 'I Sales']);
    const first = page.getByLabel('CP Hours 2031-03-03');
    expect(await first.getAttribute('inputmode')).toBe('decimal');
    await first.click();
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('CP Sales 2031-03-03');
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('Enter');
    expect(await focused()).toBe('I Sales 2031-03-03');
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('CP Hours 2031-03-04');
    // Arrow down goes to the same input of the next day, in the list as on the calendar.
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('CP Hours 2031-03-05');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.getByLabel('CP Hours 2031-03-04').click();
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('W Hours 2031-03-04');
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('W Sales 2031-03-04');
  });

  it('opens on Today on a narrow screen, marks today in the grid, and keeps the One Page a link away', async () => {
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.goto(`${e2e.appUrl}/`);
    await page.waitForURL(/\/today/);
    await page.getByRole('heading', { name: 'Today', level: 1 }).waitFor();
    const today = await page.evaluate(() => {
      const d = new Date();
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    });
    const input = page.getByRole('group', { name: "Today's hours and sales" }).getByLabel(`CP Hours ${today}`);
    const box = await input.boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(56);
    await page.goto(`${e2e.appUrl}/daily`);
    await page.getByLabel(`CP Hours ${today}`).first().waitFor();
    expect(await page.locator('[aria-current="date"]').count()).toBe(1);
    await page.goto(`${e2e.appUrl}/?view=all`);
    await page.getByRole('region', { name: 'KPI Dashboard' }).waitFor();
    const manifest = (await (await fetch(`${e2e.appUrl}/manifest.webmanifest`)).json()) as { shortcuts?: Array<{ url: string }> };
    expect(manifest.shortcuts?.map((s) => s.url)).toContain('/today');
  });
});
