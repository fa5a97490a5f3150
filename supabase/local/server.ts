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
import { serviceLimits } from '../../src/domain/limits.ts';
import { createAuthService } from './auth/auth-service.ts';
import type { StackKeys } from './config.ts';
import { keysFromEnv } from './config.ts';
import type { Database } from './db/database.ts';
import { applyMigrations, bootstrap, isEmpty, seed } from './db/migrate.ts';
import { createFunctionsService } from './functions/functions-service.ts';
import type { Reply } from './http.ts';
import { BodyTooLargeError, clientAddress, corsHeaders, jsonReply, readBody, send } from './http.ts';
import { log } from './logger.ts';
import type { RealtimeStats } from './realtime/realtime-service.ts';
import { createRealtimeService } from './realtime/realtime-service.ts';
import type { StackRequest } from './request.ts';
import { createRestService } from './rest/rest-service.ts';
import type { SchemaCache } from './rest/schema-cache.ts';
import { loadSchemaCache } from './rest/schema-cache.ts';

export type LocalStackOptions = {
  db: Database;
  /** 0 picks a free port. Default 54321. */
  port?: number;
  host?: string;
  keys?: StackKeys;
  /** Largest request body accepted, in bytes. Default serviceLimits.requestBodyBytes. */
  bodyLimit?: number;
  allowSignup?: boolean;
  /** Auth settings over those of the environment (token lifetimes, reuse interval, throttling). */
  auth?: AuthSettingsOverrides;
  seedWhenEmpty?: boolean;
  functionsDir?: string;
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
  close(): Promise<void>;
};

const defaultFunctionsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../functions');

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const { db } = options;
  const keys = options.keys ?? (await keysFromEnv());
  await bootstrap(db);
  const appliedMigrations = await applyMigrations(db);
  const seeded = options.seedWhenEmpty !== false && (await isEmpty(db));
  if (seeded) await seed(db);
  const schema: SchemaCache = await loadSchemaCache(db);

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
    jwtSecret: keys.jwtSecret,
    issuer: `${url}/auth/v1`,
    allowSignup: options.allowSignup,
    settings: options.auth,
  });
  const rest = createRestService({ db, jwtSecret: keys.jwtSecret, schema: () => schema });
  const realtime = createRealtimeService({ db, jwtSecret: keys.jwtSecret, schema: () => schema });
  const functions = createFunctionsService({
    functionsDir: options.functionsDir ?? defaultFunctionsDir,
    env: { SUPABASE_URL: url, SUPABASE_ANON_KEY: keys.anonKey, SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey },
  });
  await realtime.start();
  realtime.attach(server);
  const bodyLimit = options.bodyLimit ?? serviceLimits.requestBodyBytes;

  const services: Array<[string, (req: StackRequest) => Promise<Reply>]> = [
    ['/auth/v1', auth.route],
    ['/rest/v1', rest.route],
    ['/functions/v1', functions.route],
  ];

  server.on('request', (req, res) => {
    const started = performance.now();
    const requestUrl = new URL(req.url ?? '/', url);
    const method = req.method ?? 'GET';
    const finish = (reply: Reply) => {
      send(res, reply, method === 'HEAD');
      log.info(`${method} ${requestUrl.pathname} ${reply.status} ${(performance.now() - started).toFixed(1)}ms`);
    };
    void (async () => {
      if (method === 'OPTIONS') return finish({ status: 204, headers: corsHeaders });
      if (requestUrl.pathname === '/health') return finish(jsonReply(200, { status: 'ok' }));
      const service = services.find(([prefix]) => requestUrl.pathname === prefix || requestUrl.pathname.startsWith(`${prefix}/`));
      if (!service) {
        return finish(jsonReply(404, { code: 'PGRST125', details: null, hint: null, message: 'Invalid path specified in request URL' }));
      }
      const body = await readBody(req, bodyLimit);
      finish(
        await service[1]({
          method,
          url: requestUrl,
          path: requestUrl.pathname.slice(service[0].length) || '/',
          headers: req.headers,
          body,
          address: clientAddress(req),
        }),
      );
    })().catch((error: unknown) => {
      if (error instanceof BodyTooLargeError) {
        res.setHeader('Connection', 'close');
        return finish(jsonReply(413, { code: 'PGRST413', details: null, hint: null, message: error.message }));
      }
      log.error(`${method} ${requestUrl.pathname}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      finish(jsonReply(500, { code: 'XX000', details: null, hint: null, message: 'Internal server error' }));
    });
  });

  return {
    url,
    port,
    keys,
    db,
    appliedMigrations,
    seeded,
    realtimeStats: () => realtime.stats(),
    async close() {
      await realtime.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
