import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { offlineFailures, refusedWith } from './support/browser.ts';
import { LoginPageModel, ShellModel, SyncBarModel } from './support/pages.ts';

describe('signing in and finding one’s way around', () => {
  let e2e: E2E;
  let context: BrowserContext;
  let page: Page;
  let login: LoginPageModel;
  let shell: ShellModel;

  beforeAll(async () => {
    e2e = await startE2E();
    context = await e2e.newContext();
    page = context.pages()[0] ?? (await context.newPage());
    await page.setViewportSize({ width: 1440, height: 900 });
    login = new LoginPageModel(page);
    shell = new ShellModel(page);
  });
  afterAll(() => e2e?.close());

  it('shows the product’s name while the app’s code is on its way, and the login page replaces it', async () => {
    // A browser of its own, with no service worker yet: the app's entry script is held back
    // until the page has been looked at, as a slow network would.
    const fresh = await e2e.newContext();
    try {
      const waiting = fresh.pages()[0] ?? (await fresh.newPage());
      let releaseEntry: () => void = () => undefined;
      const entryHeld = new Promise<void>((resolve) => (releaseEntry = resolve));
      await waiting.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
        await entryHeld;
        await route.continue();
      });
      await waiting.goto(`${e2e.appUrl}/login`, { waitUntil: 'commit' });
      const placeholder = waiting.locator('#root > .app-starting');
      await placeholder.waitFor();
      expect(await placeholder.textContent()).toBe('Service Department Dashboard');
      expect(await waiting.getByRole('button', { name: 'Login' }).count()).toBe(0);

      releaseEntry();
      await waiting.getByRole('button', { name: 'Login' }).waitFor();
      expect(await placeholder.count()).toBe(0);
    } finally {
      await fresh.close();
    }
  });

  it('on a start without the app in its cache, draws the screen it opens on once its code is there, and only then loads the rest', async () => {
    const { page: tablet, context: profile } = await e2e.signedInPage('manager@example.com', { width: 412, height: 823 });
    await new SyncBarModel(tablet).waitForSynced();
    // As after the browser cleared its caches: no service worker, no cached code; the
    // session and the month's rows stay on the device.
    const cdp = await profile.newCDPSession(tablet);
    await cdp.send('Storage.clearDataForOrigin', { origin: new URL(e2e.appUrl).origin, storageTypes: 'service_workers,cache_storage' });
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
    await tablet.goto('about:blank');
    // What the page showed, when: the Suspense fallback ever, and the moment the daily
    // screen had its month on screen (its heading, no "Loading..." left).
    await profile.addInitScript(() => {
      const seen = { fallback: false, shownAt: -1 };
      (window as unknown as { __seen: typeof seen }).__seen = seen;
      new MutationObserver(() => {
        if (document.querySelector('.loading-screen')) seen.fallback = true;
        const loading = [...document.querySelectorAll('main p')].some((p) => /^Loading\b/.test(p.textContent?.trim() ?? ''));
        if (seen.shownAt < 0 && document.querySelector('main h1') && !loading) seen.shownAt = performance.now();
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    // The daily screen's code comes half a second after the rest, as over a slow link.
    await tablet.route(/\/assets\/DailyPerformance-[^/]*\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
    await tablet.goto(`${e2e.appUrl}/daily`);
    await tablet.getByRole('heading', { level: 1, name: 'Daily Performance' }).waitFor();
    await new SyncBarModel(tablet).waitForSynced();
    const timeline = await tablet.evaluate(() => {
      const { fallback, shownAt } = (window as unknown as { __seen: { fallback: boolean; shownAt: number } }).__seen;
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const backendClient = resources.find((entry) => /\/assets\/connect-[^/]*\.js$/.test(entry.name));
      const entry = resources.find((entry) => /\/assets\/index-[^/]*\.js$/.test(entry.name));
      return { fallback, shownAt, backendClientAt: backendClient?.startTime ?? -1, entryArrivedAt: entry?.responseEnd ?? -1 };
    });
    expect(timeline.fallback, 'the frame showed "Loading..." for the screen').toBe(false);
    expect(timeline.shownAt).toBeGreaterThan(0);
    expect(timeline.backendClientAt).toBeGreaterThan(0);
    // The app loads them a second after its start at the latest, drawn or not: on a machine
    // too busy to draw the month within that second, only that deadline is checked.
    if (timeline.backendClientAt < timeline.shownAt) {
      expect(timeline.backendClientAt, 'supabase-js was asked for before the month was on screen, and before its deadline').toBeGreaterThanOrEqual(timeline.entryArrivedAt + 1_000);
    }
    await tablet.unrouteAll();
  });

  it('asks for its code at low priority, behind the page and stylesheet that paint the name', async () => {
    const html = await (await fetch(`${e2e.appUrl}/login`)).text();
    const tags = [...html.matchAll(/<(?:script|link)\b[^>]*>/g)].map(([tag]) => tag);
    const code = tags.filter((tag) => /type="module"|rel="modulepreload"/.test(tag));
    expect(code.length).toBeGreaterThan(1);
    expect(code.filter((tag) => !tag.includes('fetchpriority="low"'))).toEqual([]);
    const stylesheets = tags.filter((tag) => tag.includes('rel="stylesheet"'));
    expect(stylesheets).toHaveLength(1);
    expect(stylesheets.filter((tag) => tag.includes('fetchpriority'))).toEqual([]);
  });

  it('sends a signed-out person to the login page from any path', async () => {
    await page.goto(`${e2e.appUrl}/monthly?month=2026-01`);
    await page.waitForURL(/\/login$/);
    expect(await page.getByRole('button', { name: 'Login' }).count()).toBe(1);
  });

  it('shows the server’s message for a wrong password and stays on the login page', async () => {
    await login.open(e2e.appUrl);
    // The server's refusal is a 400 the browser logs.
    e2e.expectConsoleErrors(refusedWith(400));
    await login.signIn('manager@example.com', 'not-the-password');
    await expect.poll(() => login.error().textContent()).toBe('Invalid login credentials');
    expect(page.url()).toMatch(/\/login$/);
  });

  it.each([
    ['manager@example.com', 'Morgan', false],
    ['other@example.com', 'Oli', false],
    ['admin@example.com', 'Alex', true],
  ])('signs in %s, greets them by name and shows Admin only to admins', async (email, name, admin) => {
    await login.open(e2e.appUrl);
    await login.signIn(email);
    await shell.waitForSignedIn();
    await page.waitForURL((url) => url.pathname === '/');
    const hour = await page.evaluate(() => new Date().getHours());
    const expected = hour < 12 ? 'Good morning' : hour < 17 ? 'Good afternoon' : 'Good evening';
    expect(await shell.greeting().textContent()).toBe(`${expected}, ${name}`);
    expect(await shell.navigation().getByRole('link', { name: 'Admin' }).count()).toBe(admin ? 1 : 0);
    await e2e.screenshot(page, `signed-in-${name.toLowerCase()}`);
    await shell.logout();
    await page.waitForURL(/\/login$/);
  });

  it('moves the month one at a time, keeps it in the URL across screens and reloads', async () => {
    await login.open(e2e.appUrl);
    await login.signIn('manager@example.com');
    await shell.waitForSignedIn();
    await page.goto(`${e2e.appUrl}/daily?month=2026-01`);
    await expect.poll(() => shell.monthLabel().textContent()).toBe('January 2026');
    await shell.moveMonth('Prev');
    await expect.poll(() => shell.monthLabel().textContent()).toBe('December 2025');
    await shell.moveMonth('Next');
    await expect.poll(() => shell.monthLabel().textContent()).toBe('January 2026');
    await shell.moveMonth('Next');
    await expect.poll(() => shell.monthLabel().textContent()).toBe('February 2026');
    await shell.go('Weekly');
    expect(page.url()).toContain('/weekly?month=2026-02');
    // A screen arrives as its own module: the previous one's heading may still show for a moment.
    await expect.poll(() => shell.heading().textContent()).toBe('Weekly Performance');
    await page.reload();
    await expect.poll(() => shell.monthLabel().textContent()).toBe('February 2026');
  });

  it('counts every click on the month control, however quick, and the address and the back button follow', async () => {
    await page.goto(`${e2e.appUrl}/daily?month=2026-01`);
    await expect.poll(() => shell.monthLabel().textContent()).toBe('January 2026');
    const months = await page.evaluate(async () => {
      const next = document.querySelector<HTMLButtonElement>('[role="group"][aria-label="Month"] button:last-of-type');
      const label = () => document.querySelector('[role="group"][aria-label="Month"] span')?.textContent;
      if (!next) throw new Error('no Next button in the month control');
      // Three clicks before the page draws between them, as a quick double-click and one
      // more can come on a slow tablet; the month is drawn once the clicks' task is done.
      next.click();
      next.click();
      next.click();
      await Promise.resolve();
      const atOnce = label();
      // One more once that frame has been painted, while the address is being written.
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      next.click();
      await Promise.resolve();
      return { atOnce, afterFourth: label() };
    });
    expect(months).toEqual({ atOnce: 'April 2026', afterFourth: 'May 2026' });
    await expect.poll(() => new URL(page.url()).searchParams.get('month')).toBe('2026-05');
    // The month stays once the router has the new address.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
    expect(await shell.monthLabel().textContent()).toBe('May 2026');
    expect(await page.getByLabel('CP Hours 2026-05-01').count()).toBe(1);
    await page.reload();
    await expect.poll(() => shell.monthLabel().textContent()).toBe('May 2026');
    // Another screen and back: each address shows its own month.
    await shell.go('Weekly');
    await expect.poll(() => shell.heading().textContent()).toBe('Weekly Performance');
    await shell.moveMonth('Next');
    await expect.poll(() => new URL(page.url()).searchParams.get('month')).toBe('2026-06');
    await page.goBack();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/daily');
    await expect.poll(() => shell.monthLabel().textContent()).toBe('May 2026');
    expect(new URL(page.url()).searchParams.get('month')).toBe('2026-05');
    // A page that gets no frames (an app sent to the background) still has its address written.
    await page.evaluate(() => {
      window.requestAnimationFrame = () => 0;
    });
    await shell.moveMonth('Next');
    await expect.poll(() => new URL(page.url()).searchParams.get('month')).toBe('2026-06');
    await page.reload();
    await expect.poll(() => shell.monthLabel().textContent()).toBe('June 2026');
  });

  it('remembers light mode across a reload (dark is the default)', async () => {
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.getByRole('button', { name: 'Light mode' }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await page.reload();
    await shell.waitForSignedIn();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await e2e.screenshot(page, 'shell-light');
    await page.getByRole('button', { name: 'Dark mode' }).click();
  });

  it('keeps the theme another tab chose while this one was opening', async () => {
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    const opening = await context.newPage();
    // Another tab turns light mode on just as this one's frame has been put on the page (its
    // theme button is there) and before its effects have run: the moment a slow device can
    // stretch. Once only: the reload below is this tab's own.
    await opening.addInitScript(() => {
      if (sessionStorage.getItem('other-tab-chose')) return;
      sessionStorage.setItem('other-tab-chose', 'light');
      const watch = new MutationObserver(() => {
        if (![...document.querySelectorAll('button')].some((button) => /^(Light|Dark) mode$/.test(button.textContent ?? ''))) return;
        watch.disconnect();
        localStorage.setItem('theme', 'light');
      });
      watch.observe(document, { childList: true, subtree: true });
    });
    await opening.goto(`${e2e.appUrl}/daily`);
    await new ShellModel(opening).waitForSignedIn();
    expect(await opening.evaluate(() => localStorage.getItem('theme'))).toBe('light');
    await opening.reload();
    await new ShellModel(opening).waitForSignedIn();
    expect(await opening.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await opening.evaluate(() => localStorage.setItem('theme', 'dark'));
    await opening.close();
  });

  it('tells a non-admin they have no access to /admin', async () => {
    await page.goto(`${e2e.appUrl}/admin`);
    await expect.poll(() => page.getByText("You don't have permission to access this area.").count()).toBe(1);
    expect(await page.getByText('Please contact your administrator if you need access.').count()).toBe(1);
  });

  it('folds the sidebar behind a menu button on a tablet held upright', async () => {
    await page.setViewportSize({ width: 768, height: 1024 });
    expect(await shell.navigation().isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    expect(await shell.navigation().isVisible()).toBe(true);
    await shell.navigation().getByRole('link', { name: 'Monthly', exact: true }).click();
    // A screen arrives as its own module: the previous one's heading may still show for a moment.
    await expect.poll(() => shell.heading().textContent()).toBe('Monthly Performance');
    await e2e.screenshot(page, 'tablet-monthly');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('reopens signed in on the last screen with no network', async () => {
    await page.goto(`${e2e.appUrl}/yearly?month=2026-02`);
    await shell.waitForSignedIn();
    await page.evaluate(async () => navigator.serviceWorker.ready);
    // Offline on purpose: the browser logs the requests it cannot make.
    e2e.expectConsoleErrors(offlineFailures);
    await context.setOffline(true);
    await page.reload();
    await shell.waitForSignedIn();
    expect(await shell.heading().textContent()).toBe('Yearly Trend');
    expect(page.url()).toContain('/yearly?month=2026-02');
    await context.setOffline(false);
  });
});
