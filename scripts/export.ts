/**
 * `npm run export -- --for-supabase FILE`: writes the SQL file that moves the embedded
 * backend's data (PGlite in LOCAL_SUPABASE_DIR, or DATABASE_URL) and its accounts, with
 * their passwords, into a hosted Supabase project after `supabase db push`. The file is
 * private to this account: it holds password hashes and authenticator secrets. README, "Moving from one machine to
 * a hosted project", gives the steps.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { restrictNewFiles } from '../supabase/local/data-folder.ts';
import { ExportRefusedError } from '../supabase/local/export/read-source.ts';
import { takeExport } from '../supabase/local/export/take-export.ts';
import { backendSettingsFromEnv } from '../supabase/local/settings.ts';

const usage = 'Usage: npm run export -- --for-supabase FILE';

function notesLines(summary: Awaited<ReturnType<typeof takeExport>>): string[] {
  const { notes } = summary;
  const lines = [
    notes.unconfirmed ? `${notes.unconfirmed} account(s) have not confirmed their e-mail address: they confirm it on the hosted project (send them a new link).` : '',
    notes.invitedWithoutPassword ? `${notes.invitedWithoutPassword} invitation(s) not yet accepted: invite them again from the hosted project.` : '',
    notes.pendingEmailChanges ? `${notes.pendingEmailChanges} change(s) of e-mail address waiting for confirmation are dropped: ask for them again.` : '',
    notes.withoutEmailIdentity ? `${notes.withoutEmailIdentity} account(s) without an e-mail identity get one on loading.` : '',
    notes.factorsLeft ? `${notes.factorsLeft} authenticator(s) whose setup was never finished are left out: set them up again.` : '',
    notes.securityKeysLeft
      ? `${notes.securityKeysLeft} security key(s) or passkey(s) are left out: their owners add them again in the app once it points at the project ` +
        '(turn on WebAuthn multi-factor in its Authentication settings first); until then they sign in with the password, and an authenticator app where they have one.'
      : '',
  ];
  return lines.filter(Boolean);
}

async function main() {
  const args = process.argv.slice(2);
  const files = args.filter((arg) => arg !== '--for-supabase');
  const [given] = files;
  if (!args.includes('--for-supabase') || files.length !== 1 || !given || given.startsWith('-')) throw new ExportRefusedError(usage);
  const target = path.resolve(given);
  const settings = backendSettingsFromEnv();
  restrictNewFiles();
  const summary = await takeExport({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir });
  await writeFile(target, summary.text, { mode: 0o600, flag: 'wx' });
  const rows = summary.tables.reduce((sum, table) => sum + table.rows, 0);
  const from = settings.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${settings.dataDir}`;
  const lines = [
    `Exported ${summary.accounts} accounts, ${summary.factors} authenticators and ${rows} rows in ${summary.tables.length} tables from ${from}`,
    `to ${target} (${summary.text.length} bytes; it holds password hashes and authenticator secrets: keep it private and delete it after the move).`,
    ...notesLines(summary),
    'Next: `supabase link --project-ref <ref>`, `supabase db push`, then `psql "$SUPABASE_DB_URL" -f ' + target + '`.',
    settings.databaseUrl ? 'Anything written to the database after this export is not in the file: keep the backend stopped until the app points at the project.' : '',
  ];
  process.stdout.write(`${lines.filter(Boolean).join('\n')}\n`);
}

main().catch((error: unknown) => {
  const known = error instanceof ExportRefusedError || (error as NodeJS.ErrnoException).code === 'EEXIST';
  process.stderr.write(`${known ? (error as Error).message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
