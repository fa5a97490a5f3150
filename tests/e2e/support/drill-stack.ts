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
import type { BrowserContext, Page } from 'playwright-core';
import { inject } from 'vitest';
import { startAppServer } from '../../../scripts/app-server.ts';
import { distDir } from '../../../scripts/build-if-needed.ts';
import type { BackendProcess } from '../../support/backend-process.ts';
import { startBackendProcess } from '../../support/backend-process.ts';
import { demo } from '../../support/demo.ts';
import type { FaultProxy } from './fault-proxy.ts';
import { startFaultProxy } from './fault-proxy.ts';
import { browserFaults, launchBrowser, networkFailures } from './browser.ts';
import { LoginPageModel, ShellModel } from './pages.ts';

/** `errors`: this tablet's uncaught page errors and unexpected console errors (the stack fails the file on them too). */
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
  /** Declares console errors a drill expects beyond failed requests (which every drill causes). */
  expectConsoleErrors(...patterns: RegExp[]): void;
  /** Closes everything; fails the file on any CSP violation, uncaught page error or unexpected console error in any tablet. */
  close(): Promise<void>;
};

/**
 * `distDir`: the built app to serve (default dist/); a drill may change its files to ship a
 * new version. `dataTemplate`: a migrated and seeded data folder to copy; inside the
 * browser test run, the run's own (global-setup.ts); elsewhere (the benchmarks), none: the
 * backend migrates and seeds its new folder itself.
 */
export async function startDrillStack(options: { env?: Record<string, string>; distDir?: string; dataTemplate?: string } = {}): Promise<DrillStack> {
  // A copy of the run's prepared data folder: migrated and seeded once, not per drill.
  const dataTemplate = options.dataTemplate ?? (process.env.VITEST ? inject('backendDataTemplate') : undefined);
  const backend = await startBackendProcess({ env: options.env, dataTemplate });
  const proxy = await startFaultProxy(backend.url);
  const app = await startAppServer({
    distDir: options.distDir ?? distDir,
    port: 0,
    config: { supabaseUrl: proxy.url, supabaseAnonKey: backend.anonKey },
  });
  const open = new Map<BrowserContext, string>();
  const profiles = new Set<string>();
  const clients: SupabaseClient[] = [];
  // The browser logs every failed request of a cut network, and the auth library logs a
  // token refresh that lost its reply ("TypeError: Failed to fetch") before it retries;
  // those are the drill, not a fault.
  const faults = browserFaults([networkFailures]);

  async function launch(profile: string, width: number, height: number): Promise<Tablet> {
    const context = await launchBrowser(profile, { viewport: { width, height } });
    open.set(context, profile);
    const errors: string[] = [];
    await faults.watch(context, errors);
    const page = context.pages()[0] ?? (await context.newPage());
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
      faults.check();
    },
    expectConsoleErrors: faults.expectConsoleErrors,
  };
}
