/**
 * The embedded stack for the conformance suites: a fresh database on one engine with the
 * product's migrations, the demo data and the PostgREST-documentation fixture
 * (fixture.sql), its schemas exposed next to public, and real supabase-js clients. Options
 * set what hosted Supabase leaves to its settings (aggregates, plans, tx end, signing key).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import type { AuthSettingsOverrides } from '../../../../supabase/local/auth/settings.ts';
import type { StackKeys } from '../../../../supabase/local/config.ts';
import type { RestSettings } from '../../../../supabase/local/rest/rest-settings.ts';
import type { LocalStack } from '../../../../supabase/local/server.ts';
import { startLocalStack } from '../../../../supabase/local/server.ts';
import type { BackendLimits } from '../../../../supabase/local/service-limits.ts';
import { demo } from '../../../support/demo.ts';
import type { EngineName, TestDatabase } from '../../../support/test-databases.ts';
import { createTestDatabase } from '../../../support/test-databases.ts';

export type ConformanceStack = LocalStack & {
  database: TestDatabase;
  /** The mailbox file Auth writes its e-mails to. */
  mailboxFile: string;
  /** A client with the anon key, its `db.schema` set. */
  anon(schema?: string): SupabaseClient;
  service(schema?: string): SupabaseClient;
  signIn(email: string, password?: string, schema?: string): Promise<SupabaseClient>;
  sql<T extends Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** A raw REST request with the service role (headers supabase-js cannot send). */
  rest(pathAndQuery: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
};

export const fixtureSchemas = ['public', 'conformance', 'conformance_b'];

export async function startConformanceStack(
  engine: EngineName,
  options: {
    rest?: Partial<RestSettings>;
    auth?: AuthSettingsOverrides;
    keys?: StackKeys;
    limits?: Partial<BackendLimits>;
    allowSignup?: boolean;
    /** More test-only objects, created after the fixture and before the backend reads the schema. */
    setupSql?: string;
  } = {},
): Promise<ConformanceStack> {
  const database = await createTestDatabase(engine);
  await database.exec(await readFile(new URL('./fixture.sql', import.meta.url), 'utf8'));
  if (options.setupSql) await database.exec(options.setupSql);
  const folder = await mkdtemp(path.join(tmpdir(), 'conformance-mailbox-'));
  const mailboxFile = path.join(folder, 'mail-outbox.jsonl');
  const stack = await startLocalStack({
    db: database,
    port: 0,
    keys: options.keys,
    limits: options.limits,
    allowSignup: options.allowSignup,
    rest: { schemas: fixtureSchemas, ...options.rest },
    auth: { ...options.auth, mail: { mailboxFile, ...options.auth?.mail } },
  });
  const clients: SupabaseClient[] = [];
  const make = (key: string, schema = 'conformance'): SupabaseClient => {
    // A client of another schema than public is typed for that schema; the tests use it untyped.
    const client = createClient(stack.url, key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
      db: { schema },
    }) as unknown as SupabaseClient;
    clients.push(client);
    return client;
  };
  return {
    ...stack,
    database,
    mailboxFile,
    anon: (schema) => make(stack.keys.anonKey, schema),
    service: (schema) => make(stack.keys.serviceRoleKey, schema),
    async signIn(email, password = demo.password, schema) {
      const client = make(stack.keys.anonKey, schema);
      const { error } = await client.auth.signInWithPassword({ email, password });
      if (error) throw new Error(`sign-in as ${email} failed: ${error.message}`);
      return client;
    },
    async sql(text, params = []) {
      return (await database.query(text, params)).rows as never;
    },
    rest(pathAndQuery, init = {}) {
      return fetch(`${stack.url}/rest/v1/${pathAndQuery}`, {
        ...init,
        headers: {
          apikey: stack.keys.anonKey,
          Authorization: `Bearer ${stack.keys.serviceRoleKey}`,
          'Accept-Profile': 'conformance',
          'Content-Profile': 'conformance',
          ...init.headers,
        },
      });
    },
    async stop() {
      await Promise.all(clients.map((client) => client.removeAllChannels()));
      await stack.close();
      await database.dispose();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** Ids of rows, sorted, for comparing sets of rows found. */
export const ids = (rows: Array<{ id: number }> | null) => (rows ?? []).map((r) => r.id).sort((a, b) => a - b);
