/**
 * One browser test's world: the embedded backend (PGlite, demo data) and the built app
 * on free ports, the app told where the backend is, and the machine's Chromium
 * (/usr/bin/chromium, never a downloaded browser) with a fresh profile.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { startAppServer } from '../../../scripts/app-server.ts';
import { distDir, projectRoot } from '../../../scripts/build-if-needed.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { LoginPageModel, ShellModel } from './pages.ts';

export type E2E = {
  stack: TestStack;
  appUrl: string;
  /** A browser with its own fresh profile (not incognito: installability and storage behave as for a person). */
  newContext(): Promise<BrowserContext>;
  /** A fresh browser, signed in through the login page, at the given window size. */
  signedInPage(email: string, options?: { password?: string; width?: number; height?: number }): Promise<{ page: Page; context: BrowserContext }>;
  screenshotPath(name: string): Promise<string>;
  /**
   * Everything the app's Content-Security-Policy blocked so far, in any page of any
   * context (securitypolicyviolation events and the console's CSP errors). close()
   * fails the file when this is not empty, so every browser test checks the policy.
   */
  securityViolations: string[];
  close(): Promise<void>;
};

type CspReporter = { __reportCspViolation(text: string): void };

async function watchSecurityPolicy(context: BrowserContext, violations: string[]): Promise<void> {
  await context.exposeBinding('__reportCspViolation', (_source, text: string) => void violations.push(text));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as CspReporter).__reportCspViolation(
        `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} in ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  context.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
}

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function startE2E(): Promise<E2E> {
  const stack = await startTestStack();
  const app = await startAppServer({
    distDir: distDir,
    port: 0,
    config: { supabaseUrl: stack.url, supabaseAnonKey: stack.keys.anonKey },
  });
  const contexts: Array<{ context: BrowserContext; profile: string }> = [];
  const securityViolations: string[] = [];
  async function newContext(): Promise<BrowserContext> {
    const profile = await mkdtemp(path.join(tmpdir(), 'e2e-profile-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
    contexts.push({ context, profile });
    await watchSecurityPolicy(context, securityViolations);
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
    async screenshotPath(name) {
      const dir = path.join(projectRoot, 'test-results', 'screenshots');
      await mkdir(dir, { recursive: true });
      return path.join(dir, `${name}.png`);
    },
    securityViolations,
    async close() {
      for (const { context, profile } of contexts) {
        await context.close().catch(() => undefined);
        await rm(profile, { recursive: true, force: true });
      }
      await app.close();
      await stack.stop();
      if (securityViolations.length) throw new Error(`The Content-Security-Policy blocked:\n${securityViolations.join('\n')}`);
    },
  };
}
