import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { untilScreenSettled } from './support/settled.ts';
import { frameProblems, scrollSettled, wheel } from './support/frame-checks.ts';
import { SyncBarModel } from './support/pages.ts';

/**
 * The frame around every screen: from 1024 px up the One Page scrolls under a sidebar and
 * sync bar that stay, and its quick jumps show whole sections; below that the sidebar folds
 * behind a Menu button that closes the way people expect, and a month control stays at
 * hand. That the frame is in view on every screen at every size, also scrolled, that the
 * Menu button keeps one size, and each load's layout shift are checked by the every-route,
 * every-size pass (layouts.test.ts), which loads those screens at those sizes anyway.
 */
const desktops = [
  { width: 1024, height: 768 },
  { width: 1366, height: 768 },
  { width: 1536, height: 864 },
  { width: 1920, height: 1080 },
] as const;
const narrow = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
] as const;
const quickJumps = [
  ['daily', 'Daily section of One Page'],
  ['weekly', 'Weekly section of One Page'],
  ['monthly-performance', 'Monthly section of One Page'],
  ['yearly-trend', 'Yearly section of One Page'],
] as const;

async function open(page: Page, appUrl: string, route: string) {
  await page.goto(`${appUrl}${route}${route.includes('?') ? '&' : '?'}month=2026-11`);
  await page.locator('main h1').first().waitFor();
  // Lazily loaded charts and live queries settle.
  await untilScreenSettled(page);
}

const sectionBox = (page: Page, id: string) =>
  page.evaluate((sectionId) => {
    const box = document.getElementById(sectionId)?.getBoundingClientRect();
    return box ? { left: box.left, top: box.top, right: box.right } : null;
  }, id);

/** Where the sidebar ends (x) and the sync bar's top bar ends (y). */
const frameEdges = (page: Page) =>
  page.evaluate(() => ({
    sidebarRight: document.querySelector('nav#sidebar')?.getBoundingClientRect().right ?? 0,
    topbarBottom: document.querySelector('.topbar')?.getBoundingClientRect().bottom ?? 0,
    width: innerWidth,
    height: innerHeight,
  }));

describe('the frame: sidebar, sync bar, menu and skip link', () => {
  let e2e: E2E;
  let page: Page;

  beforeAll(async () => {
    e2e = await startE2E();
    ({ page } = await e2e.signedInPage('admin@example.com', { width: 1366, height: 768 }));
    // The first sync fills the device, so every screen has its figures to lay out.
    await new SyncBarModel(page).waitForSynced();
  });
  afterAll(() => e2e?.close());

  for (const size of desktops) {
    it(`lets the One Page scroll under a frame that stays, and each quick jump shows its whole section at ${size.width} x ${size.height}`, async () => {
      await page.setViewportSize(size);
      await open(page, e2e.appUrl, '/?view=all');
      const before = await sectionBox(page, 'yearly-trend-section');
      await wheel(page, 0, 600);
      await wheel(page, 3000, 0);
      const after = await sectionBox(page, 'yearly-trend-section');
      // The wheel did move the sections (down and to the left), and the frame did not go with them.
      expect(after && before && after.left < before.left - 100 && after.top < before.top).toBe(true);
      expect(await frameProblems(page)).toEqual([]);
      for (const [section, link] of quickJumps) {
        await page.getByRole('link', { name: link }).click();
        await page.waitForURL((url) => url.searchParams.get('section') === section);
        const placed = async () => {
          const box = await sectionBox(page, `${section}-section`);
          const edges = await frameEdges(page);
          if (!box) return 'no section';
          const where = `left ${Math.round(box.left)} top ${Math.round(box.top)} (sidebar ends ${Math.round(edges.sidebarRight)}, sync bar ends ${Math.round(edges.topbarBottom)})`;
          const inView = box.left >= edges.sidebarRight && box.left < edges.width - 200 && box.top >= edges.topbarBottom && box.top < edges.height - 200;
          return inView ? 'in view' : where;
        };
        await expect.poll(placed, { timeout: 5000 }).toBe('in view');
        await scrollSettled(page);
        expect(await placed()).toBe('in view');
        expect((await frameProblems(page)).map((p) => `after ${section}: ${p}`)).toEqual([]);
        await e2e.screenshot(page, `frame-one-page-${section}-${size.width}`);
      }
    });
  }

  for (const size of narrow) {
    it(`folds the sidebar behind a Menu that closes on Escape, outside and on choosing, at ${size.width} x ${size.height}`, async () => {
      await page.setViewportSize(size);
      const menu = page.getByRole('button', { name: 'Menu' });
      const nav = page.getByRole('navigation', { name: 'Main' });
      await open(page, e2e.appUrl, '/daily');
      await e2e.screenshot(page, `frame-daily-${size.width}`);

      expect(await nav.isVisible()).toBe(false);
      await menu.click();
      expect(await nav.isVisible()).toBe(true);
      await e2e.screenshot(page, `frame-menu-open-${size.width}`);
      await page.keyboard.press('Escape');
      await expect.poll(() => nav.isVisible()).toBe(false);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Menu');

      await menu.click();
      expect(await nav.isVisible()).toBe(true);
      await page.mouse.click(size.width - 12, Math.round(size.height * 0.6));
      await expect.poll(() => nav.isVisible()).toBe(false);

      await menu.click();
      await nav.getByRole('link', { name: 'Weekly', exact: true }).click();
      await page.waitForURL(/\/weekly/);
      await expect.poll(() => nav.isVisible()).toBe(false);
    });

    it(`offers a month control without opening the menu on screens that have none of their own at ${size.width} x ${size.height}`, async () => {
      await page.setViewportSize(size);
      for (const route of ['/yearly', '/weekly', '/settings', '/front-end-team']) {
        await open(page, e2e.appUrl, route);
        const month = page.getByRole('group', { name: 'Month', exact: true });
        await expect.poll(() => month.count(), { message: route }).toBe(1);
        expect(await month.locator('span').textContent()).toBe('November 2026');
        await month.getByRole('button', { name: 'Next' }).click();
        await expect.poll(() => new URL(page.url()).searchParams.get('month'), { message: route }).toBe('2026-12');
      }
    });
  }

  it('starts the keyboard at a skip link that moves focus to the screen itself', async () => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await open(page, e2e.appUrl, '/daily');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    const box = await skip.boundingBox();
    expect(box && box.width > 20 && box.height > 20 && box.x >= 0 && box.y >= 0).toBe(true);
    await e2e.screenshot(page, 'frame-skip-link-1920');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')) && document.activeElement !== document.querySelector('main'))).toBe(true);
  });
});
