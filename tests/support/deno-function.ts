/**
 * An edge function run by Deno, the runtime Supabase deploys it on, from the `deno` npm
 * package (the real binary, no download). Deno reads only local files: no remote
 * modules, no npm packages, only what is already cached (nothing), with the function's
 * own deno.json as its configuration, as Supabase's deploy reads it. The function serves
 * itself (Deno.serve) on a free port of 127.0.0.1, may reach only 127.0.0.1 and read only
 * the two variables Supabase gives it, and stops itself after `lifetimeSeconds` should
 * the test process die without stopping it.
 */
import type { ChildProcess } from 'node:child_process';
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const denoBinary = path.join(root, 'node_modules/.bin/deno');
const run = promisify(execFile);

/** Flags that keep Deno to the files on this machine (`deno info` takes the first two). */
const local = ['--no-remote', '--no-npm'];
const offline = [...local, '--cached-only'];

export type DenoFunction = { url: string; output(): string; stop(): Promise<void> };

export function functionPaths(name: string) {
  const dir = path.join(root, 'supabase/functions', name);
  return { dir, entry: path.join(dir, 'index.ts'), config: path.join(dir, 'deno.json'), functionsDir: path.join(root, 'supabase/functions') };
}

/** A private Deno cache and a quiet, prompt-free environment for one suite. */
export async function denoEnvironment(): Promise<{ env: NodeJS.ProcessEnv; dispose(): Promise<void> }> {
  const cache = await mkdtemp(path.join(tmpdir(), 'deno-cache-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DENO_DIR: cache,
    DENO_NO_UPDATE_CHECK: '1',
    DENO_NO_PROMPT: '1',
    NO_COLOR: '1',
  };
  return { env, dispose: () => rm(cache, { recursive: true, force: true }) };
}

/** `deno <args>` to its end: exit code and output. */
export async function deno(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(denoBinary, args, { cwd: root, env, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

export function denoCheck(name: string, env: NodeJS.ProcessEnv) {
  const { config, entry } = functionPaths(name);
  return deno(['check', ...offline, '--config', config, entry], env);
}

/** The specifiers of every module the function loads, as Deno resolves them. */
export async function denoModuleGraph(name: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const { config, entry } = functionPaths(name);
  const info = await deno(['info', '--json', ...local, '--config', config, entry], env);
  if (info.code !== 0) throw new Error(`deno info failed: ${info.stderr}`);
  return (JSON.parse(info.stdout) as { modules: Array<{ specifier: string }> }).modules.map((m) => m.specifier);
}

export async function serveWithDeno(
  name: string,
  options: { env: NodeJS.ProcessEnv; functionEnv: Record<string, string>; lifetimeSeconds?: number },
): Promise<DenoFunction> {
  const { config, entry } = functionPaths(name);
  const permissions = ['--allow-net=127.0.0.1', `--allow-env=${Object.keys(options.functionEnv).join(',')}`];
  const child: ChildProcess = spawn(
    'timeout',
    [String(options.lifetimeSeconds ?? 600), denoBinary, 'run', ...offline, ...permissions, '--config', config, entry],
    {
      cwd: root,
      env: { ...options.env, ...options.functionEnv, DENO_SERVE_ADDRESS: 'tcp:127.0.0.1:0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Deno did not start within 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /Listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (listening?.[1]) {
        clearTimeout(timer);
        resolve(listening[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Deno exited (${code}) before listening:\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
