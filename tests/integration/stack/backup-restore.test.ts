import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { restoreBackup } from '../../../supabase/local/backup/restore-backup.ts';
import { takeBackup } from '../../../supabase/local/backup/take-backup.ts';
import type { Database } from '../../../supabase/local/db/database.ts';
import { openDatabase } from '../../../supabase/local/db/open.ts';
import { runScript } from '../../support/run-script.ts';
import type { LocalStack } from '../../../supabase/local/server.ts';
import { startLocalStack } from '../../../supabase/local/server.ts';
import { demo } from '../../support/demo.ts';
import type { TableFingerprint } from '../../support/fingerprint.ts';
import { tableFingerprints } from '../../support/fingerprint.ts';
import { emptyPostgresDatabase, engines } from '../../support/test-databases.ts';
import { pgliteDataFolder } from '../../support/database-templates.ts';

// A backup of a seeded database with writes of its own (a new user, sessions, text that
// looks like SQL and psql commands), restored into a fresh PGlite folder and a fresh
// PostgreSQL database: every row of every table comes back (counts and digests computed
// by each database), people sign in, sessions go on, and devices keep syncing.

const trickyName = 'O\'Brien "Bo"\n\\restrict x\n-- ; drop table stores; 🚗';
const newUser = { email: 'restored.user@example.com', password: 'correct horse battery staple' };
const slow = 300_000;

const client = (stack: LocalStack, key = stack.keys.anonKey): SupabaseClient =>
  createClient(stack.url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });

/** The pull cursor a device holds after reading a table to its end. */
async function pullToEnd(device: SupabaseClient, table: string, cursor: unknown = null): Promise<{ cursor: unknown; rows: Array<Record<string, unknown>> }> {
  const rows: Array<Record<string, unknown>> = [];
  for (;;) {
    const { data, error } = await device.rpc('pull_changes', { p_table: table, p_cursor: cursor });
    if (error) throw new Error(error.message);
    const page = data as { rows: Array<Record<string, unknown>>; has_more: boolean; cursor: unknown };
    rows.push(...page.rows);
    cursor = page.cursor;
    if (!page.has_more) return { cursor, rows };
  }
}

type Source = { fingerprints: Record<string, TableFingerprint>; refreshToken: string; cursor: unknown };

/** What people do on a restored database: sign in (old and new accounts), refresh an old session, write, and sync on. */
async function useRestored(db: Database, source: Source) {
  const stack = await startLocalStack({ db, port: 0 });
  try {
    expect(stack.seeded).toBe(false);
    const manager = client(stack);
    expect((await manager.auth.signInWithPassword({ email: 'manager@example.com', password: demo.password })).error).toBeNull();
    const restoredUser = client(stack);
    expect((await restoredUser.auth.signInWithPassword(newUser)).error).toBeNull();
    const tablet = client(stack);
    const refreshed = await tablet.auth.refreshSession({ refresh_token: source.refreshToken });
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.user?.email).toBe('manager@example.com');

    const advisors = await tablet.from('front_end_team_advisors').select('advisor_name').eq('advisor_name', trickyName);
    expect(advisors).toMatchObject({ error: null, data: [{ advisor_name: trickyName }] });
    // A write after the restore reaches a device that synced before the backup.
    const written = await tablet
      .from('monthly_targets')
      .upsert({ store_id: demo.storeA, year: 2045, month: 2, metric_key: 'afterRestore', target_value: 5 }, { onConflict: 'store_id,year,month,metric_key' });
    expect(written.error).toBeNull();
    const pulled = await pullToEnd(tablet, 'monthly_targets', source.cursor);
    expect(pulled.rows.map((row) => row.metric_key)).toContain('afterRestore');
  } finally {
    await stack.close();
  }
}

describe('backups', () => {
  const cleanup: Array<() => Promise<void>> = [];
  let sourceDir = '';
  let backupFile = '';
  let source: Source;

  beforeAll(async () => {
    sourceDir = await pgliteDataFolder('seeded', 'backup-source-');
    cleanup.push(() => rm(sourceDir, { recursive: true, force: true }));
    const db = await openDatabase({ dataDir: sourceDir });
    const stack = await startLocalStack({ db, port: 0 });
    try {
      const created = await client(stack, stack.keys.serviceRoleKey).auth.admin.createUser({
        ...newUser,
        email_confirm: true,
        app_metadata: { store_id: demo.storeA, is_admin: false },
      });
      expect(created.error).toBeNull();
      const manager = client(stack);
      const session = await manager.auth.signInWithPassword({ email: 'manager@example.com', password: demo.password });
      expect(session.error).toBeNull();
      const writes = await Promise.all([
        manager.from('front_end_team_advisors').insert({ store_id: demo.storeA, advisor_name: trickyName }),
        manager.from('monthly_targets').upsert({ store_id: demo.storeA, year: 2045, month: 1, metric_key: 'cpElr', target_value: 123.45 }, { onConflict: 'store_id,year,month,metric_key' }),
        manager.rpc('push_changes', { p_table: 'yearly_financial_inputs', p_rows: [{ store_id: demo.storeA, year: 2045, month: 3, sales: 98765.43 }] }),
      ]);
      expect(writes.map((write) => write.error)).toEqual([null, null, null]);
      const { cursor } = await pullToEnd(manager, 'monthly_targets');
      // The session the tablet keeps: signed in again so its refresh token was never used.
      const tablet = client(stack);
      const kept = await tablet.auth.signInWithPassword({ email: 'manager@example.com', password: demo.password });
      source = { fingerprints: {}, refreshToken: kept.data.session?.refresh_token ?? '', cursor };
    } finally {
      await stack.close();
      await db.close();
    }
    const check = await openDatabase({ dataDir: sourceDir });
    source.fingerprints = await tableFingerprints(check);
    await check.close();
    backupFile = path.join(await mkdtemp(path.join(tmpdir(), 'backup-file-')), 'backup.sql');
    cleanup.push(() => rm(path.dirname(backupFile), { recursive: true, force: true }));
  }, slow);
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('npm run backup writes a private plain SQL file, and refuses while a backend has the folder open', async () => {
    await writeFile(path.join(sourceDir, 'backend.lock'), `${process.pid}\n`);
    const refused = await runScript('backup', [backupFile], { LOCAL_SUPABASE_DIR: sourceDir });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`The backend (pid ${process.pid}) has ${sourceDir} open`);
    await rm(path.join(sourceDir, 'backend.lock'));

    const made = await runScript('backup', [backupFile], { LOCAL_SUPABASE_DIR: sourceDir });
    expect(made.output).toMatch(/Backed up \d+ rows in \d+ tables/);
    expect(made.code).toBe(0);
    expect((await stat(backupFile)).mode & 0o777).toBe(0o600);
    expect(source.fingerprints['auth.users']?.rows).toBe(4);
    expect(source.fingerprints['auth.sessions']?.rows).toBeGreaterThanOrEqual(2);
  }, slow);

  it('npm run restore brings every row back into a fresh PGlite folder, and refuses a folder that is not empty', async () => {
    const target = await mkdtemp(path.join(tmpdir(), 'restore-pglite-'));
    cleanup.push(() => rm(target, { recursive: true, force: true }));
    await rm(target, { recursive: true });
    const restored = await runScript('restore', [backupFile], { LOCAL_SUPABASE_DIR: target });
    expect(restored.output).toContain('Restored');
    expect(restored.code).toBe(0);

    const again = await runScript('restore', [backupFile], { LOCAL_SUPABASE_DIR: target });
    expect(again.code).toBe(1);
    expect(again.output).toContain('is not empty');

    const db = await openDatabase({ dataDir: target });
    try {
      expect(await tableFingerprints(db)).toEqual(source.fingerprints);
      await useRestored(db, source);
    } finally {
      await db.close();
    }
    expect((await readdir(target)).includes('backend.lock')).toBe(false);
  }, slow);

  it.runIf(engines.includes('postgres'))('npm run restore brings every row back into a fresh PostgreSQL database, and refuses one that is not empty', async () => {
    const database = await emptyPostgresDatabase('restore');
    cleanup.push(() => database.drop());
    const restored = await runScript('restore', [backupFile], { DATABASE_URL: database.url });
    expect(restored.output).toContain('Restored');
    expect(restored.code).toBe(0);
    const again = await runScript('restore', [backupFile], { DATABASE_URL: database.url });
    expect(again.code).toBe(1);
    expect(again.output).toContain('The database is not empty');

    const db = await openDatabase({ databaseUrl: database.url });
    try {
      expect(await tableFingerprints(db)).toEqual(source.fingerprints);
      await useRestored(db, source);
    } finally {
      await db.close();
    }
  }, slow);

  it.runIf(engines.includes('postgres'))("backs up a PostgreSQL database with the server's pg_dump and restores it into PGlite", async () => {
    const database = await emptyPostgresDatabase('restore');
    cleanup.push(() => database.drop());
    const original = await openDatabase({ databaseUrl: database.url });
    await restoreBackup({ databaseUrl: database.url }, (await takeBackup({ dataDir: sourceDir })).text);
    await original.query("update store_settings set stalls = 23 where store_id = $1", [demo.storeA]);
    const expected = await tableFingerprints(original);
    await original.close();

    const { text } = await takeBackup({ databaseUrl: database.url });
    // psql's \restrict header lines (random keys) are gone; the stored text with its own such line stays.
    expect(text).not.toMatch(/^\\(un)?restrict [A-Za-z0-9]{20,}$/m);
    expect(text).toContain('\n\\restrict x\n');
    const target = await mkdtemp(path.join(tmpdir(), 'restore-from-postgres-'));
    cleanup.push(() => rm(target, { recursive: true, force: true }));
    await restoreBackup({ dataDir: target }, text);
    const db = await openDatabase({ dataDir: target });
    try {
      expect(await tableFingerprints(db)).toEqual(expected);
      expect((await db.query('select stalls from store_settings where store_id = $1', [demo.storeA])).rows).toEqual([{ stalls: 23 }]);
    } finally {
      await db.close();
    }
  }, slow);
});
