import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { until } from '../support/poll.ts';
import { untilScreenSettled } from './support/settled.ts';
import { SyncBarModel } from './support/pages.ts';

/**
 * The frame around every screen: from 1024 px up the sidebar (month, links, theme,
 * logout) and the sync bar stay in view however the page scrolls; below that the
 * sidebar folds behind a Menu button of fixed size that closes the way people expect.
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
const framedRoutes = ['/daily', '/yearly', '/weekly', '/settings', '/front-end-team', '/?view=all'];
const quickJumps = [
  ['daily', 'Daily section of One Page'],
  ['weekly', 'Weekly section of One Page'],
  ['monthly-performance', 'Monthly section of One Page'],
  ['yearly-trend', 'Yearly section of One Page'],
] as const;

const fileName = (route: string) => (route === '/?view=all' ? 'one-page' : route.slice(1));

async function open(page: Page, appUrl: string, route: string) {
  await page.goto(`${appUrl}${route}${route.includes('?') ? '&' : '?'}month=2026-11`);
  await page.locator('main h1').first().waitFor();
  // Lazily loaded charts and live queries settle.
  await untilScreenSettled(page);
}

/**
 * What of the frame is not wholly inside the window, or is covered by something else at
 * its centre: the sidebar, its month control, theme toggle and logout, and the sync bar.
 */
function frameProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const check = (label: string, el: Element | null | undefined) => {
      if (!el) return void problems.push(`${label}: missing`);
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) return void problems.push(`${label}: not shown`);
      if (box.left < -0.5 || box.top < -0.5 || box.right > innerWidth + 0.5 || box.bottom > innerHeight + 0.5) {
        return void problems.push(`${label}: at ${Math.round(box.left)},${Math.round(box.top)}-${Math.round(box.right)},${Math.round(box.bottom)} outside ${innerWidth}x${innerHeight}`);
      }
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (!hit || !(el === hit || el.contains(hit))) problems.push(`${label}: covered by ${hit?.tagName ?? 'nothing'}.${hit?.className ?? ''}`);
    };
    const sidebar = document.querySelector('nav#sidebar');
    check('sidebar', sidebar);
    const buttons = [...(sidebar?.querySelectorAll('button') ?? [])];
    check('sidebar month control', sidebar?.querySelector('[role="group"][aria-label="Month"]'));
    check('theme toggle', buttons.find((b) => /mode$/.test(b.textContent ?? '')));
    check('logout', buttons.find((b) => b.textContent === 'Logout'));
    check('sync bar', document.querySelector('.sync-indicator'));
    check('Sync now', [...document.querySelectorAll('.sync-indicator button')].find((b) => /^Sync(ing)? ?now|Syncing/.test(b.textContent ?? '')));
    return problems;
  });
}

/** Scrolls the way a person does, with the wheel over the screen's content. */
async function wheel(page: Page, dx: number, dy: number) {
  const size = page.viewportSize() ?? { width: 1366, height: 768 };
  await page.mouse.move(Math.round(size.width * 0.7), Math.round(size.height * 0.6));
  await page.mouse.wheel(dx, dy);
  await scrollSettled(page);
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

/** Waits until a smooth scroll has come to rest (two equal readings in a row, 150 ms apart). */
async function scrollSettled(page: Page) {
  let last = '';
  await until(
    () => page.evaluate(() => `${scrollX},${scrollY},${document.querySelector('main')?.scrollLeft},${document.querySelector('main')?.scrollTop}`),
    (now) => {
      const still = now === last;
      last = now;
      return still;
    },
    6_000,
    'the scroll at rest',
    150,
  );
}

/** Layout shift of a fresh load, summed over every shift not caused by input (Chromium's PerformanceObserver). */
async function layoutShiftOf(page: Page, url: string): Promise<number> {
  await page.goto(url);
  await page.locator('main h1').first().waitFor();
  // Shifts are counted until the screen has been still for a whole second.
  await untilScreenSettled(page, { quietMs: 1000 });
  return page.evaluate(() => (window as unknown as { __layoutShift: number }).__layoutShift);
}

describe('the frame: sidebar, sync bar, menu and skip link', () => {
  let e2e: E2E;
  let page: Page;

  beforeAll(async () => {
    e2e = await startE2E();
    ({ page } = await e2e.signedInPage('admin@example.com', { width: 1366, height: 768 }));
    await page.context().addInitScript(() => {
      const w = window as unknown as { __layoutShift: number };
      w.__layoutShift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
          if (!entry.hadRecentInput) w.__layoutShift += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    // The first sync fills the device, so every screen has its figures to lay out.
    await new SyncBarModel(page).waitForSynced();
  });
  afterAll(() => e2e?.close());

  for (const size of desktops) {
    it(`keeps the sidebar and sync bar in view on every screen at ${size.width} x ${size.height}, scrolled down and sideways`, async () => {
      await page.setViewportSize(size);
      const problems: string[] = [];
      for (const route of framedRoutes) {
        await open(page, e2e.appUrl, route);
        problems.push(...(await frameProblems(page)).map((p) => `${route} on load: ${p}`));
        await e2e.screenshot(page, `frame-${fileName(route)}-${size.width}`);
        await wheel(page, 0, 4000);
        problems.push(...(await frameProblems(page)).map((p) => `${route} scrolled down: ${p}`));
        await wheel(page, 4000, 0);
        problems.push(...(await frameProblems(page)).map((p) => `${route} scrolled sideways: ${p}`));
      }
      expect(problems).toEqual([]);
    });

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
    it(`folds the sidebar behind a Menu of one size that closes on Escape, outside and on choosing, at ${size.width} x ${size.height}`, async () => {
      await page.setViewportSize(size);
      const menu = page.getByRole('button', { name: 'Menu' });
      const nav = page.getByRole('navigation', { name: 'Main' });
      const sizes: string[] = [];
      for (const route of ['/admin', '/compare', '/service-overview', '/daily']) {
        await open(page, e2e.appUrl, route);
        const box = await menu.boundingBox();
        sizes.push(`${Math.round(box?.width ?? 0)}x${Math.round(box?.height ?? 0)}`);
        await e2e.screenshot(page, `frame-${route.slice(1)}-${size.width}`);
      }
      expect(new Set(sizes).size, sizes.join(', ')).toBe(1);
      expect(Number(sizes[0]?.split('x')[1])).toBeLessThanOrEqual(48);

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

  it.each([
    { route: '/daily', width: 1366, height: 768 },
    { route: '/daily', width: 390, height: 844 },
    { route: '/?view=all', width: 1366, height: 768 },
    { route: '/?view=all', width: 1920, height: 1080 },
  ])('loads $route at $width px with a layout shift under 0.1', async ({ route, width, height }) => {
    await page.setViewportSize({ width, height });
    const shift = await layoutShiftOf(page, `${e2e.appUrl}${route}${route.includes('?') ? '&' : '?'}month=2026-11`);
    expect(shift).toBeLessThan(0.1);
  });
});
