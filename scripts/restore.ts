/**
 * `npm run restore -- FILE [--replace]`: restores a backup made by `npm run backup`
 * into the embedded backend's database (PGlite in LOCAL_SUPABASE_DIR, or DATABASE_URL).
 * The target must be empty; --replace moves a PGlite folder aside (kept, renamed) or
 * drops the product's schemas of a PostgreSQL database first. Stop the backend first.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BackupFileError } from '../supabase/local/backup/backup-file.ts';
import { RestoreRefusedError, restoreBackup } from '../supabase/local/backup/restore-backup.ts';
import { backendSettingsFromEnv } from '../supabase/local/settings.ts';

const usage = 'Usage: npm run restore -- FILE [--replace]';

async function main() {
  const args = process.argv.slice(2);
  const replace = args.includes('--replace');
  const files = args.filter((arg) => arg !== '--replace');
  const [given] = files;
  if (files.length !== 1 || !given || given.startsWith('-')) throw new RestoreRefusedError(usage);
  const file = path.resolve(given);
  const text = await readFile(file, 'utf8');
  const settings = backendSettingsFromEnv();
  const into = settings.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${settings.dataDir}`;
  const outcome = await restoreBackup({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir }, text, { replace });
  const rows = outcome.tables.reduce((sum, table) => sum + table.rows, 0);
  const lines = [
    `Restored ${rows} rows in ${outcome.tables.length} tables from ${file}`,
    `into ${into}.`,
    outcome.movedAside ? `The previous data folder was moved to ${outcome.movedAside}.` : '',
    outcome.appliedAfter.length ? `Applied ${outcome.appliedAfter.length} newer migration(s).` : '',
    'Start the backend with `npm start`.',
  ];
  process.stdout.write(`${lines.filter(Boolean).join('\n')}\n`);
}

main().catch((error: unknown) => {
  const known = error instanceof RestoreRefusedError || error instanceof BackupFileError || (error as NodeJS.ErrnoException).code === 'ENOENT';
  process.stderr.write(`${known ? (error as Error).message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
