/**
 * One browser test's world: the embedded backend (PGlite, demo data) and the built app
 * on free ports, the app told where the backend is, and the machine's Chromium
 * (/usr/bin/chromium, never a downloaded browser) with a fresh profile.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { chromium } from 'playwright-core';
import { startAppServer } from '../../../scripts/app-server.ts';
import { projectRoot } from '../../../scripts/build-if-needed.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';

export type E2E = {
  stack: TestStack;
  appUrl: string;
  /** A browser with its own fresh profile (not incognito: installability and storage behave as for a person). */
  newContext(): Promise<BrowserContext>;
  screenshotPath(name: string): Promise<string>;
  close(): Promise<void>;
};

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function startE2E(): Promise<E2E> {
  const stack = await startTestStack();
  const app = await startAppServer({
    distDir: path.join(projectRoot, 'dist'),
    port: 0,
    config: { supabaseUrl: stack.url, supabaseAnonKey: stack.keys.anonKey },
  });
  const contexts: Array<{ context: BrowserContext; profile: string }> = [];
  return {
    stack,
    appUrl: app.url,
    async newContext() {
      const profile = await mkdtemp(path.join(tmpdir(), 'e2e-profile-'));
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: chromiumPath,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
      });
      contexts.push({ context, profile });
      return context;
    },
    async screenshotPath(name) {
      const dir = path.join(projectRoot, 'test-results', 'screenshots');
      await mkdir(dir, { recursive: true });
      return path.join(dir, `${name}.png`);
    },
    async close() {
      for (const { context, profile } of contexts) {
        await context.close().catch(() => undefined);
        await rm(profile, { recursive: true, force: true });
      }
      await app.close();
      await stack.stop();
    },
  };
}
