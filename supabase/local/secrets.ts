/**
 * The secret that signs sessions and API keys. SUPABASE_JWT_SECRET wins when set;
 * otherwise a random secret is generated on the first start and kept in the data folder
 * (a 0600 file), so a fresh install never runs on the secret published in every
 * Supabase tutorial, and later starts (and the app's anon key) stay the same.
 *
 * The published demo secret is refused whenever the backend listens beyond this machine:
 * anyone on the network could forge an admin session with it.
 */
import { randomBytes } from 'node:crypto';
import { chmod, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { demoJwtSecret } from './config.ts';
import { privateFileMode } from './data-folder.ts';

export const jwtSecretFileName = 'jwt-secret';
const minimumSecretLength = 32;

export type JwtSecretSource =
  | { kind: 'environment' }
  | { kind: 'generated'; file: string }
  | { kind: 'kept'; file: string };

export type ResolvedJwtSecret = { secret: string; source: JwtSecretSource };

/** The secret from the environment, else the one kept in `dataDir`, else a new one kept there. */
export async function resolveJwtSecret(options: { env: NodeJS.ProcessEnv; dataDir: string }): Promise<ResolvedJwtSecret> {
  const fromEnv = options.env.SUPABASE_JWT_SECRET;
  if (fromEnv) return { secret: fromEnv, source: { kind: 'environment' } };
  const file = path.join(options.dataDir, jwtSecretFileName);
  const kept = await readKeptSecret(file);
  if (kept !== null) return { secret: kept, source: { kind: 'kept', file } };
  const secret = randomBytes(48).toString('base64url');
  try {
    const handle = await open(file, 'wx', privateFileMode);
    await handle.writeFile(`${secret}\n`);
    await handle.sync();
    await handle.close();
  } catch (error) {
    // Another process created it first: use theirs, so both sign with the same secret.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      const theirs = await readKeptSecret(file);
      if (theirs !== null) return { secret: theirs, source: { kind: 'kept', file } };
    }
    throw error;
  }
  return { secret, source: { kind: 'generated', file } };
}

async function readKeptSecret(file: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const secret = text.trim();
  if (secret.length < minimumSecretLength) {
    throw new Error(`${file} holds no usable secret (it needs ${minimumSecretLength}+ characters). Delete it to generate a new one.`);
  }
  await chmod(file, privateFileMode);
  return secret;
}

/** Loopback addresses: a server bound there is reachable only from this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** Why the backend must not start with this secret on this host, or null when it may. */
export function refusalToListen(secret: string, host: string): string | null {
  if (secret !== demoJwtSecret || isLoopbackHost(host)) return null;
  return [
    `Refusing to listen on ${host} with the public demo JWT secret: anyone who can reach this`,
    'machine could sign a session as any user, admins included.',
    'Remove SUPABASE_JWT_SECRET to let the backend generate and keep a random secret in its',
    'data folder, or set SUPABASE_JWT_SECRET to your own random secret of 32+ characters',
    '(for example the output of: node -e "console.log(crypto.randomBytes(48).toString(\'base64url\'))").',
  ].join('\n');
}

/** The line telling the operator which secret is in use and where it lives. */
export function describeJwtSecret(source: JwtSecretSource, usingDemoSecret: boolean): string {
  if (usingDemoSecret) return 'Using the PUBLIC demo JWT secret from SUPABASE_JWT_SECRET: anyone can forge sessions. Local demos only.';
  switch (source.kind) {
    case 'environment':
      return 'Using the JWT secret from SUPABASE_JWT_SECRET.';
    case 'generated':
      return `Generated a new JWT secret and kept it in ${source.file} (readable only by this account; copy it along with backups).`;
    case 'kept':
      return `Using the JWT secret kept in ${source.file}.`;
  }
}
