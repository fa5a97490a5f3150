/**
 * Fresh, migrated and seeded databases for tests, on each engine available: PGlite
 * always, and a real PostgreSQL server when TEST_DATABASE_URL names one (a connection
 * that may CREATE DATABASE). CI sets it; there a missing server is an error, not a skip.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Database } from '../../supabase/local/db/database.ts';
import { openPostgresDatabase } from '../../supabase/local/db/postgres-database.ts';
import { bootstrap } from '../../supabase/local/db/migrate.ts';
import type { TemplateKind } from './database-templates.ts';
import { createPostgresCopy, openPgliteCopy, pgliteTemplate, postgresTemplate } from './database-templates.ts';

export type TestDatabase = Database & { dispose(): Promise<void> };

export type EngineName = 'pglite' | 'postgres';

const adminUrl = process.env.TEST_DATABASE_URL;

if (process.env.CI && !adminUrl) {
  throw new Error('CI must set TEST_DATABASE_URL so the database suites also run on PostgreSQL.');
}

/** The engines this run covers, in the order their suites are declared. */
export const engines: EngineName[] = adminUrl ? ['pglite', 'postgres'] : ['pglite'];

/**
 * The engine of suites that run on one only (the browser journeys): PostgreSQL when a
 * server is at hand, as on a hosted project, where it also costs the test process far
 * less CPU than PGlite's WebAssembly; otherwise PGlite. The database and stack suites
 * cover both engines, and the drills run the embedded backend's own process on PGlite.
 */
export const serverEngine: EngineName = adminUrl ? 'postgres' : 'pglite';

/** Builds (or finds) an engine's seeded template, so the files that copy it do not wait for it. */
export async function prepareSeededTemplate(engine: EngineName): Promise<void> {
  if (engine === 'pglite') await pgliteTemplate('seeded');
  else if (adminUrl) await postgresTemplate(adminUrl, 'seeded');
  else throw new Error('TEST_DATABASE_URL is not set');
}

/**
 * `migrate: false` gives a bootstrapped database with no migration applied (for tests
 * that apply them in steps, as an upgrade would); it implies no seed. `serverUrl` names
 * another PostgreSQL server than TEST_DATABASE_URL (the benchmarks' BENCH_DATABASE_URL).
 */
export async function createTestDatabase(
  engine: EngineName,
  options: { seed?: boolean; migrate?: boolean; serverUrl?: string } = {},
): Promise<TestDatabase> {
  // Migrated databases are copies of a template built once (tests/support/database-templates.ts);
  // only a database meant to receive migrations in steps is built here.
  const kind: TemplateKind | undefined = options.migrate === false ? undefined : options.seed === false ? 'migrated' : 'seeded';
  if (engine === 'pglite') {
    return withDispose(await openPgliteCopy(kind ?? 'bootstrapped'));
  }
  const db = await createPostgresDatabase(options.serverUrl ?? adminUrl, kind);
  if (!kind) await bootstrap(db);
  return db;
}

function withDispose(db: Database): TestDatabase {
  return { ...db, dispose: () => db.close() };
}

async function createPostgresDatabase(serverUrl: string | undefined, kind: TemplateKind | undefined): Promise<TestDatabase> {
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `test_${randomUUID().replaceAll('-', '')}`;
  if (kind) await createPostgresCopy(serverUrl, kind, name);
  else await withServer(serverUrl, (admin) => admin.query(`create database ${name}`));
  const created = databaseOnServer(serverUrl, name);
  const db = await openPostgresDatabase(created.url);
  return {
    ...db,
    async dispose() {
      await db.close();
      await created.drop();
    },
  };
}

/**
 * How many of this database's sessions are queued behind another's lock (PostgreSQL): what
 * a test of what waits for what asks the server, rather than timing it.
 */
export async function sessionsWaitingOnLocks(db: Pick<Database, 'query'>): Promise<number> {
  const { rows } = await db.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
  return rows[0]?.n ?? 0;
}

/**
 * An empty database on the PostgreSQL server of TEST_DATABASE_URL (nothing bootstrapped),
 * for a restore or a load to fill; drop() removes it.
 */
export async function emptyPostgresDatabase(prefix: string, serverUrl = adminUrl): Promise<{ url: string; drop(): Promise<void> }> {
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `${prefix}_${randomUUID().replaceAll('-', '')}`;
  await withServer(serverUrl, (admin) => admin.query(`create database ${name}`));
  return databaseOnServer(serverUrl, name);
}

function databaseOnServer(serverUrl: string, name: string): { url: string; drop(): Promise<void> } {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withServer(serverUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`)),
  };
}

async function withServer(serverUrl: string, work: (admin: pg.Client) => Promise<unknown>): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}
