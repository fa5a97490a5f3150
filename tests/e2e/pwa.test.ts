import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineFailures } from './support/browser.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';

describe('the installed app without a network', () => {
  let e2e: E2E;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    e2e = await startE2E();
    context = await e2e.newContext();
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(e2e.appUrl);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // The first load installs the worker; from the next one it serves the app.
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  });
  afterAll(() => e2e?.close());

  it('installs its worker once the network is back when the page finished loading offline', async () => {
    const other = await e2e.newContext();
    const visit = other.pages()[0] ?? (await other.newPage());
    // An image the test holds keeps the page loading until the network has dropped: the
    // worker is registered when the page has loaded, and then its script cannot be fetched.
    let release: () => Promise<void> = async () => undefined;
    const held = new Promise<void>((resolve) => {
      void other.route(/\/hold-load\.png$/, (route) => {
        release = () => route.abort();
        resolve();
      });
    });
    await other.addInitScript(() => document.addEventListener('DOMContentLoaded', () => document.body.append(Object.assign(new Image(), { src: '/hold-load.png' }))));
    // How each of the app's registration attempts ended. While one is under way the browser
    // already lists a registration (it drops it when the script cannot be fetched), so the
    // check below waits for the first attempt to end rather than asking at once.
    await other.addInitScript(() => {
      const container = navigator.serviceWorker;
      const register = container.register.bind(container);
      const attempts: string[] = [];
      (window as unknown as { __registerAttempts: string[] }).__registerAttempts = attempts;
      container.register = (...args: Parameters<ServiceWorkerContainer['register']>) => {
        const index = attempts.push('pending') - 1;
        const attempt = register(...args);
        attempt.then(
          () => (attempts[index] = 'registered'),
          () => (attempts[index] = 'failed'),
        );
        return attempt;
      };
    });
    // The held image's abort, and the registration that fails while offline.
    e2e.expectConsoleErrors(/Failed to load resource: net::ERR_(FAILED|INTERNET_DISCONNECTED)/, offlineFailures);
    await visit.goto(`${e2e.appUrl}/login`, { waitUntil: 'domcontentloaded' });
    await visit.getByRole('button', { name: 'Login' }).waitFor();
    await held;
    await other.setOffline(true);
    await release();
    await visit.waitForFunction(() => document.readyState === 'complete');
    const firstAttempt = await visit.waitForFunction(() => {
      const [first] = (window as unknown as { __registerAttempts: string[] }).__registerAttempts;
      return first !== undefined && first !== 'pending' && first;
    });
    expect(await firstAttempt.jsonValue()).toBe('failed');
    const registered = () => visit.evaluate(async () => (await navigator.serviceWorker.getRegistration()) !== undefined);
    expect(await registered()).toBe(false);
    await other.setOffline(false);
    await expect.poll(registered, { timeout: 15_000 }).toBe(true);
    await other.close();
  });

  it('is installable: Chromium reports no installability errors', async () => {
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
    expect(installabilityErrors).toEqual([]);
    const manifest = (await page.evaluate(async () => (await fetch('/manifest.webmanifest')).json())) as {
      display: string;
      icons: Array<{ sizes: string; purpose?: string }>;
    };
    expect(manifest.display).toBe('standalone');
    expect(manifest.icons.map((icon) => `${icon.sizes}${icon.purpose ? ` ${icon.purpose}` : ''}`)).toEqual(['192x192', '512x512', '512x512 maskable']);
  });

  it('reloads, and opens a deep link, with the network cut, using the backend it was given', async () => {
    await context.setOffline(true);
    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Login' }).count()).toBe(1);
    const config = (await page.evaluate(async () => (await fetch('/app-config.json')).json())) as { supabaseUrl: string };
    expect(config.supabaseUrl).toBe(e2e.stack.url);

    const deepLink = await page.goto(`${e2e.appUrl}/daily?month=2026-11`);
    expect(deepLink?.fromServiceWorker()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Login' }).count()).toBe(1);
    await e2e.screenshot(page, 'offline-deep-link');
    await context.setOffline(false);
  });

  it('is served with its security headers, keeps source maps to itself, and breaks no rule of its own policy', async () => {
    const appPage = await page.request.get(`${e2e.appUrl}/daily`);
    const headers = appPage.headers();
    const backend = new URL(e2e.stack.url);
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain(`connect-src 'self' ${backend.origin} ws://${backend.host}`);
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('same-origin');
    const worker = await page.request.get(`${e2e.appUrl}/sw.js`);
    expect(worker.headers()['content-security-policy']).toBe(headers['content-security-policy']);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(await appPage.text())?.[1];
    expect(script).toBeTruthy();
    expect((await page.request.get(`${e2e.appUrl}${script}.map`)).status()).toBe(404);

    // The app so far (install, offline reloads, deep links) broke no rule...
    expect(e2e.securityViolations).toEqual([]);
    // ...and a rule broken on purpose is seen, so the check itself works.
    await page.evaluate(() => {
      const inline = document.createElement('script');
      inline.textContent = 'window.planted = true';
      document.body.append(inline);
    });
    await expect.poll(() => e2e.securityViolations.length).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { planted?: boolean }).planted)).toBeUndefined();
    e2e.securityViolations.length = 0;

    // An exception nobody caught and an error logged to the console are seen as well.
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('planted uncaught error');
      });
      console.error('planted console error');
    });
    await expect.poll(() => e2e.pageErrors.join('\n')).toMatch(/pageerror: Error: planted uncaught error[\s\S]*console: planted console error|console: planted console error[\s\S]*pageerror: Error: planted uncaught error/);
    e2e.pageErrors.length = 0;
  });
});
