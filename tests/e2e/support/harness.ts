/**
 * One browser test's world: the embedded backend (demo data, on PostgreSQL when the run
 * has a server, else PGlite: tests/support/test-databases.ts) and the built app
 * on free ports, the app told where the backend is, and the machine's Chromium
 * (/usr/bin/chromium, never a downloaded browser) with a fresh profile.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { startAppServer } from '../../../scripts/app-server.ts';
import { distDir } from '../../../scripts/build-if-needed.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { serverEngine } from '../../support/test-databases.ts';
import { browserFaults, launchBrowser } from './browser.ts';
import { LoginPageModel, ShellModel } from './pages.ts';
import type { ScreenshotOptions } from './screenshots.ts';
import { saveScreenshot } from './screenshots.ts';

export type E2E = {
  stack: TestStack;
  appUrl: string;
  /** A browser with its own fresh profile (not incognito: installability and storage behave as for a person). */
  newContext(): Promise<BrowserContext>;
  /** A fresh browser, signed in through the login page, at the given window size. */
  signedInPage(email: string, options?: { password?: string; width?: number; height?: number }): Promise<{ page: Page; context: BrowserContext }>;
  /** A screenshot in test-results/screenshots, when screenshots are wanted (see screenshots.ts). */
  screenshot(target: Page | Locator, name: string, options?: ScreenshotOptions): Promise<void>;
  /**
   * Everything the app's Content-Security-Policy blocked so far, in any page of any
   * context (securitypolicyviolation events and the console's CSP errors). close()
   * fails the file when this is not empty, so every browser test checks the policy.
   */
  securityViolations: string[];
  /** Uncaught page errors and console errors not declared expected, in any page of any context; close() fails the file on them too. */
  pageErrors: string[];
  /** Declares the console errors this file expects (e.g. failed requests while offline). */
  expectConsoleErrors(...patterns: RegExp[]): void;
  close(): Promise<void>;
};

export { chromiumPath } from './browser.ts';

export async function startE2E(options: { webauthn?: boolean } = {}): Promise<E2E> {
  // Security keys belong to the page's host (localhost, as the app's address below says);
  // the page's origin, with the port the app gets, joins the allowed ones once it listens.
  const origins: string[] = [];
  const stack = await startTestStack({
    engine: serverEngine,
    ...(options.webauthn ? { auth: { mfa: { webauthnEnabled: true, relyingParty: { id: 'localhost', name: 'Service Dashboard', origins } } } } : {}),
  });
  const app = await startAppServer({
    distDir: distDir,
    port: 0,
    config: { supabaseUrl: stack.url, supabaseAnonKey: stack.keys.anonKey },
  });
  origins.push(new URL(app.url).origin);
  const contexts: Array<{ context: BrowserContext; profile: string }> = [];
  const faults = browserFaults();
  async function newContext(): Promise<BrowserContext> {
    const profile = await mkdtemp(path.join(tmpdir(), 'e2e-profile-'));
    const context = await launchBrowser(profile);
    contexts.push({ context, profile });
    await faults.watch(context);
    return context;
  }
  return {
    stack,
    appUrl: app.url,
    newContext,
    async signedInPage(email, options = {}) {
      const context = await newContext();
      const page = context.pages()[0] ?? (await context.newPage());
      await page.setViewportSize({ width: options.width ?? 1440, height: options.height ?? 900 });
      const login = new LoginPageModel(page);
      await login.open(app.url);
      await login.signIn(email, options.password);
      await new ShellModel(page).waitForSignedIn();
      return { page, context };
    },
    screenshot: saveScreenshot,
    securityViolations: faults.securityViolations,
    pageErrors: faults.pageErrors,
    expectConsoleErrors: faults.expectConsoleErrors,
    async close() {
      for (const { context, profile } of contexts) {
        await context.close().catch(() => undefined);
        await rm(profile, { recursive: true, force: true });
      }
      await app.close();
      await stack.stop();
      faults.check();
    },
  };
}
