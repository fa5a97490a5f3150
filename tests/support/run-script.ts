/**
 * Runs one of the project's npm scripts (a file in scripts/) as its own Node process, the
 * way `npm run NAME` does, and answers its exit code and everything it printed. The
 * caller's DATABASE_URL is cleared, so a script reaches PostgreSQL only when a test says so.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../../supabase/local/settings.ts';

export type ScriptRun = { code: number | null; output: string };

export function runScript(script: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<ScriptRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'scripts', `${script}.ts`), ...args], {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}
