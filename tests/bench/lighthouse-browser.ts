/**
 * The machine's Chromium for Lighthouse: started by us with the browser tests' flags, a
 * fresh profile and a remote-debugging port, so Lighthouse (its `port` option) and
 * Playwright (connectOverCDP, to sign in and to fill the service worker's caches) drive
 * the same browser and the same profile, as one tablet would. Nothing is downloaded.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { chromiumPath } from '../e2e/support/browser.ts';
import { demo } from '../support/demo.ts';

export type AuditBrowser = {
  /** The remote-debugging port Lighthouse connects to. */
  port: number;
  /** Runs `work` on a new tab of this browser through Playwright, then closes the tab and lets go of the browser. */
  withPage<T>(work: (page: Page) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** Chromium writes its port to DevToolsActivePort in the profile once it listens. */
async function devToolsPort(profile: string, child: ChildProcess, deadlineMs = 30_000): Promise<number> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Chromium (${chromiumPath}) exited with code ${child.exitCode} before it listened`);
    const text = await readFile(path.join(profile, 'DevToolsActivePort'), 'utf8').catch(() => '');
    const port = Number(text.split('\n')[0]);
    if (port > 0) return port;
    if (Date.now() > deadline) throw new Error(`Chromium did not open its debugging port within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function launchAuditBrowser(): Promise<AuditBrowser> {
  const profile = await mkdtemp(path.join(tmpdir(), 'lighthouse-profile-'));
  const child = spawn(chromiumPath, [...flags, `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'], { stdio: 'ignore' });
  const port = await devToolsPort(profile, child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    port,
    async withPage(work) {
      const browser: Browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
      const context = browser.contexts()[0];
      if (!context) throw new Error('Chromium has no default browser context');
      const page = await context.newPage();
      try {
        return await work(page);
      } finally {
        await page.close();
        // A browser reached over CDP is only let go of, not closed, by Playwright.
        await browser.close();
      }
    },
    async close() {
      child.kill('SIGTERM');
      const hard = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(hard);
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Signs the browser's profile in as the demo manager and waits for its first sync to finish. */
export async function signIn(page: Page, appUrl: string, email = 'manager@example.com'): Promise<void> {
  await page.goto(`${appUrl}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(demo.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByText(/^Last synced \d/).first().waitFor({ timeout: 120_000 });
}

/**
 * Opens `url` and waits until the service worker controls the page and has stored the app
 * shell (its install finished), so the next visit is a returning device's: the app from the
 * worker's cache, the data from IndexedDB. Then the page is left and the worker stopped, as
 * when the app was closed: the next visit starts it again, and does not land in this
 * page's renderer with its heap (which made DevTools' own start-up on it a long task).
 */
export async function warmUp(page: Page, url: string, ready: (page: Page) => Promise<void>): Promise<void> {
  await page.goto(url);
  await ready(page);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000, polling: 100 });
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    if (registration.active?.state !== 'activated') {
      await new Promise<void>((resolve) => registration.active?.addEventListener('statechange', () => resolve(), { once: true }));
    }
  });
  await page.goto('about:blank');
  const session = await page.context().newCDPSession(page);
  await session.send('ServiceWorker.enable');
  await session.send('ServiceWorker.stopAllWorkers');
  await session.detach();
}
