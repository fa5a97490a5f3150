import { secureDataFolder } from '../data-folder.ts';
import type { Database } from './database.ts';
import { openPostgresDatabase } from './postgres-database.ts';
import { openWorkerDatabase } from './worker-database.ts';

/**
 * A real PostgreSQL when `databaseUrl` is given, else PGlite keeping its data in
 * `dataDir`, in a worker thread (worker-database.ts) so that the event loop never waits
 * on a statement, and a statement past the statement timeout ends the worker and the
 * folder is opened again. A data folder is made private to this account (0700, files 0600) before
 * and after PGlite opens it, because PGlite sets some file modes of its own.
 *
 * Durability: PGlite writes through to the files at each write (no buffering of its
 * own) and Postgres writes a commit's WAL before the commit returns, so a reply sent
 * after a commit survives the process being killed. That holds only with
 * synchronous_commit on (Postgres's default), so it is stated here rather than assumed.
 * PGlite never fsyncs: after a power cut the operating system may lose the last
 * seconds; PostgreSQL (DATABASE_URL) is the choice where that matters.
 */
export async function openDatabase(options: { databaseUrl?: string; dataDir?: string }): Promise<Database> {
  if (options.databaseUrl) return openPostgresDatabase(options.databaseUrl);
  const { dataDir } = options;
  if (!dataDir) return openWorkerDatabase();
  await secureDataFolder(dataDir);
  const db = await openWorkerDatabase({
    dataDir,
    setup: ['set synchronous_commit = on'],
    afterReopen: () => secureDataFolder(dataDir),
  });
  await secureDataFolder(dataDir);
  return db;
}
