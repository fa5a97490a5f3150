/**
 * An outage drill's world: the embedded backend as its own process (so a drill can kill,
 * restart and freeze it), a fault proxy in front of it that the browser talks through,
 * the built app served and told the proxy is its backend, and Chromium profiles that
 * persist like a tablet's. Reads for the drill's assertions go straight to the backend
 * with supabase-js as the signed-in person, never through the proxy.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { startAppServer } from '../../../scripts/app-server.ts';
import { distDir } from '../../../scripts/build-if-needed.ts';
import type { BackendProcess } from '../../support/backend-process.ts';
import { startBackendProcess } from '../../support/backend-process.ts';
import { demo } from '../../support/demo.ts';
import type { FaultProxy } from './fault-proxy.ts';
import { startFaultProxy } from './fault-proxy.ts';
import { chromiumPath } from './harness.ts';
import { LoginPageModel, ShellModel } from './pages.ts';

export type Tablet = { page: Page; context: BrowserContext; profile: string; errors: string[] };

export type DrillStack = {
  backend: BackendProcess;
  proxy: FaultProxy;
  appUrl: string;
  /** A tablet's browser (persistent profile); signed in through the login page unless told. */
  tablet(options?: { email?: string; signIn?: boolean; profile?: string; width?: number; height?: number }): Promise<Tablet>;
  /** Closes a tablet's browser and keeps its profile, so it can be opened again (cold start). */
  closeTablet(tablet: Tablet): Promise<void>;
  /** supabase-js signed in as a demo person, straight to the backend. */
  signedInClient(email: string): Promise<SupabaseClient>;
  close(): Promise<void>;
};

/** Page errors and console errors: a drill fails on any exception the app did not handle. */
function watchErrors(page: Page, errors: string[]): void {
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.name}: ${error.message} ${error.stack?.split('\n').slice(0, 4).join(' | ') ?? ''}`));
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    // The browser logs every failed request of a cut network, and the auth library logs a
    // token refresh that lost its reply ("TypeError: Failed to fetch") before it retries;
    // those are the drill, not a fault.
    if (/Failed to load resource|net::ERR_|ERR_CONNECTION|ERR_EMPTY_RESPONSE|ERR_INTERNET_DISCONNECTED|WebSocket connection|^TypeError: Failed to fetch/i.test(text)) return;
    errors.push(`console: ${text}`);
  });
}

/** `distDir`: the built app to serve (default dist/); a drill may change its files to ship a new version. */
export async function startDrillStack(options: { env?: Record<string, string>; distDir?: string } = {}): Promise<DrillStack> {
  const backend = await startBackendProcess({ env: options.env });
  const proxy = await startFaultProxy(backend.url);
  const app = await startAppServer({
    distDir: options.distDir ?? distDir,
    port: 0,
    config: { supabaseUrl: proxy.url, supabaseAnonKey: backend.anonKey },
  });
  const open = new Map<BrowserContext, string>();
  const profiles = new Set<string>();
  const clients: SupabaseClient[] = [];

  async function launch(profile: string, width: number, height: number): Promise<Tablet> {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath,
      headless: true,
      viewport: { width, height },
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
    open.set(context, profile);
    const page = context.pages()[0] ?? (await context.newPage());
    const errors: string[] = [];
    watchErrors(page, errors);
    context.on('page', (other) => watchErrors(other, errors));
    return { page, context, profile, errors };
  }

  return {
    backend,
    proxy,
    appUrl: app.url,
    async tablet({ email = 'manager@example.com', signIn = true, profile, width = 1440, height = 900 } = {}) {
      const dir = profile ?? (await mkdtemp(path.join(tmpdir(), 'drill-tablet-')));
      profiles.add(dir);
      const tablet = await launch(dir, width, height);
      if (signIn) {
        const login = new LoginPageModel(tablet.page);
        await login.open(app.url);
        await login.signIn(email);
        await new ShellModel(tablet.page).waitForSignedIn();
      }
      return tablet;
    },
    async closeTablet(tablet) {
      open.delete(tablet.context);
      await tablet.context.close().catch(() => undefined);
    },
    async signedInClient(email) {
      const client = backend.client();
      const { error } = await client.auth.signInWithPassword({ email, password: demo.password });
      if (error) throw new Error(`${email} could not sign in: ${error.message}`);
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients) await client.removeAllChannels();
      for (const context of open.keys()) await context.close().catch(() => undefined);
      for (const dir of profiles) await rm(dir, { recursive: true, force: true });
      await app.close();
      await proxy.close();
      await backend.stop();
    },
  };
}
