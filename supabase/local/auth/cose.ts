/**
 * COSE public keys (RFC 9052/9053, as WebAuthn authenticators write them) turned into
 * node:crypto keys, and the two signature algorithms security keys and passkeys use that
 * this backend accepts: ES256 (ECDSA on P-256 with SHA-256, COSE -7) and RS256 (RSA
 * PKCS#1 v1.5 with SHA-256, COSE -257). docs/security.md, "Multi-factor sign-in".
 */
import type { KeyObject } from 'node:crypto';
import { constants, createPublicKey, verify } from 'node:crypto';
import type { CborKey, CborValue } from './cbor.ts';

export const coseAlgorithms = { ES256: -7, RS256: -257 } as const;
export type CoseAlgorithm = (typeof coseAlgorithms)[keyof typeof coseAlgorithms];

/** The COSE key parameters (labels) read here. */
const label = { kty: 1, alg: 3, crv: -1, x: -2, y: -3, n: -1, e: -2 } as const;
const keyType = { EC2: 2, RSA: 3 } as const;
const curveP256 = 1;

export class CoseError extends Error {}

export type RsaBounds = { minBits: number; maxBits: number };

export type PublicKey = { alg: CoseAlgorithm; key: KeyObject };

function bytesAt(map: Map<CborKey, CborValue>, at: number, name: string): Buffer {
  const value = map.get(at);
  if (!Buffer.isBuffer(value)) throw new CoseError(`the public key's ${name} is missing`);
  return value;
}

function importKey(jwk: Record<string, string>): KeyObject {
  try {
    // Importing checks the key: an EC point must lie on the curve.
    return createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    throw new CoseError('the public key is not a valid key');
  }
}

function ecKey(map: Map<CborKey, CborValue>): KeyObject {
  if (map.get(label.crv) !== curveP256) throw new CoseError('the public key is not on the P-256 curve');
  const x = bytesAt(map, label.x, 'x coordinate');
  const y = bytesAt(map, label.y, 'y coordinate');
  if (x.length !== 32 || y.length !== 32) throw new CoseError('the public key\'s coordinates are not 32 bytes each');
  return importKey({ kty: 'EC', crv: 'P-256', x: x.toString('base64url'), y: y.toString('base64url') });
}

function rsaKey(map: Map<CborKey, CborValue>, bounds: RsaBounds): KeyObject {
  const n = bytesAt(map, label.n, 'modulus');
  const e = bytesAt(map, label.e, 'exponent');
  const key = importKey({ kty: 'RSA', n: n.toString('base64url'), e: e.toString('base64url') });
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < bounds.minBits || bits > bounds.maxBits) {
    throw new CoseError(`the RSA key has ${bits} bits; ${bounds.minBits} to ${bounds.maxBits} are accepted`);
  }
  return key;
}

/** The key a COSE_Key map describes, for the algorithms accepted; CoseError for anything else. */
export function coseToPublicKey(value: CborValue, bounds: RsaBounds): PublicKey {
  if (!(value instanceof Map)) throw new CoseError('the public key is not a COSE key');
  const alg = value.get(label.alg);
  const kty = value.get(label.kty);
  if (alg === coseAlgorithms.ES256) {
    if (kty !== keyType.EC2) throw new CoseError('the ES256 public key is not an EC2 key');
    return { alg, key: ecKey(value) };
  }
  if (alg === coseAlgorithms.RS256) {
    if (kty !== keyType.RSA) throw new CoseError('the RS256 public key is not an RSA key');
    return { alg, key: rsaKey(value, bounds) };
  }
  throw new CoseError(`the public key's algorithm (${String(alg)}) is not ES256 (-7) or RS256 (-257)`);
}

/** Whether `signature` is `key`'s signature of `data` (an ECDSA signature in ASN.1 DER, as WebAuthn has it). */
export function signatureMatches(publicKey: PublicKey, data: Buffer, signature: Buffer): boolean {
  try {
    if (publicKey.alg === coseAlgorithms.ES256) return verify('sha256', data, { key: publicKey.key, dsaEncoding: 'der' }, signature);
    return verify('sha256', data, { key: publicKey.key, padding: constants.RSA_PKCS1_PADDING }, signature);
  } catch {
    // A signature that is not even well-formed DER.
    return false;
  }
}
