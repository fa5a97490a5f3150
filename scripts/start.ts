/**
 * `npm start`: the embedded backend (http://localhost:54321) and the production build of
 * the app (http://localhost:4173, built first when missing or older than its sources),
 * so the service worker and offline mode are real. `npm run dev`: the same backend with
 * Vite's dev server (http://localhost:5173). Ctrl-C stops both.
 *
 * Environment: SUPABASE_JWT_SECRET / SUPABASE_ANON_KEY / SUPABASE_SERVICE_ROLE_KEY
 * (demo keys when unset), DATABASE_URL (a real PostgreSQL instead of PGlite),
 * LOCAL_SUPABASE_DIR (PGlite data, default .local-supabase), SUPABASE_PORT, APP_PORT,
 * HOST (default 127.0.0.1), SUPABASE_PUBLIC_URL (the backend URL browsers should use),
 * LOCAL_SUPABASE_ALLOW_SIGNUP=true (let people create their own accounts; off by default).
 */
import path from 'node:path';
import { keysFromEnv } from '../supabase/local/config.ts';
import { openDatabase } from '../supabase/local/db/open.ts';
import { log } from '../supabase/local/logger.ts';
import { startLocalStack } from '../supabase/local/server.ts';
import { startAppServer } from './app-server.ts';
import { buildIfNeeded, projectRoot as root } from './build-if-needed.ts';

const dev = process.argv.includes('--dev');
const host = process.env.HOST ?? '127.0.0.1';
const browserHost = host === '0.0.0.0' || host === '127.0.0.1' ? 'localhost' : host;

async function main() {
  const keys = await keysFromEnv();
  if (keys.usingDemoSecret) {
    log.warn('!! Using the PUBLIC demo JWT secret: anyone can forge tokens for this backend.');
    log.warn('!! Set SUPABASE_JWT_SECRET (32+ characters) before storing real data.');
  }
  const db = await openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    dataDir: path.resolve(root, process.env.LOCAL_SUPABASE_DIR ?? '.local-supabase'),
  });
  const stack = await startLocalStack({
    db,
    port: Number(process.env.SUPABASE_PORT ?? 54321),
    host,
    keys,
    allowSignup: process.env.LOCAL_SUPABASE_ALLOW_SIGNUP === 'true',
  });
  const supabaseUrl = process.env.SUPABASE_PUBLIC_URL ?? `http://${browserHost}:${stack.port}`;
  const config = { supabaseUrl, supabaseAnonKey: keys.anonKey };

  let appUrl: string;
  let stopApp: () => Promise<void>;
  if (dev) {
    process.env.VITE_SUPABASE_URL = supabaseUrl;
    process.env.VITE_SUPABASE_ANON_KEY = keys.anonKey;
    const { createServer } = await import('vite');
    const vite = await createServer({ root, server: { port: Number(process.env.APP_PORT ?? 5173), host, strictPort: true } });
    await vite.listen();
    appUrl = `http://${browserHost}:${vite.config.server.port}`;
    stopApp = () => vite.close();
  } else {
    await buildIfNeeded(() => log.info('Building the app (dist/ is missing or older than its sources)...'));
    const app = await startAppServer({ distDir: path.join(root, 'dist'), port: Number(process.env.APP_PORT ?? 4173), host, config });
    appUrl = app.url.replace('localhost', browserHost);
    stopApp = app.close;
  }

  const lines = [
    '',
    `  App:      ${appUrl}`,
    `  Backend:  ${supabaseUrl}  (${process.env.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${process.env.LOCAL_SUPABASE_DIR ?? '.local-supabase'}`})`,
    stack.appliedMigrations.length ? `  Applied ${stack.appliedMigrations.length} migration(s).` : '  Database schema is up to date.',
    stack.seeded ? '  Loaded the demo data.' : '',
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

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('\nStopping...\n');
    await stopApp();
    await stack.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  log.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
