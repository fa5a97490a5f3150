import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameProblemsScrolled } from './support/frame-checks.ts';
import { checkReachable, frameInView, layoutShift, pageOverflow, recordLayoutShifts, smallTargets } from './support/layout-checks.ts';
import { untilScreenSettled } from './support/settled.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { SyncBarModel } from './support/pages.ts';
import { screenshotDir } from './support/screenshots.ts';

/**
 * Every route at the sizes the stores use, from an advisor's phone to a manager's desktop,
 * signed in as the demo admin (store A's manager, with its demo figures synced):
 * - everything a person must reach (inputs, buttons, links, selects, table headings) can be
 *   scrolled into view whole and is not covered by the sidebar, a sticky bar or a toast;
 *   inputs show their whole value;
 * - the page does not scroll sideways, except the One Page's 4,200 px row on a desktop
 *   (the Front End Team sections scroll inside their own box, not the page);
 * - from 1024 px up the sidebar and the sync bar are in view, also scrolled to the page's
 *   end; on the screens with the most to scroll, the whole frame (the sidebar's month
 *   control, theme toggle and logout, the sync bar's Sync now) stays in view while the
 *   wheel scrolls the content far down and far sideways;
 * - below 1024 px the Menu button is in view at the top of the page, and of one size on
 *   every screen, no taller than 48 px;
 * - the layout shifts less than 0.1 in all from load until it has settled (still for a
 *   whole second on the screens people open first: Daily at 390 and 1366 px, the One Page
 *   at 1366 and 1920 px);
 * - on a tablet (768 and 1024 px) every control is at least 44 px either way.
 * A full-page screenshot of each route with a problem (of every route with E2E_SCREENSHOTS=1)
 * lands in test-results/screenshots/layout-<route>-<width>.png, beside the list of problems.
 */
const sizes = [
  { width: 360, height: 640 },
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1024, height: 768 },
  { width: 1366, height: 768 },
  { width: 1536, height: 864 },
  { width: 1920, height: 1080 },
] as const;

/** A shop-floor tablet, upright and on its side: every control must take a finger. */
const tabletWidths = new Set([768, 1024]);

/** From 1024 px up the sidebar is always there; below it folds behind the Menu button. */
const desktopFrom = 1024;
const maxLayoutShift = 0.1;
/** The Menu button must stay a finger's size, not grow with the bar it sits in. */
const maxMenuHeight = 48;

/** The screens with the most to scroll, where the frame is also checked while the wheel scrolls. */
const scrolledFrameRoutes = new Set(['daily', 'yearly', 'weekly', 'settings-targets', 'front-end-team', 'one-page']);

/** Loads whose layout shift is counted until the screen has been still for a whole second. */
const longQuiet = new Set(['daily@390', 'daily@1366', 'one-page@1366', 'one-page@1920']);

type Route = { name: string; path: string; tab?: string; signedOut?: boolean };

const routes: Route[] = [
  { name: 'today', path: '/today' },
  { name: 'home', path: '/' },
  { name: 'one-page', path: '/?view=all' },
  { name: 'daily', path: '/daily' },
  { name: 'daily-weekly', path: '/daily-weekly' },
  { name: 'new-daily-weekly-performance', path: '/new-daily-weekly-performance' },
  { name: 'weekly', path: '/weekly' },
  { name: 'monthly', path: '/monthly' },
  { name: 'yearly', path: '/yearly' },
  { name: 'service-overview', path: '/service-overview' },
  { name: 'front-end-team', path: '/front-end-team' },
  { name: 'settings-targets', path: '/settings', tab: 'SWOT Targets' },
  { name: 'settings-store', path: '/settings', tab: 'Service Overview Settings' },
  { name: 'settings-kpis', path: '/settings', tab: 'Dashboard KPIs' },
  { name: 'settings-work-pattern', path: '/settings', tab: 'Work Pattern' },
  { name: 'compare', path: '/compare' },
  { name: 'admin-users', path: '/admin', tab: 'Manage Users' },
  { name: 'admin-stores', path: '/admin', tab: 'Manage Stores' },
  { name: 'print', path: '/print' },
  { name: 'login', path: '/login', signedOut: true },
];

describe('every route fits every screen, from a phone to a desktop', () => {
  let e2e: E2E;
  let page: Page;
  let signedOut: Page;

  beforeAll(async () => {
    e2e = await startE2E();
    ({ page } = await e2e.signedInPage('admin@example.com', { width: 1366, height: 768 }));
    await recordLayoutShifts(page.context());
    // The first sync brings the demo figures, so every screen lays out real data.
    await new SyncBarModel(page).waitForSynced();
    const context = await e2e.newContext();
    await recordLayoutShifts(context);
    signedOut = context.pages()[0] ?? (await context.newPage());
  });
  afterAll(() => e2e?.close());

  async function open(target: Page, route: Route, width: number): Promise<void> {
    await target.goto(`${e2e.appUrl}${route.path}`);
    if (route.signedOut) await target.getByRole('button', { name: 'Login' }).waitFor();
    else await target.locator('main h1').first().waitFor({ timeout: 20_000 });
    if (route.tab) {
      const tab = target.getByRole('tab', { name: route.tab, exact: true });
      await tab.click();
      await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
    }
    await untilScreenSettled(target, { quietMs: longQuiet.has(`${route.name}@${width}`) ? 1000 : 300 });
  }

  async function problemsOf(target: Page, route: Route, width: number): Promise<string[]> {
    const problems: string[] = [];
    const shift = await layoutShift(target);
    if (shift.total >= maxLayoutShift) problems.push(`layout shift ${shift.total.toFixed(3)} (limit ${maxLayoutShift}): ${shift.sources.join('; ')}`);

    const overflow = await pageOverflow(target);
    const onePageRow = width >= desktopFrom && (await target.locator('main .one-page').count()) > 0;
    if (!onePageRow && overflow.scrollWidth > overflow.innerWidth + 1) {
      problems.push(`the page scrolls sideways: ${overflow.scrollWidth} px wide in a ${overflow.innerWidth} px window (${overflow.widest.join(', ')})`);
    }
    if (!route.signedOut) {
      if (width >= desktopFrom) {
        problems.push(...(await frameInView(target, 'nav#sidebar', 'the sidebar')));
        problems.push(...(await frameInView(target, '.sync-indicator', 'the sync bar')));
      } else {
        // The Menu button sits in the top bar, which on a narrow screen scrolls away with the page.
        problems.push(...(await frameInView(target, 'button.menu-button', 'the Menu button', { alsoScrolled: false })));
      }
    }
    if (tabletWidths.has(width)) problems.push(...(await smallTargets(target)).map((small) => `small target ${small}`));
    const reach = await checkReachable(target);
    if (reach.checked === 0) problems.push('no control or table heading found to check');
    problems.push(...reach.problems);
    await e2e.screenshot(target, `layout-${route.name}-${width}`, { fullPage: true, always: problems.length > 0 });
    // Last, as it scrolls the screen away from where it loaded.
    if (width >= desktopFrom && scrolledFrameRoutes.has(route.name)) {
      const frame = await frameProblemsScrolled(target);
      if (frame.length) await e2e.screenshot(target, `layout-${route.name}-${width}-scrolled`, { always: true });
      problems.push(...frame.map((p) => `the frame ${p}`));
    }
    return problems.map((problem) => `${route.name} (${route.path}${route.tab ? `, ${route.tab}` : ''}) at ${width}: ${problem}`);
  }

  for (const size of sizes) {
    describe(`at ${size.width} x ${size.height}`, () => {
      // Each route's problems (a retry replaces its entry), and the Menu button's size on each screen.
      const problemsByRoute = new Map<string, string[]>();
      const menuSizes = new Map<string, string>();
      beforeAll(async () => {
        await page.setViewportSize(size);
        await signedOut.setViewportSize(size);
      });
      // The whole list also lands on disk, one line each, to read beside the screenshots.
      afterAll(async () => {
        await mkdir(screenshotDir, { recursive: true });
        await writeFile(path.join(screenshotDir, `layout-failures-${size.width}.txt`), [...problemsByRoute.values()].flat().join('\n'));
      });

      for (const route of routes) {
        it(`lays out ${route.name} (${route.path}${route.tab ? `, ${route.tab}` : ''})`, async () => {
          const target = route.signedOut ? signedOut : page;
          await open(target, route, size.width);
          if (!route.signedOut && size.width < desktopFrom) {
            const box = await target.getByRole('button', { name: 'Menu' }).boundingBox();
            menuSizes.set(route.name, `${Math.round(box?.width ?? 0)}x${Math.round(box?.height ?? 0)}`);
          }
          const problems = await problemsOf(target, route, size.width);
          problemsByRoute.set(route.name, problems);
          expect(problems).toEqual([]);
        });
      }

      if (size.width < desktopFrom) {
        it(`keeps the Menu button one size, at most ${maxMenuHeight} px tall, on every screen`, () => {
          const unmeasured = routes.filter((route) => !route.signedOut && !menuSizes.has(route.name)).map((route) => route.name);
          expect(unmeasured, 'screens whose test did not get as far as the Menu button').toEqual([]);
          const seen = new Set(menuSizes.values());
          expect(seen.size, [...menuSizes].map(([name, box]) => `${name} ${box}`).join(', ')).toBe(1);
          expect(Math.max(...[...seen].map((box) => Number(box.split('x')[1])))).toBeLessThanOrEqual(maxMenuHeight);
        });
      }
    });
  }
});
