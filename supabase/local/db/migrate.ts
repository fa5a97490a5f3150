import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.ts';

const supabaseDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const migrationsDir = path.join(supabaseDir, 'migrations');
const bootstrapFile = path.join(supabaseDir, 'local', 'bootstrap.sql');
const seedFile = path.join(supabaseDir, 'seed.sql');

/** Creates what hosted Supabase provides before migrations: roles, auth schema, helpers. */
export async function bootstrap(db: Database): Promise<void> {
  await db.exec(await readFile(bootstrapFile, 'utf8'));
}

/**
 * Applies every migration in supabase/migrations not yet recorded, in file-name order,
 * each in its own transaction together with its bookkeeping row, so a failed migration
 * leaves no trace and is retried on the next start. Returns the names it applied.
 */
export async function applyMigrations(db: Database, dir = migrationsDir): Promise<string[]> {
  await db.exec(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (
      version text primary key,
      name text not null,
      applied_at timestamptz not null default now()
    );`);
  const applied = new Set(
    (await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations'))
      .rows.map((row) => row.version),
  );
  const files = (await readdir(dir)).filter((name) => /^\d+_.+\.sql$/.test(name)).sort();
  const done: string[] = [];
  for (const file of files) {
    const version = file.slice(0, file.indexOf('_'));
    if (applied.has(version)) continue;
    const sql = await readFile(path.join(dir, file), 'utf8');
    await db.transaction(async (tx) => {
      await tx.exec(sql);
      await tx.query(
        'insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)',
        [version, file],
      );
    });
    done.push(file);
  }
  return done;
}

/** Loads the demo stores, users and data of supabase/seed.sql. */
export async function seed(db: Database): Promise<void> {
  await db.exec(await readFile(seedFile, 'utf8'));
}

/** True when the database holds no store yet (a fresh install that wants demo data). */
export async function isEmpty(db: Database): Promise<boolean> {
  const { rows } = await db.query<{ n: number }>('select count(*)::integer as n from public.stores');
  return rows[0]?.n === 0;
}
