/**
 * `npm start`: the embedded backend (http://localhost:54321) and the production build of
 * the app (http://localhost:4173, built first when missing or older than its sources),
 * so the service worker and offline mode are real. `npm run dev`: the same backend with
 * Vite's dev server (http://localhost:5173). Ctrl-C stops both.
 *
 * The backend runs as a child process (supabase/local/main.ts), restarted by
 * backend-supervisor.ts whenever it dies. Its settings are environment variables, passed
 * through (README, "The embedded backend"); this script reads APP_PORT, HOST and
 * SUPABASE_PUBLIC_URL (the backend URL browsers should use, when not localhost).
 */
import path from 'node:path';
import { log } from '../supabase/local/logger.ts';
import { backendSettingsFromEnv } from '../supabase/local/settings.ts';
import { startAppServer } from './app-server.ts';
import type { SupervisedBackend } from './backend-supervisor.ts';
import { BackendExitError, superviseBackend } from './backend-supervisor.ts';
import { buildIfNeeded, projectRoot as root } from './build-if-needed.ts';

const dev = process.argv.includes('--dev');
const settings = backendSettingsFromEnv();
const host = settings.host;
const browserHost = host === '0.0.0.0' || host === '127.0.0.1' ? 'localhost' : host;

let backend: SupervisedBackend | undefined;
let stopApp: (() => Promise<void>) | undefined;
let stopping = false;

async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  process.stdout.write('\nStopping...\n');
  await stopApp?.().catch(() => undefined);
  await backend?.stop();
  process.exit(code);
}

// Ctrl-C reaches the backend too (same process group); stop() waits for it to finish.
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

async function main() {
  // The site is the app this serves, Vite's in development or on another APP_PORT, unless
  // the operator named it: e-mail links lead there (with the new session in the address,
  // so never to another port's program), and security keys name its origin.
  const appPort = Number(process.env.APP_PORT ?? (dev ? 5173 : 4173));
  process.env.LOCAL_SUPABASE_SITE_URL ||= `http://${browserHost.includes(':') ? `[${browserHost}]` : browserHost}:${appPort}`;
  backend = await superviseBackend();
  const { ready } = backend;
  const supabaseUrl = process.env.SUPABASE_PUBLIC_URL ?? `http://${browserHost}:${ready.port}`;
  const config = { supabaseUrl, supabaseAnonKey: ready.anonKey };

  let appUrl: string;
  if (dev) {
    process.env.VITE_SUPABASE_URL = supabaseUrl;
    process.env.VITE_SUPABASE_ANON_KEY = ready.anonKey;
    const { createServer } = await import('vite');
    const vite = await createServer({ root, server: { port: appPort, host, strictPort: true } });
    await vite.listen();
    appUrl = `http://${browserHost}:${vite.config.server.port}`;
    stopApp = () => vite.close();
  } else {
    await buildIfNeeded(() => log.info('Building the app (dist/ is missing or older than its sources)...'));
    const app = await startAppServer({ distDir: path.join(root, 'dist'), port: appPort, host, config });
    appUrl = app.url.replace('localhost', browserHost);
    stopApp = app.close;
  }

  const lines = [
    '',
    `  App:      ${appUrl}`,
    `  Backend:  ${supabaseUrl}  (${settings.databaseUrl ? 'PostgreSQL' : `PGlite in ${path.relative(root, settings.dataDir) || settings.dataDir}`})`,
    `  ${ready.secret}`,
    ready.appliedMigrations ? `  Applied ${ready.appliedMigrations} migration(s).` : '  Database schema is up to date.',
    ready.seeded ? '  Loaded the demo data.' : '',
    '',
    '  Demo accounts (password demo1234):',
    '    admin@example.com    admin, Demo Motors',
    '    manager@example.com  user,  Demo Motors',
    '    other@example.com    user,  Northside Auto Service',
    '',
    '  Press Ctrl-C to stop.',
    '',
  ];
  process.stdout.write(`${lines.filter((line, i) => line || lines[i - 1]).join('\n')}\n`);
}

main().catch(async (error: unknown) => {
  if (error instanceof BackendExitError) log.error(`The backend did not start (${error.message}); see its message above.`);
  else log.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  await stop(1);
});
