import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SupervisedBackend } from '../../../scripts/backend-supervisor.ts';
import { backendEntry, superviseBackend } from '../../../scripts/backend-supervisor.ts';
import { apiKeysFor, demoJwtSecret } from '../../../supabase/local/config.ts';
import type { BackendProcess } from '../../support/backend-process.ts';
import { startBackendProcess } from '../../support/backend-process.ts';
import { pgliteDataFolder } from '../../support/database-templates.ts';
import { demo } from '../../support/demo.ts';
import { untilTrue } from '../../support/poll.ts';

// The backend as `npm start` runs it: a process of its own, on a private data folder,
// with a secret of its own, and restarted by the supervisor when it dies.

async function entriesWithModes(dir: string): Promise<Array<{ file: string; mode: number; folder: boolean }>> {
  const found = [{ file: '.', mode: (await stat(dir)).mode & 0o777, folder: true }];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    found.push({ file: path.relative(dir, full), mode: (await stat(full)).mode & 0o777, folder: entry.isDirectory() });
  }
  return found;
}

const notPrivate = (entries: Array<{ file: string; mode: number; folder: boolean }>) =>
  entries.filter((entry) => entry.mode !== (entry.folder ? 0o700 : 0o600));

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs main.ts once to its end; resolves with its exit code and what it printed. */
function runBackendToExit(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', backendEntry], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(guard);
      resolve({ code, output });
    });
  });
}

// Each test starts backend processes (Node, TypeScript, PGlite): slow on a busy machine.
const processTestTimeoutMs = 180_000;

describe('the backend process', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('makes an existing data folder private, keeps it so while running and after stopping, and generates and keeps its own secret', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'backend-modes-'));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    // A folder left readable by everyone, as an older version (or a copy) would leave it.
    await mkdir(path.join(dataDir, 'notes'), { mode: 0o755 });
    await writeFile(path.join(dataDir, 'notes', 'readme.txt'), 'x', { mode: 0o644 });
    await chmod(dataDir, 0o755);

    let backend: BackendProcess | undefined = await startBackendProcess({ dataDir });
    expect(backend.ready().secret).toMatch(new RegExp(`Generated a new JWT secret and kept it in ${dataDir}/jwt-secret`));
    expect(backend.ready().seeded).toBe(true);
    const manager = backend.client();
    expect((await manager.auth.signInWithPassword({ email: 'manager@example.com', password: demo.password })).error).toBeNull();
    const written = await manager.from('store_settings').update({ stalls: 17 }).eq('store_id', demo.storeA).select('stalls');
    expect(written.error).toBeNull();
    const whileRunning = await entriesWithModes(dataDir);
    expect(whileRunning.length).toBeGreaterThan(500); // PGlite's files, not an empty folder
    expect(notPrivate(whileRunning)).toEqual([]);
    const anonKey = backend.anonKey;
    expect(anonKey).not.toBe((await apiKeysFor(demoJwtSecret)).anonKey);

    const port = backend.port;
    await backend.stop();
    expect(notPrivate(await entriesWithModes(dataDir))).toEqual([]);

    // Started again: the same secret (so the same anon key, and sessions stay valid).
    backend = await startBackendProcess({ dataDir, port });
    cleanup.push(() => backend!.stop());
    expect(backend.ready().secret).toBe(`Using the JWT secret kept in ${dataDir}/jwt-secret.`);
    expect(backend.anonKey).toBe(anonKey);
    expect(backend.ready().seeded).toBe(false);
    const stillSignedIn = await manager.from('store_settings').select('stalls').eq('store_id', demo.storeA);
    expect(stillSignedIn).toMatchObject({ error: null, data: [{ stalls: 17 }] });

    // A second backend on the same folder would corrupt PGlite's files: it refuses.
    const second = await runBackendToExit({ LOCAL_SUPABASE_DIR: dataDir, SUPABASE_PORT: '0', HOST: '127.0.0.1' });
    expect(second.code).toBe(78);
    expect(second.output).toContain(`is in use by another backend process (pid ${backend.pid()})`);
  }, processTestTimeoutMs);

  it('refuses to listen beyond localhost with the public demo secret, and says what to do', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'backend-demo-secret-'));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const outcome = await runBackendToExit({ LOCAL_SUPABASE_DIR: dataDir, SUPABASE_PORT: '0', HOST: '0.0.0.0', SUPABASE_JWT_SECRET: demoJwtSecret });
    expect(outcome.code).toBe(78);
    expect(outcome.output).toContain('Refusing to listen on 0.0.0.0 with the public demo JWT secret');
    expect(outcome.output).toContain('Remove SUPABASE_JWT_SECRET');
  }, processTestTimeoutMs);

  it('is started again by the supervisor after a hard kill, on the same port and data, and stopped with nothing left behind', async () => {
    // A folder in use already: the first start on a fresh one is the first test's.
    const dataDir = await pgliteDataFolder('seeded', 'backend-supervised-');
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const env = { ...process.env, LOCAL_SUPABASE_DIR: dataDir, SUPABASE_PORT: '0', HOST: '127.0.0.1', SUPABASE_JWT_SECRET: '', DATABASE_URL: '' };
    const restarted: number[] = [];
    const supervised: SupervisedBackend = await superviseBackend({ env, onRestart: (ready) => restarted.push(ready.pid) });
    cleanup.push(() => supervised.stop());
    const firstPid = supervised.pid()!;
    const url = supervised.ready.url;
    expect((await fetch(`${url}/health`)).status).toBe(200);

    process.kill(firstPid, 'SIGKILL');
    await untilTrue(() => restarted.length > 0, 120_000, 'the backend restarted', 50);
    expect(restarted).toHaveLength(1);
    expect(restarted[0]).not.toBe(firstPid);
    expect(supervised.restarts()).toBe(1);
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect(isRunning(firstPid)).toBe(false);

    const secondPid = supervised.pid()!;
    await supervised.stop();
    expect(isRunning(secondPid)).toBe(false);
    // Stopped cleanly: the lock is released, so the folder can be opened again.
    expect((await readdir(dataDir)).includes('backend.lock')).toBe(false);
  }, processTestTimeoutMs);
});
