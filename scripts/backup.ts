/**
 * `npm run backup [-- FILE]`: writes a plain SQL backup of the embedded backend's
 * database (PGlite in LOCAL_SUPABASE_DIR, or DATABASE_URL) to FILE, by default
 * backups/service-dashboard-<date and time>.sql. The file is private to this account:
 * it holds password hashes and session tokens.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BackupError, takeBackup } from '../supabase/local/backup/take-backup.ts';
import { restrictNewFiles } from '../supabase/local/data-folder.ts';
import { backendSettingsFromEnv, projectRoot } from '../supabase/local/settings.ts';

async function main() {
  const settings = backendSettingsFromEnv();
  const target = process.argv[2]
    ? path.resolve(process.argv[2])
    : path.join(projectRoot, 'backups', `service-dashboard-${new Date().toISOString().replace(/[:.]/g, '-')}.sql`);
  restrictNewFiles();
  const { text, tables } = await takeBackup({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir });
  await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  await writeFile(target, text, { mode: 0o600, flag: 'wx' });
  const rows = tables.reduce((sum, table) => sum + table.rows, 0);
  const from = settings.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${settings.dataDir}`;
  process.stdout.write(`Backed up ${rows} rows in ${tables.length} tables from ${from}\nto ${target} (${text.length} bytes).\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof BackupError || (error as NodeJS.ErrnoException).code === 'EEXIST' ? (error as Error).message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
