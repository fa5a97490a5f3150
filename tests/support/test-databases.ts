/**
 * Fresh, migrated and seeded databases for tests, on each engine available: PGlite
 * always, and a real PostgreSQL server when TEST_DATABASE_URL names one (a connection
 * that may CREATE DATABASE). CI sets it; there a missing server is an error, not a skip.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Database } from '../../supabase/local/db/database.ts';
import { openPgliteDatabase } from '../../supabase/local/db/pglite-database.ts';
import { openPostgresDatabase } from '../../supabase/local/db/postgres-database.ts';
import { applyMigrations, bootstrap, seed } from '../../supabase/local/db/migrate.ts';

export type TestDatabase = Database & { dispose(): Promise<void> };

export type EngineName = 'pglite' | 'postgres';

const adminUrl = process.env.TEST_DATABASE_URL;

if (process.env.CI && !adminUrl) {
  throw new Error('CI must set TEST_DATABASE_URL so the database suites also run on PostgreSQL.');
}

/** The engines this run covers, in the order their suites are declared. */
export const engines: EngineName[] = adminUrl ? ['pglite', 'postgres'] : ['pglite'];

/**
 * `migrate: false` gives a bootstrapped database with no migration applied (for tests
 * that apply them in steps, as an upgrade would); it implies no seed. `serverUrl` names
 * another PostgreSQL server than TEST_DATABASE_URL (the benchmarks' BENCH_DATABASE_URL).
 */
export async function createTestDatabase(
  engine: EngineName,
  options: { seed?: boolean; migrate?: boolean; serverUrl?: string } = {},
): Promise<TestDatabase> {
  const db: TestDatabase =
    engine === 'pglite' ? withDispose(await openPgliteDatabase()) : await createPostgresDatabase(options.serverUrl ?? adminUrl);
  await bootstrap(db);
  if (options.migrate === false) return db;
  await applyMigrations(db);
  if (options.seed !== false) await seed(db);
  return db;
}

function withDispose(db: Database): TestDatabase {
  return { ...db, dispose: () => db.close() };
}

async function createPostgresDatabase(serverUrl: string | undefined): Promise<TestDatabase> {
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openPostgresDatabase(url.toString());
  return {
    ...db,
    async dispose() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
