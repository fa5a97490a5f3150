/**
 * Authenticators are data like any other: an authenticator app and a security key,
 * registered before a restart or a backup, still sign their people in to aal2 after the
 * restart and after the backup is restored (into PGlite, and into PostgreSQL when the
 * suite has one). The group's setting for admins comes back too, and a key's signature
 * counter carries on. A backend started with WebAuthn off keeps the key and refuses it as
 * GoTrue does. One data folder, one backup and one restore per engine serve both kinds
 * (the manager has the app, store B's manager the key).
 */
import { mkdtemp, rm } from 'node:fs/promises';
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
import type { LocalStack } from '../../../supabase/local/server.ts';
import { startLocalStack } from '../../../supabase/local/server.ts';
import { pgliteDataFolder } from '../../support/database-templates.ts';
import { demo } from '../../support/demo.ts';
import type { Enrolled } from '../../support/mfa.ts';
import { enrolAndVerify, sessionClaims, verifyWithCode } from '../../support/mfa.ts';
import { SoftwareAuthenticator } from '../../support/software-authenticator.ts';
import { emptyPostgresDatabase, engines } from '../../support/test-databases.ts';
import { registerKey, relyingParty, signInWithKey } from '../../support/webauthn.ts';

const slow = 300_000;
const withKeys = { mfa: { webauthnEnabled: true, relyingParty } };
const appUser = 'manager@example.com';
const keyUser = 'other@example.com';

/** A database the authenticators were carried into, named for the failure messages. */
type Place = { name: string; db: Database };

async function signedIn(stack: LocalStack, email: string): Promise<SupabaseClient> {
  const client = createClient(stack.url, stack.keys.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
  const { error } = await client.auth.signInWithPassword({ email, password: demo.password });
  if (error) throw new Error(error.message);
  return client;
}

/** Runs a check, naming the place in its failure. */
async function at(place: Place, check: (db: Database) => Promise<void>): Promise<void> {
  try {
    await check(place.db);
  } catch (error) {
    if (error instanceof Error) error.message = `${place.name}: ${error.message}`;
    throw error;
  }
}

async function signCount(db: Database, factorId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(`select (web_authn_credential #>> '{authenticator,signCount}')::int as count from auth.mfa_factors where id = $1`, [factorId]);
  return Number(rows[0]?.count);
}

describe('authenticators across a restart and a backup', () => {
  const cleanup: Array<() => Promise<void>> = [];
  const places: Place[] = [];
  const key = new SoftwareAuthenticator();
  let app: Enrolled;
  let keyId = '';

  beforeAll(async () => {
    const sourceDir = await pgliteDataFolder('seeded', 'authenticators-source-');
    cleanup.push(() => rm(sourceDir, { recursive: true, force: true }));
    const db = await openDatabase({ dataDir: sourceDir });
    const first = await startLocalStack({ db, port: 0, auth: withKeys });
    try {
      app = await enrolAndVerify(await signedIn(first, appUser), 'Manager phone');
      keyId = await registerKey(await signedIn(first, keyUser), key, 'Store B key');
      const admin = await signedIn(first, 'admin@example.com');
      expect((await admin.functions.invoke('admin-api', { body: { action: 'setAdminsNeedMfa', payload: { on: true } } })).error).toBeNull();
    } finally {
      await first.close();
      await db.close();
    }

    const { text } = await takeBackup({ dataDir: sourceDir });
    expect(text).toContain('auth.mfa_factors');
    expect(text).toContain('web_authn_credential');

    // The restart: the same folder opened again by a new database process.
    const reopened = await openDatabase({ dataDir: sourceDir });
    cleanup.push(() => reopened.close());
    places.push({ name: 'after a restart', db: reopened });

    const target = path.join(await mkdtemp(path.join(tmpdir(), 'authenticators-restore-')), 'data');
    cleanup.push(() => rm(path.dirname(target), { recursive: true, force: true }));
    await restoreBackup({ dataDir: target }, text);
    const restored = await openDatabase({ dataDir: target });
    cleanup.push(() => restored.close());
    places.push({ name: 'restored into PGlite', db: restored });

    if (engines.includes('postgres')) {
      const database = await emptyPostgresDatabase('authenticators_restore');
      cleanup.push(() => database.drop());
      await restoreBackup({ databaseUrl: database.url }, text);
      const server = await openDatabase({ databaseUrl: database.url });
      cleanup.push(() => server.close());
      places.push({ name: 'restored into PostgreSQL', db: server });
    }
  }, slow);

  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  }, slow);

  it('an authenticator app keeps working after a restart, and after the backup is restored on each engine', async () => {
    expect(places.map((place) => place.name)).toContain('restored into PGlite');
    for (const place of places) {
      await at(place, async (db) => {
        const stack = await startLocalStack({ db, port: 0 });
        try {
          const person = await signedIn(stack, appUser);
          expect((await person.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
          await verifyWithCode(person, app);
          expect(await sessionClaims(person)).toMatchObject({ aal: 'aal2' });
          expect((await person.rpc('security_settings')).data).toMatchObject({ admins_need_mfa: true });
        } finally {
          await stack.close();
        }
      });
    }
  }, slow);

  it('a security key keeps working after a restart, and after the backup is restored on each engine, its counter carried on', async () => {
    for (const place of places) {
      await at(place, async (db) => {
        const stack = await startLocalStack({ db, port: 0, auth: withKeys });
        try {
          const before = await signCount(db, keyId);
          const person = await signedIn(stack, keyUser);
          expect((await person.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
          await signInWithKey(person, keyId, key);
          expect(await sessionClaims(person)).toMatchObject({ aal: 'aal2', amr: [{ method: 'mfa/webauthn' }, { method: 'password' }] });
          expect(await signCount(db, keyId)).toBeGreaterThan(before);
        } finally {
          await stack.close();
        }
      });
    }
  }, slow);

  it('a backend with WebAuthn off keeps the key and answers as GoTrue does', async () => {
    const restarted = places[0]!;
    const off = await startLocalStack({ db: restarted.db, port: 0 });
    try {
      const person = await signedIn(off, keyUser);
      expect((await person.auth.mfa.challenge({ factorId: keyId, webauthn: { rpId: 'localhost' } })).error).toMatchObject({
        status: 422,
        code: 'mfa_webauthn_verify_not_enabled',
        message: 'MFA verification is disabled for WebAuthn',
      });
      expect((await person.auth.mfa.listFactors()).data?.webauthn).toEqual([expect.objectContaining({ id: keyId })]);
    } finally {
      await off.close();
    }
  }, slow);
});
