/**
 * The embedded Supabase-compatible stack: Auth, REST, Realtime and Functions on one
 * port, backed by PGlite or a real PostgreSQL, running the project's own migrations.
 * On start it applies pending migrations and seeds demo data into an empty database.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AuthSettingsOverrides } from './auth/settings.ts';
import { createAuthService } from './auth/auth-service.ts';
import type { StackKeys } from './config.ts';
import { keysFromEnv, verificationKeys } from './config.ts';
import type { Database } from './db/database.ts';
import { applyMigrations, bootstrap, isEmpty, seed } from './db/migrate.ts';
import { createFunctionsService } from './functions/functions-service.ts';
import { RequestQueue } from './db/request-queue.ts';
import type { RealtimeStats } from './realtime/realtime-service.ts';
import { createRealtimeService } from './realtime/realtime-service.ts';
import type { Service } from './request-boundary.ts';
import { createRequestHandler, createUpgradeHandler, handleClientError, handleConnect } from './request-boundary.ts';
import { prepareRestLimits } from './rest/embed-budget.ts';
import { keepPlannerStatistics } from './rest/planner-statistics.ts';
import { createRestService } from './rest/rest-service.ts';
import type { RestSettings } from './rest/rest-settings.ts';
import { resolveRestSettings } from './rest/rest-settings.ts';
import type { SchemaCache } from './rest/schema-cache.ts';
import { loadSchemaCache } from './rest/schema-cache.ts';
import type { BackendLimits } from './service-limits.ts';
import { resolveLimits } from './service-limits.ts';

export type LocalStackOptions = {
  db: Database;
  /** 0 picks a free port. Default 54321. */
  port?: number;
  host?: string;
  keys?: StackKeys;
  /** Largest request body accepted, in bytes. Default serviceLimits.requestBodyBytes. */
  bodyLimit?: number;
  /** Limits that differ from serviceLimits and the environment (tests use small ones). */
  limits?: Partial<BackendLimits>;
  /** REST settings over those of the environment (exposed schemas, aggregates, plans, tx end). */
  rest?: Partial<RestSettings>;
  allowSignup?: boolean;
  /**
   * When set, written at start to the group's setting that admins must use an authenticator
   * app (private.security_settings); unset leaves what the Admin screen chose.
   */
  adminsNeedMfa?: boolean;
  /** Auth settings over those of the environment (token lifetimes, reuse interval, throttling). */
  auth?: AuthSettingsOverrides;
  seedWhenEmpty?: boolean;
  /**
   * false: serve the database as it is, without the product's migrations or demo data
   * (another schema under test, such as a client library's own test suite).
   */
  migrate?: boolean;
  functionsDir?: string;
  /** The data folder, for Auth's mailbox (none: e-mails go to the log). */
  dataDir?: string;
};

export type LocalStack = {
  url: string;
  port: number;
  keys: StackKeys;
  db: Database;
  /** Migrations this start applied (empty when the database was up to date). */
  appliedMigrations: string[];
  seeded: boolean;
  /** Database work Realtime did for deliveries (for tests and benchmarks). */
  realtimeStats(): RealtimeStats;
  /** The queue in front of the database for REST requests. */
  queue: RequestQueue;
  close(): Promise<void>;
};

const defaultFunctionsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../functions');

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const { db } = options;
  const keys = options.keys ?? (await keysFromEnv());
  await bootstrap(db);
  const migrate = options.migrate !== false;
  const appliedMigrations = migrate ? await applyMigrations(db) : [];
  const seeded = migrate && options.seedWhenEmpty !== false && (await isEmpty(db));
  if (seeded) await seed(db);
  if (options.adminsNeedMfa !== undefined) {
    await db.query(
      `insert into private.security_settings (admins_need_mfa) values ($1)
       on conflict (id) do update set admins_need_mfa = excluded.admins_need_mfa, updated_at = now(), updated_by = null`,
      [options.adminsNeedMfa],
    );
  }
  const restSettings = resolveRestSettings(options.rest);
  const schema: SchemaCache = await loadSchemaCache(db, restSettings.schemas);
  await prepareRestLimits(db);
  const limits = resolveLimits(process.env, options.limits);
  // PGlite runs one statement at a time whatever the queue allows; PostgreSQL keeps part
  // of its pool free for sign-in and Realtime, which do not queue.
  const queue = new RequestQueue({
    concurrency: db.engine === 'pglite' ? 1 : limits.dbConcurrentRequests,
    maxWaiting: limits.dbQueueLength,
    maxWaitingPerClient: limits.dbQueuePerClient,
    maxWaitMs: limits.dbQueueWaitMs,
  });
  // PGlite has no autovacuum; the planned-cost guard needs the planner's statistics from
  // the first request on.
  const statistics = db.engine === 'pglite' ? keepPlannerStatistics(db, queue) : null;
  await statistics?.refresh();

  const server = createServer();
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 54321, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;

  const auth = createAuthService({
    db,
    keys,
    issuer: `${url}/auth/v1`,
    dataDir: options.dataDir,
    allowSignup: options.allowSignup,
    settings: options.auth,
  });
  const rest = createRestService({ db, keys: verificationKeys(keys), schema: () => schema, limits, settings: restSettings, queue });
  const realtime = createRealtimeService({ db, jwtSecret: verificationKeys(keys), schema: () => schema });
  const functions = createFunctionsService({
    functionsDir: options.functionsDir ?? defaultFunctionsDir,
    env: { SUPABASE_URL: url, SUPABASE_ANON_KEY: keys.anonKey, SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey },
  });
  await realtime.start();
  const bodyLimit = options.bodyLimit ?? limits.requestBodyBytes;

  const apiKeys = [keys.anonKey, keys.serviceRoleKey];
  const services: Service[] = [
    { prefix: '/auth/v1', route: auth.route, needsApiKey: auth.needsApiKey },
    { prefix: '/rest/v1', route: rest.route, needsApiKey: () => true },
    { prefix: '/functions/v1', route: functions.route },
  ];

  server.on(
    'request',
    createRequestHandler({ services, bodyLimit, maxTargetBytes: limits.maxTargetBytes, retryAfterSeconds: limits.retryAfterSeconds, apiKeys }),
  );
  server.on('upgrade', createUpgradeHandler({ path: '/realtime/v1/websocket', apiKeys, handleUpgrade: realtime.handleUpgrade }));
  server.on('connect', handleConnect);
  server.on('clientError', handleClientError);

  return {
    url,
    port,
    keys,
    db,
    appliedMigrations,
    seeded,
    realtimeStats: () => realtime.stats(),
    queue,
    async close() {
      await statistics?.stop();
      await realtime.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
