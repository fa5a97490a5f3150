import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { untilScreenSettled } from './support/settled.ts';

/**
 * Every screen at the sizes a store uses: a tablet upright and on its side, a laptop and a
 * desktop. Measured in the page: touch targets, values that fit their inputs, no sideways
 * page scroll on a tablet held upright. A screenshot of each lands in test-results/screenshots.
 */
const sizes = [
  { name: 'tablet-portrait', width: 768, height: 1024, tablet: true },
  { name: 'tablet-landscape', width: 1024, height: 768, tablet: true },
  { name: 'laptop', width: 1366, height: 900, tablet: false },
  { name: 'desktop', width: 1920, height: 1080, tablet: false },
] as const;

const routes = ['/today', '/?view=all', '/daily', '/daily-weekly', '/weekly', '/monthly', '/yearly', '/service-overview', '/front-end-team', '/settings', '/admin'];

type Measured = { small: string[]; truncated: string[]; pageWidth: number; viewport: number };

/** Controls under 44 px either way, inputs whose value is wider than the box, and how wide the page is. */
function measure(page: Page): Promise<Measured> {
  return page.evaluate(() => {
    const name = (el: Element) => el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 40) ?? el.tagName;
    const visible = (el: Element) => {
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && !el.closest('[aria-hidden="true"]');
    };
    const small: string[] = [];
    for (const el of document.querySelectorAll('button, input, select, a.sidebar-link, .sidebar a')) {
      if (!visible(el)) continue;
      const box = el.getBoundingClientRect();
      if (box.width < 43.5 || box.height < 43.5) small.push(`${el.tagName.toLowerCase()} "${name(el)}" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
    const truncated: string[] = [];
    for (const input of document.querySelectorAll('input')) {
      if (!visible(input) || input.type === 'checkbox' || input.type === 'date' || input.type === 'month') continue;
      if (input.scrollWidth > input.clientWidth + 1) truncated.push(`"${name(input)}" holds "${input.value}" (${input.scrollWidth} > ${input.clientWidth})`);
    }
    return { small, truncated, pageWidth: document.documentElement.scrollWidth, viewport: window.innerWidth };
  });
}

describe('a shop-floor tablet and every other screen size', () => {
  let e2e: E2E;
  let page: Page;

  beforeAll(async () => {
    e2e = await startE2E();
    ({ page } = await e2e.signedInPage('admin@example.com', { width: 1366, height: 900 }));
    // Let the first sync finish, so every screen has its figures to lay out.
    await page.getByText(/^Last synced \d/).waitFor({ timeout: 60_000 });
  });
  afterAll(() => e2e?.close());

  for (const size of sizes) {
    it(`fits every screen at ${size.width} x ${size.height} (${size.name})`, async () => {
      await page.setViewportSize({ width: size.width, height: size.height });
      const problems: string[] = [];
      for (const route of routes) {
        await page.goto(`${e2e.appUrl}${route}`);
        await page.locator('main h1').first().waitFor();
        // Lazily loaded charts and live queries settle.
        await untilScreenSettled(page);
        const measured = await measure(page);
        if (size.tablet) problems.push(...measured.small.map((s) => `${route}: small target ${s}`));
        problems.push(...measured.truncated.map((s) => `${route}: truncated ${s}`));
        if (size.width === 768 && measured.pageWidth > measured.viewport) problems.push(`${route}: the page scrolls sideways (${measured.pageWidth} > ${measured.viewport})`);
        const file = `${route === '/?view=all' ? 'one-page' : route.slice(1)}-${size.width}x${size.height}`;
        await page.screenshot({ path: await e2e.screenshotPath(`layout-${file}`), fullPage: true });
      }
      expect(problems).toEqual([]);
    });
  }

  it('labels each day input visibly, takes decimals from the keypad, and moves in reading order with Enter', async () => {
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.goto(`${e2e.appUrl}/daily?month=2031-03`);
    const week = page.getByRole('region', { name: 'Week 2' });
    // On a tablet each day is a row of six inputs under visible column headings.
    expect((await week.locator('.list-head').innerText()).split('\n').map((s) => s.trim())).toEqual(['Day', 'CP Hours', 'CP Sales', 'W Hours', 'W Sales', 'I Hours', 'I Sales']);
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
