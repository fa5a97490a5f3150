/**
 * The embedded backend as the separate process `npm start` runs (supabase/local/main.ts),
 * for tests and browser drills that kill, restart or freeze it: it starts on a free port
 * with a temporary data folder (unless given one), is ready once /health answers, and
 * comes back on the same port and data after a kill.
 */
import type { ChildProcess } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { spawnBackend, whenReady } from '../../scripts/backend-supervisor.ts';
import type { BackendReady } from '../../supabase/local/process-messages.ts';
import { untilTrue } from './poll.ts';

export type BackendProcess = {
  url: string;
  port: number;
  dataDir: string;
  anonKey: string;
  serviceRoleKey: string;
  /** The current process's ready message (secret line, migrations applied, seeded). */
  ready(): BackendReady;
  pid(): number;
  /** A real supabase-js client for this backend (anon key unless told), no stored session. */
  client(key?: string): SupabaseClient;
  /** Everything the process printed so far (all starts). */
  output(): string;
  /** Sends a signal (SIGKILL by default) and waits for the process to end. */
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Starts it again on the same port and data folder; resolves once /health answers. */
  restart(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open, nothing answers. */
  pause(): void;
  resume(): void;
  /** SIGTERM and wait; removes the data folder if this helper made it. */
  stop(): Promise<void>;
};

export type BackendProcessOptions = {
  /** Default: a new temporary folder, removed by stop(). */
  dataDir?: string;
  /**
   * A data folder a backend has already migrated and seeded (and was stopped cleanly),
   * copied into the new temporary folder before the start: the backend then opens a
   * ready database instead of building one. Only with no `dataDir`.
   */
  dataTemplate?: string;
  /** Default: a free port. */
  port?: number;
  /** Extra environment (SUPABASE_JWT_SECRET, DATABASE_URL, LOCAL_SUPABASE_SEED...). */
  env?: Record<string, string | undefined>;
};

async function waitForHealth(url: string, deadlineMs = 30_000): Promise<void> {
  const answers = () =>
    fetch(`${url}/health`).then(
      (response) => response.ok,
      () => false, // not listening yet
    );
  await untilTrue(answers, deadlineMs, `${url}/health answering`, 50);
}

export async function startBackendProcess(options: BackendProcessOptions = {}): Promise<BackendProcess> {
  const ownsDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'backend-process-')));
  if (ownsDataDir && options.dataTemplate) await cp(options.dataTemplate, dataDir, { recursive: true });
  let output = '';
  const baseEnv: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    LOCAL_SUPABASE_DIR: dataDir,
    DATABASE_URL: '',
    SUPABASE_JWT_SECRET: '',
    SUPABASE_ANON_KEY: '',
    SUPABASE_SERVICE_ROLE_KEY: '',
    LOCAL_SUPABASE_LOG: process.env.LOCAL_SUPABASE_LOG ?? 'warn',
    ...options.env,
  };

  const exited = (running: ChildProcess) =>
    running.exitCode !== null || running.signalCode !== null
      ? Promise.resolve({ code: running.exitCode, signal: running.signalCode })
      : new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
          running.once('exit', (code, signal) => resolve({ code, signal })),
        );
  const launch = async (port: number): Promise<{ child: ChildProcess; ready: BackendReady }> => {
    const child = spawnBackend({ ...baseEnv, SUPABASE_PORT: String(port) }, 'pipe');
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    let ready: BackendReady;
    try {
      ready = await whenReady(child);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${output}`, { cause: error });
    }
    await waitForHealth(ready.url);
    return { child, ready };
  };

  let state = await launch(options.port ?? 0);
  const { port } = state.ready;
  return {
    url: state.ready.url,
    port,
    dataDir,
    anonKey: state.ready.anonKey,
    serviceRoleKey: state.ready.serviceRoleKey,
    ready: () => state.ready,
    pid: () => state.child.pid ?? -1,
    output: () => output,
    client: (key = state.ready.anonKey) =>
      createClient(state.ready.url, key, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
        realtime: { transport: WebSocket as never },
      }),
    async kill(signal = 'SIGKILL') {
      const done = exited(state.child);
      state.child.kill(signal);
      return done;
    },
    async restart() {
      state = await launch(port);
    },
    pause: () => void state.child.kill('SIGSTOP'),
    resume: () => void state.child.kill('SIGCONT'),
    async stop() {
      const { child } = state;
      const done = exited(child);
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      const hard = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await done;
      clearTimeout(hard);
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
