/**
 * The embedded backend as a process of its own (`npm run backend`; `npm start` runs it
 * under a supervisor that restarts it). Configured entirely by environment variables
 * (settings.ts, README "The embedded backend").
 *
 * It keeps serving through an uncaught exception or unhandled rejection (logged): one bad
 * request must not stop a dealership. SIGTERM or SIGINT (and the parent going away)
 * close the server and then the database, so PGlite's files are left consistent; a hard
 * kill loses no acknowledged write either, because PGlite writes each commit's WAL to
 * the files before the reply is sent (tests/integration/stack/durability.test.ts).
 */
import { keysFromEnv } from './config.ts';
import { DataFolderInUseError, lockDataFolder, secureDataFolder } from './data-folder.ts';
import type { Database } from './db/database.ts';
import { openDatabase } from './db/open.ts';
import { log } from './logger.ts';
import type { BackendReady } from './process-messages.ts';
import { configurationErrorExitCode } from './process-messages.ts';
import { describeJwtSecret, refusalToListen, resolveJwtSecret } from './secrets.ts';
import type { LocalStack } from './server.ts';
import { startLocalStack } from './server.ts';
import { backendSettingsFromEnv, SettingsError } from './settings.ts';

const shutdownGraceMs = 15_000;

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

process.on('uncaughtException', (error, origin) => log.error(`Uncaught ${origin}, still serving: ${describe(error)}`));
process.on('unhandledRejection', (reason) => log.error(`Unhandled rejection, still serving: ${describe(reason)}`));

let db: Database | undefined;
let stack: LocalStack | undefined;
let releaseLock: (() => Promise<void>) | undefined;
let dataDir = '';
let stopping = false;

async function stop(reason: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info(`Backend stopping (${reason})...`);
  const forced = setTimeout(() => {
    log.error(`Backend did not stop within ${shutdownGraceMs / 1000} s; exiting anyway (committed writes are kept).`);
    process.exit(1);
  }, shutdownGraceMs);
  forced.unref();
  try {
    await stack?.close();
    await db?.close();
    // PGlite may have written files with its own modes while running.
    if (dataDir && !process.env.DATABASE_URL) await secureDataFolder(dataDir);
    await releaseLock?.();
  } catch (error) {
    log.error(`While stopping: ${describe(error)}`);
    process.exit(1);
  }
  process.exit(0);
}

async function main(): Promise<void> {
  const settings = backendSettingsFromEnv();
  dataDir = settings.dataDir;
  await secureDataFolder(settings.dataDir);
  releaseLock = await lockDataFolder(settings.dataDir);
  const secret = await resolveJwtSecret({ env: process.env, dataDir: settings.dataDir });
  const refusal = refusalToListen(secret.secret, settings.host);
  if (refusal) throw new SettingsError(refusal);
  db = await openDatabase({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir });
  const keys = await keysFromEnv({ ...process.env, SUPABASE_JWT_SECRET: secret.secret }, { dataDir: settings.dataDir });
  const secretLine = describeJwtSecret(secret.source, keys.usingDemoSecret);
  (keys.usingDemoSecret ? log.warn : log.info)(secretLine);
  if (keys.signing) log.info(`Sessions are signed with the ${keys.signing.alg} key ${keys.signing.kid}, kept in the data folder (jwt-signing-key.json).`);

  stack = await startLocalStack({
    db,
    port: settings.port,
    host: settings.host,
    keys,
    allowSignup: settings.allowSignup,
    adminsNeedMfa: settings.adminsNeedMfa,
    seedWhenEmpty: settings.seedWhenEmpty,
    dataDir: settings.dataDir,
    auth: { mfa: { webauthnEnabled: settings.mfaWebauthn } },
  });
  if (stopping) return;
  log.info(`Backend ready at ${stack.url} (pid ${process.pid}).`);
  const ready: BackendReady = {
    type: 'backend-ready',
    url: stack.url,
    port: stack.port,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    appliedMigrations: stack.appliedMigrations.length,
    seeded: stack.seeded,
    secret: secretLine,
    pid: process.pid,
  };
  process.send?.(ready);
}

process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
// Started by a supervisor that has gone away: nobody would stop this process otherwise.
process.on('disconnect', () => void stop('the parent process has gone'));

main().catch(async (error: unknown) => {
  const configuration = error instanceof SettingsError || error instanceof DataFolderInUseError;
  log.error(configuration && error instanceof Error ? error.message : `Backend failed to start: ${describe(error)}`);
  await stack?.close().catch(() => undefined);
  await db?.close().catch(() => undefined);
  await releaseLock?.().catch(() => undefined);
  process.exit(configuration ? configurationErrorExitCode : 1);
});
