/**
 * A security key is data like any other: registered before a restart, or before a
 * backup, it still signs its person in to aal2 after the restart and after the backup is
 * restored (into PGlite, and into PostgreSQL when the suite has one), with its signature
 * counter carried on. A backend started with WebAuthn off keeps the key and refuses it as
 * GoTrue does.
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
import { sessionClaims } from '../../support/mfa.ts';
import { SoftwareAuthenticator } from '../../support/software-authenticator.ts';
import { emptyPostgresDatabase, engines } from '../../support/test-databases.ts';
import { pgliteDataFolder } from '../../support/database-templates.ts';
import { registerKey, relyingParty, signInWithKey } from '../../support/webauthn.ts';

const slow = 300_000;
const withKeys = { mfa: { webauthnEnabled: true, relyingParty } };

async function signedIn(stack: LocalStack, email: string): Promise<SupabaseClient> {
  const client = createClient(stack.url, stack.keys.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
  const { error } = await client.auth.signInWithPassword({ email, password: demo.password });
  if (error) throw new Error(error.message);
  return client;
}

async function signCount(db: Database, factorId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(`select (web_authn_credential #>> '{authenticator,signCount}')::int as count from auth.mfa_factors where id = $1`, [factorId]);
  return Number(rows[0]?.count);
}

/** The manager signs in with the password (aal1, aal2 next) and then with the same key (aal2); the counter moves on. */
async function stillSignsInWithKey(db: Database, factorId: string, key: SoftwareAuthenticator): Promise<void> {
  const stack = await startLocalStack({ db, port: 0, auth: withKeys });
  try {
    const before = await signCount(db, factorId);
    const manager = await signedIn(stack, 'manager@example.com');
    expect((await manager.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    await signInWithKey(manager, factorId, key);
    expect(await sessionClaims(manager)).toMatchObject({ aal: 'aal2', amr: [{ method: 'mfa/webauthn' }, { method: 'password' }] });
    expect(await signCount(db, factorId)).toBeGreaterThan(before);
  } finally {
    await stack.close();
  }
}

describe('security keys across a restart and a backup', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('keep working after a restart, and after the backup is restored on each engine', async () => {
    const sourceDir = await pgliteDataFolder('seeded', 'webauthn-source-');
    cleanup.push(() => rm(sourceDir, { recursive: true, force: true }));
    const key = new SoftwareAuthenticator();
    let factorId: string;
    const db = await openDatabase({ dataDir: sourceDir });
    const first = await startLocalStack({ db, port: 0, auth: withKeys });
    try {
      factorId = await registerKey(await signedIn(first, 'manager@example.com'), key, 'Manager key');
    } finally {
      await first.close();
      await db.close();
    }

    const reopened = await openDatabase({ dataDir: sourceDir });
    try {
      await stillSignsInWithKey(reopened, factorId, key);
      // Turned off, the backend keeps the key and answers as GoTrue does with WebAuthn off.
      const off = await startLocalStack({ db: reopened, port: 0 });
      try {
        const manager = await signedIn(off, 'manager@example.com');
        expect((await manager.auth.mfa.challenge({ factorId, webauthn: { rpId: 'localhost' } })).error).toMatchObject({
          status: 422,
          code: 'mfa_webauthn_verify_not_enabled',
          message: 'MFA verification is disabled for WebAuthn',
        });
        expect((await manager.auth.mfa.listFactors()).data?.webauthn).toEqual([expect.objectContaining({ id: factorId })]);
      } finally {
        await off.close();
      }
    } finally {
      await reopened.close();
    }

    const { text } = await takeBackup({ dataDir: sourceDir });
    expect(text).toContain('web_authn_credential');
    const target = path.join(await mkdtemp(path.join(tmpdir(), 'webauthn-restore-')), 'data');
    cleanup.push(() => rm(path.dirname(target), { recursive: true, force: true }));
    await restoreBackup({ dataDir: target }, text);
    const restored = await openDatabase({ dataDir: target });
    try {
      await stillSignsInWithKey(restored, factorId, key);
    } finally {
      await restored.close();
    }

    if (engines.includes('postgres')) {
      const database = await emptyPostgresDatabase('webauthn_restore');
      cleanup.push(() => database.drop());
      await restoreBackup({ databaseUrl: database.url }, text);
      const server = await openDatabase({ databaseUrl: database.url });
      try {
        await stillSignsInWithKey(server, factorId, key);
      } finally {
        await server.close();
      }
    }
  }, slow);
});
