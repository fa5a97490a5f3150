/**
 * The optional asymmetric key that signs sessions (LOCAL_SUPABASE_JWT_SIGNING_ALG=RS256
 * or ES256), as hosted Supabase's JWT signing keys: generated on the first start and
 * kept in the data folder (`jwt-signing-key.json`, 0600, a private JWK with its `kid`),
 * like the shared secret, so sessions survive restarts. Without a data folder (tests)
 * the key lives in memory. The shared secret keeps signing the API keys and still
 * verifies HS256 tokens.
 */
import { randomUUID } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { JWK } from 'jose';
import { exportJWK, generateKeyPair, importJWK } from 'jose';
import { privateFileMode } from '../data-folder.ts';
import type { AsymmetricAlgorithm, SigningKey } from '../jwt.ts';

export const signingKeyFileName = 'jwt-signing-key.json';
export const signingAlgorithmVariable = 'LOCAL_SUPABASE_JWT_SIGNING_ALG';

export type SigningAlgorithm = 'HS256' | AsymmetricAlgorithm;

export function signingAlgorithmFromEnv(env: NodeJS.ProcessEnv): SigningAlgorithm {
  const value = env[signingAlgorithmVariable]?.trim().toUpperCase() || 'HS256';
  if (value !== 'HS256' && value !== 'RS256' && value !== 'ES256') {
    throw new Error(`${signingAlgorithmVariable} must be HS256, RS256 or ES256, not "${env[signingAlgorithmVariable]}".`);
  }
  return value;
}

async function fromPrivateJwk(jwk: JWK & { kid: string; alg: AsymmetricAlgorithm }): Promise<SigningKey> {
  const privateKey = await importJWK(jwk, jwk.alg);
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicParts } = jwk;
  const publicKey = await importJWK({ ...publicParts, key_ops: ['verify'] }, jwk.alg);
  if (!('type' in privateKey) || !('type' in publicKey)) throw new Error('the signing key did not import as a CryptoKey');
  return {
    alg: jwk.alg,
    kid: jwk.kid,
    privateKey,
    publicKey,
    publicJwk: { ...publicParts, kid: jwk.kid, alg: jwk.alg, use: 'sig', key_ops: ['verify'] },
  };
}

/** A new key of `alg`, and its private JWK for keeping. */
export async function generateSigningKey(alg: AsymmetricAlgorithm): Promise<{ key: SigningKey; jwk: JWK }> {
  const pair = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(pair.privateKey)), kid: randomUUID(), alg };
  return { key: await fromPrivateJwk(jwk), jwk };
}

function isKept(value: unknown): value is JWK & { kid: string; alg: AsymmetricAlgorithm } {
  const jwk = value as Record<string, unknown>;
  return typeof jwk === 'object' && jwk !== null && typeof jwk.kid === 'string' && (jwk.alg === 'RS256' || jwk.alg === 'ES256') &&
    typeof jwk.d === 'string';
}

/**
 * The signing key of `alg`: the one kept in `dataDir` when it is of that algorithm, else
 * a new one (kept there when there is a folder). A kept key of another algorithm is
 * refused rather than replaced: every session signed with it would end.
 */
export async function resolveSigningKey(alg: AsymmetricAlgorithm, dataDir?: string): Promise<SigningKey> {
  if (!dataDir) return (await generateSigningKey(alg)).key;
  const file = path.join(dataDir, signingKeyFileName);
  let text: string | null = null;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== null) {
    const kept: unknown = JSON.parse(text);
    if (!isKept(kept)) throw new Error(`${file} holds no usable signing key. Delete it to generate a new one.`);
    if (kept.alg !== alg) {
      throw new Error(`${file} holds an ${kept.alg} key but ${signingAlgorithmVariable} is ${alg}. Set it to ${kept.alg}, or delete the file (every session ends).`);
    }
    return fromPrivateJwk(kept);
  }
  const { key, jwk } = await generateSigningKey(alg);
  const handle = await open(file, 'wx', privateFileMode);
  await handle.writeFile(`${JSON.stringify(jwk)}\n`);
  await handle.sync();
  await handle.close();
  return key;
}
