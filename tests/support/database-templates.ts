/**
 * Migrated (and seeded) databases built once and copied for every test that wants one:
 * building takes seconds, a copy a fraction of that. PGlite copies come from a dump of
 * its data folder kept in the temporary folder; PostgreSQL copies are CREATE DATABASE
 * ... TEMPLATE of a database kept on the server. Both are named by a hash of everything
 * that decides their content (bootstrap, migrations, seed, PGlite's version) and of the
 * day, since the seed dates its demo data from current_date: a changed migration or
 * seed, or a new day, gives a new template and the old one is never used again.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import pg from 'pg';
import type { Database } from '../../supabase/local/db/database.ts';
import { pgliteDatabase } from '../../supabase/local/db/pglite-database.ts';
import { openPostgresDatabase } from '../../supabase/local/db/postgres-database.ts';
import { applyMigrations, bootstrap, migrationsDir, seed } from '../../supabase/local/db/migrate.ts';

/**
 * 'seeded': migrations and the demo seed; 'migrated': migrations only; 'bootstrapped':
 * the roles and schemas migrations expect, no migration (for tests that apply them in
 * steps). A PGlite copy of the last spares initdb, which takes longer than every migration.
 */
export type TemplateKind = 'seeded' | 'migrated' | 'bootstrapped';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pgliteCacheDir = path.join(tmpdir(), 'service-dashboard-test-databases');
/** Every PostgreSQL template's name starts so; the day follows (see dropStaleTemplates). */
const postgresPrefix = 'test_tpl_';

let keyPromise: Promise<string> | undefined;

/** `<yyyymmdd>_<hash>`: the day (UTC) and a hash of what the template is built from. */
export function templateKey(): Promise<string> {
  keyPromise ??= (async () => {
    const hash = createHash('sha256');
    const pglitePackage = path.join(root, 'node_modules/@electric-sql/pglite/package.json');
    const inputs = [
      path.join(root, 'supabase/local/bootstrap.sql'),
      path.join(root, 'supabase/seed.sql'),
      pglitePackage,
      // How a template is built and dumped is part of what it is.
      fileURLToPath(import.meta.url),
      ...(await readdir(migrationsDir)).sort().map((name) => path.join(migrationsDir, name)),
    ];
    for (const file of inputs) {
      hash.update(path.relative(root, file));
      hash.update(await readFile(file));
    }
    const day = new Date().toISOString().slice(0, 10).replaceAll('-', '');
    return `${day}_${hash.digest('hex').slice(0, 16)}`;
  })();
  return keyPromise;
}

async function build(db: Database, kind: TemplateKind): Promise<void> {
  await bootstrap(db);
  if (kind !== 'bootstrapped') await applyMigrations(db);
  if (kind === 'seeded') await seed(db);
  // The planner's statistics, as a backend leaves them once it has started on the
  // database (PGlite has no autovacuum, so the backend analyzes what was never analyzed
  // before it answers): without them every copy a suite starts a backend on would be
  // analyzed again, table by table. tests/integration/stack/planner-statistics.test.ts
  // starts one on tables that were never analyzed.
  await db.exec('analyze');
}

function openPglite(loadDataDir?: Blob): Promise<PGlite> {
  return PGlite.create({ extensions: { pgcrypto }, loadDataDir });
}

const pgliteDumps = new Map<TemplateKind, Promise<Blob>>();

/** The dump of a PGlite data folder holding the template; built and stored on first use. */
export function pgliteTemplate(kind: TemplateKind): Promise<Blob> {
  let dump = pgliteDumps.get(kind);
  if (!dump) {
    dump = loadOrBuildPgliteDump(kind);
    pgliteDumps.set(kind, dump);
    dump.catch(() => pgliteDumps.delete(kind));
  }
  return dump;
}

async function loadOrBuildPgliteDump(kind: TemplateKind): Promise<Blob> {
  const file = path.join(pgliteCacheDir, `${await templateKey()}-${kind}.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const pglite = await openPglite();
  let dump: Blob;
  try {
    await build(pgliteDatabase(pglite), kind);
    // The dump is of a running database: without a checkpoint first, every copy opened
    // from it replays the whole build from the write-ahead log before it answers.
    await pglite.exec('checkpoint');
    dump = await pglite.dumpDataDir('none');
  } finally {
    await pglite.close();
  }
  // Written under a name of its own and renamed: a test process reading the file while
  // another writes it sees the whole dump or none.
  await mkdir(pgliteCacheDir, { recursive: true });
  const partial = `${file}.${randomUUID()}.partial`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await rename(partial, file);
  return dump;
}

/** A new in-memory PGlite holding a copy of the template. */
export async function openPgliteCopy(kind: TemplateKind): Promise<Database> {
  return pgliteDatabase(await openPglite(await pgliteTemplate(kind)));
}

/**
 * A new temporary PGlite data folder holding a copy of the template, as the backend leaves
 * one after its first start (less the secret it writes beside the data, made on the next
 * start): for tests of restarts, backups and scripts that start from a folder in use.
 */
export async function pgliteDataFolder(kind: TemplateKind, prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  const pglite = await PGlite.create(dir, { extensions: { pgcrypto }, loadDataDir: await pgliteTemplate(kind) });
  await pglite.close();
  return dir;
}

async function withAdmin<T>(serverUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const postgresTemplates = new Map<string, Promise<string>>();

/** The name of the template database on that server; built on first use. */
export function postgresTemplate(serverUrl: string, kind: TemplateKind): Promise<string> {
  const id = `${serverUrl} ${kind}`;
  let name = postgresTemplates.get(id);
  if (!name) {
    name = ensurePostgresTemplate(serverUrl, kind);
    postgresTemplates.set(id, name);
    name.catch(() => postgresTemplates.delete(id));
  }
  return name;
}

async function ensurePostgresTemplate(serverUrl: string, kind: TemplateKind): Promise<string> {
  const name = `${postgresPrefix}${await templateKey()}_${kind}`;
  const exists = await withAdmin(serverUrl, async (admin) => {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    return rowCount === 1;
  });
  if (exists) return name;
  // Built under a name of its own, then renamed: a template appears complete or not at
  // all, and two test processes building it at once both succeed (one copy is dropped).
  const building = `${postgresPrefix}building_${randomUUID().replaceAll('-', '')}`;
  await withAdmin(serverUrl, (admin) => admin.query(`create database ${building}`));
  try {
    const db = await openPostgresDatabase(databaseUrl(serverUrl, building));
    try {
      await build(db, kind);
    } finally {
      await db.close();
    }
    await withAdmin(serverUrl, async (admin) => {
      await admin.query(`alter database ${building} is_template true`);
      try {
        await admin.query(`alter database ${building} rename to ${name}`);
      } catch (error) {
        if ((error as { code?: string }).code !== '42P04') throw error; // another process won
      }
    });
  } finally {
    await withAdmin(serverUrl, async (admin) => {
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [building]);
      if (rowCount === 1) {
        await admin.query(`alter database ${building} is_template false`);
        await admin.query(`drop database ${building} with (force)`);
      }
    });
  }
  return name;
}

/**
 * A new database on that server copied from the template. CREATE DATABASE refuses to
 * copy a database someone is connected to (55006); nothing connects to a template, but
 * a moment's retry costs nothing should an administrator look at one.
 */
export async function createPostgresCopy(serverUrl: string, kind: TemplateKind, name: string): Promise<void> {
  const template = await postgresTemplate(serverUrl, kind);
  await withAdmin(serverUrl, async (admin) => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await admin.query(`create database ${name} template ${template}`);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || attempt === 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  });
}

/**
 * Drops templates of days before yesterday (a run that started yesterday may still use
 * yesterday's), on the server and in the temporary folder, so neither fills up.
 */
async function dropStaleTemplates(serverUrl: string): Promise<void> {
  const today = (await templateKey()).slice(0, 8);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
  await withAdmin(serverUrl, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname like 'test\\_tpl\\_%'`,
    );
    for (const { datname } of rows) {
      const day = datname.slice(postgresPrefix.length, postgresPrefix.length + 8);
      if (!/^\d{8}$/.test(day) || day === today || day === yesterday) continue;
      await admin.query(`alter database ${datname} is_template false`);
      await admin.query(`drop database if exists ${datname} with (force)`);
    }
  });
}

async function dropStalePgliteDumps(): Promise<void> {
  const key = await templateKey();
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
  const files = await readdir(pgliteCacheDir).catch(() => []);
  for (const file of files) {
    if (file.startsWith(key.slice(0, 8)) || file.startsWith(yesterday)) continue;
    await rm(path.join(pgliteCacheDir, file), { force: true });
  }
}

/** Builds every template a run needs before its test files start (vitest global setup). */
export async function prepareTemplates(serverUrl: string | undefined): Promise<void> {
  const kinds: TemplateKind[] = ['seeded', 'migrated'];
  const postgres = async (url: string) => {
    await dropStaleTemplates(url);
    // One after the other: on a new server the first bootstrap creates the API roles, which
    // belong to the whole server, and two creating them at once would collide.
    for (const kind of kinds) await postgresTemplate(url, kind);
  };
  await Promise.all([
    dropStalePgliteDumps(),
    // A bootstrapped PostgreSQL database is a plain CREATE DATABASE away; only PGlite's is copied.
    ...[...kinds, 'bootstrapped' as const].map((kind) => pgliteTemplate(kind)),
    ...(serverUrl ? [postgres(serverUrl)] : []),
  ]);
}
