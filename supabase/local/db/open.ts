import { mkdir } from 'node:fs/promises';
import type { Database } from './database.ts';
import { openPgliteDatabase } from './pglite-database.ts';
import { openPostgresDatabase } from './postgres-database.ts';

/** A real PostgreSQL when `databaseUrl` is given, else PGlite keeping its data in `dataDir`. */
export async function openDatabase(options: { databaseUrl?: string; dataDir?: string }): Promise<Database> {
  if (options.databaseUrl) return openPostgresDatabase(options.databaseUrl);
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  return openPgliteDatabase(options.dataDir);
}
