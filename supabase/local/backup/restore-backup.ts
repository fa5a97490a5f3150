/**
 * Restores a backup (backup-file.ts) into an empty PGlite data folder or an empty
 * PostgreSQL database: the schema the backup was taken under is built from
 * supabase/migrations, the rows are loaded in one transaction (triggers off, so every
 * stored time and transaction id is kept), the transaction counter is moved beyond the
 * source's, and newer migrations are applied last.
 *
 * A non-empty target is refused unless `replace` is set: then a PGlite folder is moved
 * aside (nothing is deleted) and a PostgreSQL database loses the product's schemas.
 */
import { copyFile, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isEmptyFolder, lockDataFolder, lockHolder, secureDataFolder } from '../data-folder.ts';
import type { Database, Queryable } from '../db/database.ts';
import { applyMigrations, bootstrap, migrationsDir } from '../db/migrate.ts';
import { openDatabase } from '../db/open.ts';
import type { BackupHeader } from './backup-file.ts';
import { BackupFileError, readBackupFile } from './backup-file.ts';
import type { DatabaseLocation, TableRows } from './take-backup.ts';
import { countRows } from './take-backup.ts';

export class RestoreRefusedError extends Error {}

export type RestoreOutcome = {
  tables: TableRows[];
  /** Migrations newer than the backup, applied after its rows. */
  appliedAfter: string[];
  /** Where a replaced PGlite folder was moved. */
  movedAside?: string;
};

const productSchemas = ['public', 'auth', 'supabase_migrations', 'realtime_local', 'private'];

async function migrationFiles(): Promise<Map<string, string>> {
  const files = (await readdir(migrationsDir)).filter((name) => /^\d+_.+\.sql$/.test(name));
  return new Map(files.map((name) => [name.slice(0, name.indexOf('_')), name]));
}

/** Applies exactly the backup's migrations, from a folder holding only those files. */
async function applyBackupMigrations(db: Database, header: BackupHeader): Promise<void> {
  const files = await migrationFiles();
  const unknown = header.migrations.filter((version) => !files.has(version));
  if (unknown.length) {
    throw new BackupFileError(
      `The backup was made by a newer version of the product (migrations ${unknown.join(', ')} are not in supabase/migrations). Update, then restore.`,
    );
  }
  const folder = await mkdtemp(path.join(tmpdir(), 'restore-migrations-'));
  try {
    for (const version of header.migrations) {
      const file = files.get(version)!;
      await copyFile(path.join(migrationsDir, file), path.join(folder, file));
    }
    await applyMigrations(db, folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const nextXidSql = 'select pg_snapshot_xmax(pg_current_snapshot())::text as next';

/**
 * Devices remember the source's transaction ids as their sync position, so the restored
 * database must hand out larger ones from now on. Postgres has no statement to move its
 * counter, so each step of this loop uses one id: a block with an exception handler is a
 * subtransaction, and its insert gives it an id of its own. The block ends normally (a
 * raised and caught error costs three times as much), and the rows go with the
 * transaction's temporary table.
 */
export async function advanceTransactionIds(db: Database, beyond: bigint): Promise<void> {
  const batch = 200_000n;
  for (;;) {
    const { rows } = await db.query<{ next: string }>(nextXidSql);
    const missing = beyond - BigInt(rows[0]?.next ?? '0');
    if (missing <= 0n) return;
    const steps = missing < batch ? missing : batch;
    await db.transaction(async (tx: Queryable) => {
      await tx.exec(`
        create temporary table if not exists restore_transaction_ids (step integer) on commit drop;
        do $$
        begin
          for step in 1..${steps.toString()} loop
            begin
              insert into restore_transaction_ids values (step);
            exception when others then raise;
            end;
          end loop;
        end
        $$;`);
    });
  }
}

async function prepareFolder(dataDir: string, replace: boolean): Promise<string | undefined> {
  const holder = await lockHolder(dataDir);
  if (holder !== null) throw new RestoreRefusedError(`The backend (pid ${holder}) has ${dataDir} open. Stop it first.`);
  if (await isEmptyFolder(dataDir)) return undefined;
  if (!replace) {
    throw new RestoreRefusedError(
      `${dataDir} is not empty. Restore into an empty folder (set LOCAL_SUPABASE_DIR), or add --replace to move this one aside first.`,
    );
  }
  const aside = `${dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  await rename(dataDir, aside);
  return aside;
}

async function emptyDatabase(db: Database, replace: boolean): Promise<void> {
  const { rows } = await db.query<{ n: number }>(
    'select count(*)::integer as n from pg_tables where schemaname = any($1::text[])',
    [productSchemas],
  );
  if (rows[0]?.n === 0) return;
  if (!replace) {
    throw new RestoreRefusedError('The database is not empty. Restore into a new database (createdb), or add --replace to drop the product\'s schemas first.');
  }
  await db.exec(`drop schema if exists ${productSchemas.join(', ')} cascade; create schema public;`);
}

export async function restoreBackup(
  location: DatabaseLocation,
  text: string,
  options: { replace?: boolean } = {},
): Promise<RestoreOutcome> {
  const { header, body } = readBackupFile(text);
  const replace = options.replace === true;
  let movedAside: string | undefined;
  let release: (() => Promise<void>) | undefined;
  if (!location.databaseUrl) {
    if (!location.dataDir) throw new RestoreRefusedError('Nowhere to restore to: no DATABASE_URL and no data folder.');
    movedAside = await prepareFolder(location.dataDir, replace);
    await secureDataFolder(location.dataDir);
    release = await lockDataFolder(location.dataDir);
  }
  let db: Database | undefined;
  let restored = false;
  try {
    db = await openDatabase(location);
    if (location.databaseUrl) await emptyDatabase(db, replace);
    await bootstrap(db);
    await applyBackupMigrations(db, header);
    await db.transaction(async (tx) => {
      // Postgres reads a whole script before running any of it, so the dump's own SET
      // comes too late for the string literals that follow it: set it first.
      if (/^SET standard_conforming_strings = off;$/m.test(body)) {
        await tx.exec('set local standard_conforming_strings = off; set local escape_string_warning = off;');
      }
      await tx.exec(body);
      // The dump sets session settings (an empty search_path among them).
      await tx.exec('reset all');
    });
    await advanceTransactionIds(db, BigInt(header.nextTransactionId));
    const appliedAfter = await applyMigrations(db);
    const open = db;
    const tables = await countRows(async (sql) => (await open.query(sql)).rows);
    restored = true;
    return { tables, appliedAfter, movedAside };
  } finally {
    await db?.close();
    if (location.dataDir && !location.databaseUrl) {
      await release?.();
      // A failed restore leaves the folder as it found it, so it can simply be tried again.
      if (!restored) {
        await rm(location.dataDir, { recursive: true, force: true });
        if (movedAside) await rename(movedAside, location.dataDir);
      } else {
        await secureDataFolder(location.dataDir);
      }
    }
  }
}
