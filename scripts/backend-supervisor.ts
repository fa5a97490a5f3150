/**
 * Runs the embedded backend (supabase/local/main.ts) as a child process and starts it
 * again whenever it dies, after a pause that doubles from 0.5 s up to 30 s while it keeps
 * dying and starts over once it has run for a minute. Every restart is logged with why.
 * The child is always started on the same port and data, so browsers and the app's
 * /app-config.json never notice anything but a short outage.
 *
 * The first start must succeed (a wrong setting is reported once, not retried forever),
 * and an exit with the configuration-error code is never retried.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { log } from '../supabase/local/logger.ts';
import type { BackendReady } from '../supabase/local/process-messages.ts';
import { configurationErrorExitCode, isBackendReady } from '../supabase/local/process-messages.ts';
import { projectRoot } from '../supabase/local/settings.ts';

export const backendEntry = path.join(projectRoot, 'supabase', 'local', 'main.ts');

export const restartPolicy = { firstDelayMs: 500, maxDelayMs: 30_000, stableAfterMs: 60_000 };

/** The pause before the next start, given the last pause and how long the child ran. */
export function nextRestartDelay(previousDelayMs: number | null, ranForMs: number, policy = restartPolicy): number {
  if (previousDelayMs === null || ranForMs >= policy.stableAfterMs) return policy.firstDelayMs;
  return Math.min(previousDelayMs * 2, policy.maxDelayMs);
}

/** Starts main.ts with Node (TypeScript through tsx) and an IPC channel for its ready message. */
export function spawnBackend(env: NodeJS.ProcessEnv, stdio: 'inherit' | 'pipe' = 'inherit'): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', backendEntry], {
    cwd: projectRoot,
    env,
    stdio: stdio === 'inherit' ? ['ignore', 'inherit', 'inherit', 'ipc'] : ['ignore', 'pipe', 'pipe', 'ipc'],
  });
}

/** Resolves with the child's ready message, or rejects when it exits first. */
export function whenReady(child: ChildProcess): Promise<BackendReady> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (!isBackendReady(message)) return;
      child.off('exit', onExit);
      child.off('message', onMessage);
      resolve(message);
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      child.off('message', onMessage);
      reject(new BackendExitError(code, signal));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export class BackendExitError extends Error {
  constructor(
    readonly code: number | null,
    readonly signal: NodeJS.Signals | null,
  ) {
    super(`the backend exited before it was ready (${describeExit(code, signal)})`);
  }
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `killed by ${signal}` : `exit code ${code}`;
}

export type SupervisedBackend = {
  /** The first start's ready message. */
  ready: BackendReady;
  /** The running child's pid (changes with each restart). */
  pid(): number | undefined;
  /** How many times it was started again. */
  restarts(): number;
  /** Stops the child (SIGTERM, then SIGKILL after the grace period) and restarts no more. */
  stop(): Promise<void>;
};

export async function superviseBackend(
  options: { env?: NodeJS.ProcessEnv; policy?: typeof restartPolicy; onRestart?: (ready: BackendReady) => void } = {},
): Promise<SupervisedBackend> {
  const policy = options.policy ?? restartPolicy;
  let child = spawnBackend(options.env ?? process.env);
  const ready = await whenReady(child);
  // Restarts keep the port the first start got, so the app's configuration stays true.
  const env = { ...(options.env ?? process.env), SUPABASE_PORT: String(ready.port) };
  let startedAt = Date.now();
  let delay: number | null = null;
  let restarts = 0;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const watch = () => {
    child.once('exit', (code, signal) => {
      if (stopping) return;
      if (code === configurationErrorExitCode) {
        log.error('The backend stopped on a setting that must be fixed; not restarting it.');
        return;
      }
      delay = nextRestartDelay(delay, Date.now() - startedAt, policy);
      log.error(`The backend died (${describeExit(code, signal)}); starting it again in ${(delay / 1000).toFixed(1)} s.`);
      timer = setTimeout(restart, delay);
    });
  };
  const restart = () => {
    if (stopping) return;
    restarts += 1;
    child = spawnBackend(env);
    startedAt = Date.now();
    exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    watch();
    whenReady(child).then(
      (again) => {
        log.info(`The backend is back (restart ${restarts}, pid ${again.pid}).`);
        options.onRestart?.(again);
      },
      () => undefined, // its exit is handled by watch()
    );
  };
  watch();

  return {
    ready,
    pid: () => child.pid,
    restarts: () => restarts,
    async stop() {
      stopping = true;
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(kill);
      }
    },
  };
}
