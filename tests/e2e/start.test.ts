import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/build-if-needed.ts';
import { browserFaults, launchBrowser, networkFailures } from './support/browser.ts';
import { LoginPageModel, ShellModel } from './support/pages.ts';
import { saveScreenshot } from './support/screenshots.ts';

// `npm start` as a store owner runs it: a fresh data folder, a secret generated on the
// first start and kept, the backend restarted after it is killed, Ctrl-C stopping
// everything, and people signing in through the browser each time.

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

type Started = { process: ChildProcess; output: () => string; waitFor(text: string | RegExp): Promise<string> };

function npmStart(env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'scripts', 'start.ts')], {
    cwd: projectRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    process: child,
    output: () => output,
    async waitFor(text) {
      const deadline = Date.now() + 120_000;
      for (;;) {
        const match = typeof text === 'string' ? (output.includes(text) ? text : null) : text.exec(output)?.[0];
        if (match) return match;
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no "${String(text)}" in:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm start', () => {
  let dataDir = '';
  let context: BrowserContext | undefined;
  let profile = '';
  const started: Started[] = [];
  // The backend is killed and stopped on purpose while a browser is open: its failed requests are expected.
  const faults = browserFaults([networkFailures]);
  afterAll(async () => {
    await context?.close();
    for (const run of started) if (run.process.exitCode === null) run.process.kill('SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    if (profile) await rm(profile, { recursive: true, force: true });
    faults.check();
  });

  it('restarts a killed backend, stops everything on Ctrl-C, and keeps its secret so people sign in after a restart', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'npm-start-'));
    const env = {
      LOCAL_SUPABASE_DIR: dataDir,
      SUPABASE_PORT: String(await freePort()),
      APP_PORT: String(await freePort()),
      HOST: '127.0.0.1',
      LOCAL_SUPABASE_LOG: 'info',
      SUPABASE_JWT_SECRET: '',
      DATABASE_URL: '',
    };
    const appUrl = `http://localhost:${env.APP_PORT}`;
    // Each sign-in in a browser of its own, as a person on another tablet would.
    const signIn = async (screenshot?: string) => {
      await context?.close();
      if (profile) await rm(profile, { recursive: true, force: true });
      profile = await mkdtemp(path.join(tmpdir(), 'npm-start-profile-'));
      context = await launchBrowser(profile);
      await faults.watch(context);
      const page = context.pages()[0] ?? (await context.newPage());
      const login = new LoginPageModel(page);
      await login.open(appUrl);
      await login.signIn('manager@example.com');
      await new ShellModel(page).waitForSignedIn();
      if (screenshot) await saveScreenshot(page, screenshot);
    };

    const first = npmStart(env);
    started.push(first);
    await first.waitFor('Press Ctrl-C to stop.');
    expect(first.output()).toContain(`Generated a new JWT secret and kept it in ${dataDir}/jwt-secret`);
    expect(first.output()).toContain('admin@example.com');
    const backendPid = Number(/Backend ready at .* \(pid (\d+)\)/.exec(first.output())?.[1]);
    await signIn();

    // E-mail links (here a password reset) lead to the app this start serves, on its own port.
    const config = (await (await fetch(`${appUrl}/app-config.json`)).json()) as { supabaseUrl: string; supabaseAnonKey: string };
    const recover = await fetch(`${config.supabaseUrl}/auth/v1/recover`, {
      method: 'POST',
      headers: { apikey: config.supabaseAnonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'manager@example.com' }),
    });
    expect(recover.status).toBe(200);
    const mails = (await readFile(path.join(dataDir, 'mail-outbox.jsonl'), 'utf8')).trim().split('\n');
    const mail = JSON.parse(mails.at(-1) ?? '{}') as { to?: string; redirect_to?: string; action_link?: string };
    expect(mail).toMatchObject({ to: 'manager@example.com', redirect_to: `${appUrl}/` });
    const followed = await fetch(mail.action_link ?? '', { redirect: 'manual' });
    expect(followed.headers.get('location')?.startsWith(`${appUrl}/#access_token=`)).toBe(true);

    process.kill(backendPid, 'SIGKILL');
    await first.waitFor(/The backend died \(killed by SIGKILL\); starting it again in 0\.5 s\./);
    const back = await first.waitFor(/The backend is back \(restart 1, pid \d+\)/);
    const restartedPid = Number(/pid (\d+)/.exec(back)?.[1]);
    expect(restartedPid).not.toBe(backendPid);
    await signIn();

    first.process.kill('SIGINT');
    await new Promise((resolve) => first.process.once('exit', resolve));
    expect(first.process.exitCode).toBe(0);
    expect(isRunning(restartedPid)).toBe(false);

    const second = npmStart(env);
    started.push(second);
    await second.waitFor('Press Ctrl-C to stop.');
    expect(second.output()).toContain(`Using the JWT secret kept in ${dataDir}/jwt-secret.`);
    await signIn('npm-start-after-restart');
    second.process.kill('SIGINT');
    await new Promise((resolve) => second.process.once('exit', resolve));
    expect(second.process.exitCode).toBe(0);
    // Three starts of the backend (one a recovery after a hard kill, replaying the demo data's
    // write-ahead log) and two browsers: minutes on a busy two-core machine.
  }, 240_000);
});
