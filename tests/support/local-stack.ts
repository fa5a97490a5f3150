/**
 * The embedded stack started in-process on a free port, and real supabase-js clients
 * pointed at it, signed in as the demo accounts. Nothing here mocks the client.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import type { BackendLimits } from '../../supabase/local/service-limits.ts';
import type { AuthSettingsOverrides } from '../../supabase/local/auth/settings.ts';
import type { RestSettings } from '../../supabase/local/rest/rest-settings.ts';
import type { LocalStack } from '../../supabase/local/server.ts';
import { startLocalStack } from '../../supabase/local/server.ts';
import type { EngineName, TestDatabase } from './test-databases.ts';
import { createTestDatabase } from './test-databases.ts';
import { demo } from './demo.ts';

export type TestStack = LocalStack & {
  database: TestDatabase;
  /** A client with no session (anonymous, the anon key). */
  anon(): SupabaseClient;
  /** A client with the service-role key. */
  service(): SupabaseClient;
  /** A client signed in with e-mail and password (demo password by default). */
  signIn(email: string, password?: string): Promise<SupabaseClient>;
  stop(): Promise<void>;
};

export async function startTestStack(
  options: {
    engine?: EngineName;
    /** The PostgreSQL server for engine 'postgres', when not TEST_DATABASE_URL. */
    serverUrl?: string;
    auth?: AuthSettingsOverrides;
    bodyLimit?: number;
    allowSignup?: boolean;
    /** The group's "admins must use an authenticator app" setting, written at start. */
    adminsNeedMfa?: boolean;
    limits?: Partial<BackendLimits>;
    /** REST settings hosted Supabase leaves to its PostgREST configuration (aggregates, plans, tx end). */
    rest?: Partial<RestSettings>;
    /** Test-only objects, created in the database copy before the backend reads its schema. */
    setupSql?: string;
  } = {},
): Promise<TestStack> {
  const database = await createTestDatabase(options.engine ?? 'pglite', { serverUrl: options.serverUrl });
  if (options.setupSql) await database.exec(options.setupSql);
  const stack = await startLocalStack({
    db: database,
    port: 0,
    auth: options.auth,
    bodyLimit: options.bodyLimit,
    allowSignup: options.allowSignup,
    adminsNeedMfa: options.adminsNeedMfa,
    limits: options.limits,
    rest: options.rest,
  });
  const clients: SupabaseClient[] = [];
  const make = (key: string) => {
    const client = createClient(stack.url, key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
    });
    clients.push(client);
    return client;
  };
  return {
    ...stack,
    database,
    anon: () => make(stack.keys.anonKey),
    service: () => make(stack.keys.serviceRoleKey),
    async signIn(email, password = demo.password) {
      const client = make(stack.keys.anonKey);
      const { error } = await client.auth.signInWithPassword({ email, password });
      if (error) throw new Error(`sign-in as ${email} failed: ${error.message}`);
      return client;
    },
    async stop() {
      await Promise.all(clients.map((client) => client.removeAllChannels()));
      await stack.close();
      await database.dispose();
    },
  };
}
