/**
 * Settings of the embedded stack, from the environment where set. Without
 * SUPABASE_JWT_SECRET it falls back to the well-known demo secret that `supabase start`
 * uses, so a build made for local works without a .env; that fallback is for demos
 * only and is announced loudly, because anyone can sign tokens with a published secret.
 */
import { resolveSigningKey, signingAlgorithmFromEnv } from './auth/signing-keys.ts';
import type { JwtKeys, SigningKey } from './jwt.ts';
import { signJwt } from './jwt.ts';

export const demoJwtSecret = 'super-secret-jwt-token-with-at-least-32-characters-long';

export type StackKeys = {
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  /** True when the published demo secret is in use. */
  usingDemoSecret: boolean;
  /** The asymmetric key that signs sessions (LOCAL_SUPABASE_JWT_SIGNING_ALG), when not HS256. */
  signing?: SigningKey;
};

/** What verifies the stack's tokens: the shared secret and the signing key, if any. */
export const verificationKeys = (keys: StackKeys): JwtKeys => ({ secret: keys.jwtSecret, signing: keys.signing });

/** The API keys `supabase start` prints, derived from the secret the same way. */
export async function apiKeysFor(jwtSecret: string): Promise<{ anonKey: string; serviceRoleKey: string }> {
  const key = (role: string) => signJwt({ iss: 'supabase-demo', role, exp: 1983812996 }, jwtSecret);
  return { anonKey: await key('anon'), serviceRoleKey: await key('service_role') };
}

/**
 * The keys from the environment. With an asymmetric LOCAL_SUPABASE_JWT_SIGNING_ALG the
 * signing key is kept in `dataDir` (generated there on the first start), or held in
 * memory when there is no data folder.
 */
export async function keysFromEnv(env: NodeJS.ProcessEnv = process.env, options: { dataDir?: string } = {}): Promise<StackKeys> {
  const jwtSecret = env.SUPABASE_JWT_SECRET || demoJwtSecret;
  if (jwtSecret.length < 32) throw new Error('SUPABASE_JWT_SECRET must be at least 32 characters long.');
  const derived = await apiKeysFor(jwtSecret);
  const alg = signingAlgorithmFromEnv(env);
  return {
    jwtSecret,
    anonKey: env.SUPABASE_ANON_KEY || derived.anonKey,
    serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY || derived.serviceRoleKey,
    usingDemoSecret: jwtSecret === demoJwtSecret,
    signing: alg === 'HS256' ? undefined : await resolveSigningKey(alg, options.dataDir),
  };
}
