/**
 * `npm run remove-authenticators -- EMAIL`, the operator's way back in when the only admin
 * lost their phone: it removes the account's authenticators from a stopped backend's data
 * folder, after which the account signs in with the password alone; it refuses while the
 * backend has the folder open, and names an unknown address.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createClient } from '@supabase/supabase-js';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openDatabase } from '../../../supabase/local/db/open.ts';
import type { LocalStack } from '../../../supabase/local/server.ts';
import { startLocalStack } from '../../../supabase/local/server.ts';
import { runScript } from '../../support/run-script.ts';
import { demo } from '../../support/demo.ts';
import { enrolAndVerify } from '../../support/mfa.ts';
import { pgliteDataFolder } from '../../support/database-templates.ts';

async function withStack<T>(dataDir: string, work: (stack: LocalStack) => Promise<T>): Promise<T> {
  const db = await openDatabase({ dataDir });
  const stack = await startLocalStack({ db, port: 0 });
  try {
    return await work(stack);
  } finally {
    await stack.close();
    await db.close();
  }
}

const adminLevels = (stack: LocalStack) =>
  (async () => {
    const client = createClient(stack.url, stack.keys.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
    });
    const { error } = await client.auth.signInWithPassword({ email: 'admin@example.com', password: demo.password });
    if (error) throw new Error(error.message);
    return { client, levels: (await client.auth.mfa.getAuthenticatorAssuranceLevel()).data };
  })();

describe('npm run remove-authenticators', () => {
  let dataDir = '';
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('removes the only admin\'s authenticator from a stopped backend, and refuses while it runs', async () => {
    dataDir = await pgliteDataFolder('seeded', 'remove-authenticators-');
    await withStack(dataDir, async (stack) => {
      const { client } = await adminLevels(stack);
      await enrolAndVerify(client, 'Lost phone');
      expect((await adminLevels(stack)).levels).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    });

    await writeFile(path.join(dataDir, 'backend.lock'), `${process.pid}\n`);
    const refused = await runScript('remove-authenticators', ['admin@example.com'], { LOCAL_SUPABASE_DIR: dataDir });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`The backend (pid ${process.pid}) has ${dataDir} open`);
    await rm(path.join(dataDir, 'backend.lock'));

    const unknown = await runScript('remove-authenticators', ['nobody@example.com'], { LOCAL_SUPABASE_DIR: dataDir });
    expect(unknown).toMatchObject({ code: 1, output: 'No account has the e-mail address nobody@example.com.\n' });
    const removed = await runScript('remove-authenticators', ['ADMIN@example.com'], { LOCAL_SUPABASE_DIR: dataDir });
    expect(removed.output).toBe('Removed 1 authenticator(s) of admin@example.com. They sign in with the password alone until they set up a new one (Settings, Authenticator).\n');
    expect(removed.code).toBe(0);

    await withStack(dataDir, async (stack) => {
      expect((await adminLevels(stack)).levels).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
    });
  }, 300_000);
});
