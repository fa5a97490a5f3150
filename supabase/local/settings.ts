/**
 * The backend process's settings, all from environment variables (README, "The embedded
 * backend"). Read once at start; a bad value stops the start with a message naming it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type BackendSettings = {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** A PostgreSQL server instead of PGlite. */
  databaseUrl?: string;
  /** PGlite's files, the generated JWT secret and the lock (also used with DATABASE_URL, for the secret). */
  dataDir: string;
  allowSignup: boolean;
  /** LOCAL_SUPABASE_ADMIN_MFA: written at every start to the group's "admins must use an authenticator app" setting; unset leaves it to the Admin screen. */
  adminsNeedMfa?: boolean;
  /** Load the demo stores and accounts into an empty database. */
  seedWhenEmpty: boolean;
  /**
   * LOCAL_SUPABASE_MFA_WEBAUTHN: security keys and passkeys as a second sign-in factor. On
   * for the backend process (the app offers them); the Auth module alone, as GoTrue, has
   * them off unless told (auth/settings.ts).
   */
  mfaWebauthn: boolean;
};

export class SettingsError extends Error {}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new SettingsError(`${name} must be true or false, not "${value}".`);
}

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65_535) throw new SettingsError(`${name} must be a port number, not "${value}".`);
  return parsed;
}

export function dataDirFrom(env: NodeJS.ProcessEnv): string {
  return path.resolve(projectRoot, env.LOCAL_SUPABASE_DIR || '.local-supabase');
}

export function backendSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): BackendSettings {
  return {
    host: env.HOST || '127.0.0.1',
    port: port(env, 'SUPABASE_PORT', 54321),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: dataDirFrom(env),
    allowSignup: flag(env, 'LOCAL_SUPABASE_ALLOW_SIGNUP', false),
    adminsNeedMfa: env.LOCAL_SUPABASE_ADMIN_MFA ? flag(env, 'LOCAL_SUPABASE_ADMIN_MFA', false) : undefined,
    seedWhenEmpty: flag(env, 'LOCAL_SUPABASE_SEED', true),
    mfaWebauthn: flag(env, 'LOCAL_SUPABASE_MFA_WEBAUTHN', true),
  };
}
