/**
 * Authenticators are data like any other: a factor verified before a restart, or before
 * a backup, still signs its person in to aal2 after the restart and after the backup is
 * restored (into PGlite, and into PostgreSQL when the suite has one); the group's
 * setting for admins comes back too.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { createClient } from '@supabase/supabase-js';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { restoreBackup } from '../../../supabase/local/backup/restore-backup.ts';
import { takeBackup } from '../../../supabase/local/backup/take-backup.ts';
import type { Database } from '../../../supabase/local/db/database.ts';
import { openDatabase } from '../../../supabase/local/db/open.ts';
import type { LocalStack } from '../../../supabase/local/server.ts';
import { startLocalStack } from '../../../supabase/local/server.ts';
import { demo } from '../../support/demo.ts';
import type { Enrolled } from '../../support/mfa.ts';
import { enrolAndVerify, sessionClaims, verifyWithCode } from '../../support/mfa.ts';
import { emptyPostgresDatabase, engines } from '../../support/test-databases.ts';
import { pgliteDataFolder } from '../../support/database-templates.ts';

const slow = 300_000;

async function signedIn(stack: LocalStack, email: string): Promise<SupabaseClient> {
  const client = createClient(stack.url, stack.keys.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
  const { error } = await client.auth.signInWithPassword({ email, password: demo.password });
  if (error) throw new Error(error.message);
  return client;
}

/** The manager signs in with the password (aal1, aal2 next) and then with the same authenticator (aal2). */
async function stillSignsInWithCode(db: Database, factor: Enrolled): Promise<void> {
  const stack = await startLocalStack({ db, port: 0 });
  try {
    const manager = await signedIn(stack, 'manager@example.com');
    expect((await manager.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    await verifyWithCode(manager, factor);
    expect(await sessionClaims(manager)).toMatchObject({ aal: 'aal2' });
    expect((await manager.rpc('security_settings')).data).toMatchObject({ admins_need_mfa: true });
  } finally {
    await stack.close();
  }
}

describe('authenticators across a restart and a backup', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('keep working after a restart, and after the backup is restored on each engine', async () => {
    const sourceDir = await pgliteDataFolder('seeded', 'mfa-source-');
    cleanup.push(() => rm(sourceDir, { recursive: true, force: true }));
    let factor: Enrolled;
    const db = await openDatabase({ dataDir: sourceDir });
    const first = await startLocalStack({ db, port: 0 });
    try {
      factor = await enrolAndVerify(await signedIn(first, 'manager@example.com'), 'Manager phone');
      const admin = await signedIn(first, 'admin@example.com');
      expect((await admin.functions.invoke('admin-api', { body: { action: 'setAdminsNeedMfa', payload: { on: true } } })).error).toBeNull();
    } finally {
      await first.close();
      await db.close();
    }

    const reopened = await openDatabase({ dataDir: sourceDir });
    try {
      await stillSignsInWithCode(reopened, factor);
    } finally {
      await reopened.close();
    }

    const { text } = await takeBackup({ dataDir: sourceDir });
    expect(text).toContain('auth.mfa_factors');
    const target = path.join(await mkdtemp(path.join(tmpdir(), 'mfa-restore-')), 'data');
    cleanup.push(() => rm(path.dirname(target), { recursive: true, force: true }));
    await restoreBackup({ dataDir: target }, text);
    const restored = await openDatabase({ dataDir: target });
    try {
      await stillSignsInWithCode(restored, factor);
    } finally {
      await restored.close();
    }

    if (engines.includes('postgres')) {
      const database = await emptyPostgresDatabase('mfa_restore');
      cleanup.push(() => database.drop());
      await restoreBackup({ databaseUrl: database.url }, text);
      const server = await openDatabase({ databaseUrl: database.url });
      try {
        await stillSignsInWithCode(server, factor);
      } finally {
        await server.close();
      }
    }
  }, slow);
});
