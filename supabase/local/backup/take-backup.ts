/**
 * Takes a backup (backup-file.ts) of the embedded backend's database: PGlite's data
 * folder through the WebAssembly build of pg_dump that works on a PGlite instance, or a
 * PostgreSQL server (DATABASE_URL) through that server's own `pg_dump` program, which
 * must be installed (PostgreSQL client tools of the server's major version or newer).
 *
 * A PGlite folder can be opened by one process only, so a backup of it needs the backend
 * stopped; a PostgreSQL server is dumped while the backend runs (pg_dump reads one
 * consistent snapshot).
 */
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { pgDump } from '@electric-sql/pglite-tools/pg_dump';
import pg from 'pg';
import { lockDataFolder, lockHolder, secureDataFolder } from '../data-folder.ts';
import type { BackupHeader } from './backup-file.ts';
import { backupFormat, writeBackupFile } from './backup-file.ts';

export type DatabaseLocation = { databaseUrl?: string; dataDir?: string };

export type TableRows = { table: string; rows: number };

/** Data only (the schema comes from supabase/migrations on restore), as column-named INSERTs. */
const dumpArguments = [
  '--data-only',
  '--column-inserts',
  '--rows-per-insert=200',
  // Restoring must not fire the tables' triggers: they would stamp new times and
  // transaction ids on every row and announce each one over Realtime.
  '--disable-triggers',
  '--exclude-table-data=supabase_migrations.schema_migrations',
  // Rows the migrations themselves write (the synced-table registry): the restore's
  // migrations put them back, so a copy in the backup would collide with them.
  '--exclude-table-data=private.synced_tables',
];

type Query = (sql: string) => Promise<Array<Record<string, unknown>>>;

export class BackupError extends Error {}

async function describeSource(query: Query, engine: string): Promise<Omit<BackupHeader, 'format' | 'takenAt'>> {
  const [about = {}] = await query(
    `select current_setting('server_version') as version,
            pg_snapshot_xmax(pg_current_snapshot())::text as next_xid`,
  );
  const migrations = await query('select version from supabase_migrations.schema_migrations order by version');
  return {
    source: `${engine}, PostgreSQL ${String(about.version)}`,
    migrations: migrations.map((row) => String(row.version)),
    nextTransactionId: String(about.next_xid),
  };
}

/** Rows per table of the schemas a backup holds, for the operator's summary and tests. */
export async function countRows(query: Query): Promise<TableRows[]> {
  const tables = await query(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables
     where schemaname not in ('pg_catalog', 'information_schema', 'supabase_migrations')
     order by schemaname, tablename`,
  );
  const counts: TableRows[] = [];
  for (const { name } of tables) {
    const [row] = await query(`select count(*)::integer as n from ${String(name)}`);
    counts.push({ table: String(name), rows: Number(row?.n) });
  }
  return counts;
}

async function backupPglite(dataDir: string): Promise<{ text: string; tables: TableRows[] }> {
  const holder = await lockHolder(dataDir);
  if (holder !== null) {
    throw new BackupError(
      `The backend (pid ${holder}) has ${dataDir} open. Stop it (Ctrl-C where \`npm start\` runs), run the backup, and start it again: it takes seconds.`,
    );
  }
  const release = await lockDataFolder(dataDir);
  let pglite: PGlite | undefined;
  try {
    pglite = await PGlite.create(dataDir, { extensions: { pgcrypto } });
    const db = pglite;
    const query: Query = async (sql) => (await db.query<Record<string, unknown>>(sql)).rows;
    // The pg_dump wrapper deletes every line that starts with "\restrict" (meant for
    // psql's header lines), which would also cut such a line out of a stored text with
    // line breaks. With standard_conforming_strings off, pg_dump doubles every backslash
    // in the data, so no data line can start with one; restore-backup.ts reads it back so.
    await db.exec('set standard_conforming_strings = off');
    const dump = await (await pgDump({ pg: db, args: dumpArguments })).text();
    await db.exec('reset standard_conforming_strings');
    const about = await describeSource(query, 'PGlite');
    const tables = await countRows(query);
    return { text: writeBackupFile({ format: backupFormat, takenAt: new Date().toISOString(), ...about }, dump), tables };
  } finally {
    await pglite?.close();
    await secureDataFolder(dataDir);
    await release();
  }
}

/** Runs the machine's pg_dump; the password goes through the environment, never the command line. */
function runPgDump(databaseUrl: string): Promise<string> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return new Promise((resolve, reject) => {
    const child = spawn('pg_dump', [...dumpArguments, `--dbname=${url.toString()}`], {
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new BackupError('pg_dump was not found. Install the PostgreSQL client tools of your server\'s version or newer (Debian: apt-get install postgresql-client).')
          : error,
      ),
    );
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new BackupError(`pg_dump failed (exit code ${code}): ${errors.trim()}`));
    });
  });
}

async function backupPostgres(databaseUrl: string): Promise<{ text: string; tables: TableRows[] }> {
  const dump = await runPgDump(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const query: Query = async (sql) => (await client.query<Record<string, unknown>>(sql)).rows;
    // Read after the dump: the recorded transaction id is then beyond every row in it.
    const about = await describeSource(query, 'PostgreSQL server');
    const tables = await countRows(query);
    return { text: writeBackupFile({ format: backupFormat, takenAt: new Date().toISOString(), ...about }, dump), tables };
  } finally {
    await client.end();
  }
}

export async function takeBackup(location: DatabaseLocation): Promise<{ text: string; tables: TableRows[] }> {
  if (location.databaseUrl) return backupPostgres(location.databaseUrl);
  if (!location.dataDir) throw new BackupError('Nothing to back up: no DATABASE_URL and no data folder.');
  const initialised = await stat(path.join(location.dataDir, 'PG_VERSION')).then(() => true, () => false);
  if (!initialised) throw new BackupError(`There is no database in ${location.dataDir} (start the backend once, or set LOCAL_SUPABASE_DIR).`);
  return backupPglite(location.dataDir);
}
