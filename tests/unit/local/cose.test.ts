import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeCbor } from '../../../supabase/local/auth/cbor.ts';
import { coseToPublicKey, signatureMatches } from '../../../supabase/local/auth/cose.ts';
import type { Encodable } from '../../support/cbor-encode.ts';
import { cborEncode } from '../../support/cbor-encode.ts';

const bounds = { minBits: 2048, maxBits: 4096 };
const cbor = { maxDepth: 16, maxItems: 2048 };
const b = (text: string | undefined) => Buffer.from(text ?? '', 'base64url');
/** A COSE_Key as an authenticator writes it, read back through the backend's CBOR decoder. */
const cose = (entries: Array<[number, Encodable]>) => decodeCbor(cborEncode(new Map(entries)), cbor);

describe('COSE public keys of security keys', () => {
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ecJwk = ec.publicKey.export({ format: 'jwk' });
  const ecCose = (extra: Array<[number, Encodable]> = []) =>
    cose([[1, 2], [3, -7], [-1, 1], [-2, b(ecJwk.x)], [-3, b(ecJwk.y)], ...extra]);
  const message = Buffer.from('authenticator data || hash of the client data');

  it('turns an EC2 P-256 key (ES256) into the same key, and checks its DER signatures', () => {
    const key = coseToPublicKey(ecCose(), bounds);
    expect(key.alg).toBe(-7);
    expect(key.key.export({ format: 'jwk' })).toEqual(ecJwk);
    const signature = sign('sha256', message, ec.privateKey);
    expect(signatureMatches(key, message, signature)).toBe(true);
    expect(signatureMatches(key, Buffer.concat([message, Buffer.from('!')]), signature)).toBe(false);
    expect(signatureMatches(key, message, sign('sha256', message, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey))).toBe(false);
    // Not DER at all, and the raw r||s form WebAuthn does not use.
    expect(signatureMatches(key, message, Buffer.from('not a signature'))).toBe(false);
    expect(signatureMatches(key, message, sign('sha256', message, { key: ec.privateKey, dsaEncoding: 'ieee-p1363' }))).toBe(false);
  });

  it('turns an RSA key (RS256) into the same key, and checks PKCS#1 v1.5 signatures', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = rsa.publicKey.export({ format: 'jwk' });
    const key = coseToPublicKey(cose([[1, 3], [3, -257], [-1, b(jwk.n)], [-2, b(jwk.e)]]), bounds);
    expect(key.alg).toBe(-257);
    expect(key.key.export({ format: 'jwk' })).toEqual(jwk);
    expect(signatureMatches(key, message, sign('sha256', message, rsa.privateKey))).toBe(true);
    expect(signatureMatches(key, message, sign('sha1', message, rsa.privateKey))).toBe(false);
  });

  it('refuses RSA keys shorter than 2048 bits', () => {
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
    expect(() => coseToPublicKey(cose([[1, 3], [3, -257], [-1, b(weak.n)], [-2, b(weak.e)]]), bounds)).toThrow('the RSA key has 1024 bits; 2048 to 4096 are accepted');
  });

  it('refuses a point off the curve, another curve, short coordinates, missing parts and a mismatched key type', () => {
    const y = b(ecJwk.y);
    y[31] = (y[31] as number) ^ 1;
    expect(() => coseToPublicKey(cose([[1, 2], [3, -7], [-1, 1], [-2, b(ecJwk.x)], [-3, y]]), bounds)).toThrow('the public key is not a valid key');
    expect(() => coseToPublicKey(cose([[1, 2], [3, -7], [-1, 2], [-2, b(ecJwk.x)], [-3, b(ecJwk.y)]]), bounds)).toThrow('not on the P-256 curve');
    expect(() => coseToPublicKey(cose([[1, 2], [3, -7], [-1, 1], [-2, b(ecJwk.x).subarray(1)], [-3, b(ecJwk.y)]]), bounds)).toThrow('not 32 bytes');
    expect(() => coseToPublicKey(cose([[1, 2], [3, -7], [-1, 1], [-2, b(ecJwk.x)]]), bounds)).toThrow('y coordinate is missing');
    expect(() => coseToPublicKey(cose([[1, 3], [3, -7], [-1, 1], [-2, b(ecJwk.x)], [-3, b(ecJwk.y)]]), bounds)).toThrow('not an EC2 key');
    expect(() => coseToPublicKey(cose([[1, 2], [3, -257], [-1, 1]]), bounds)).toThrow('not an RSA key');
  });

  it('refuses algorithms other than ES256 and RS256, and anything that is not a COSE key', () => {
    expect(() => coseToPublicKey(cose([[1, 1], [3, -8], [-1, 6], [-2, Buffer.alloc(32)]]), bounds)).toThrow("algorithm (-8) is not ES256 (-7) or RS256 (-257)");
    expect(() => coseToPublicKey([1, 2], bounds)).toThrow('not a COSE key');
    expect(() => coseToPublicKey('key', bounds)).toThrow('not a COSE key');
  });
});
