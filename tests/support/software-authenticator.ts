/**
 * A security key written in the tests: a key pair from node:crypto (EC P-256, or RSA
 * 2048), and the browser's part too, so the WebAuthn suites can register it and sign in
 * with it through the real supabase-js without a browser. It builds clientDataJSON, the
 * authenticator data, the attestation object (`none`, or `packed` self-attestation) and
 * assertions byte by byte with the tests' own CBOR encoder (cbor-encode.ts), apart from
 * the backend's parser. Every part can be spoiled on purpose (`Spoil`) to see the backend
 * refuse it.
 */
import type { KeyObject } from 'node:crypto';
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { Encodable } from './cbor-encode.ts';
import { cborEncode } from './cbor-encode.ts';

type Bytes = string | ArrayBuffer | ArrayBufferView;

/** What `credential_options.publicKey` holds, as the server sends it (base64url) or as supabase-js hands it over (ArrayBuffers). */
export type CeremonyOptions = { challenge: Bytes; rp?: { id?: string }; rpId?: string; user?: { id: Bytes } };

export type Spoil = {
  /** The page's origin the browser reports. */
  origin?: string;
  clientType?: string;
  /** Another challenge (base64url) than the one asked. */
  challenge?: string;
  /** The relying party the authenticator hashes into its data. */
  rpId?: string;
  /** The authenticator data's flags byte. */
  flags?: number;
  /** The counter to report instead of the next one. */
  signCount?: number;
  format?: 'none' | 'packed' | 'fido-u2f';
  /** Sign with this key instead of the credential's (a forged signature). */
  signWith?: KeyObject;
  /** Flip a bit of the finished signature. */
  breakSignature?: boolean;
  /** Extra members of the attestation statement. */
  statement?: Map<string, Encodable>;
  crossOrigin?: boolean;
  userHandle?: string;
};

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

function bytesOf(value: Bytes): Buffer {
  if (typeof value === 'string') return Buffer.from(value, 'base64url');
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

const up = 0x01;
const uv = 0x04;
const at = 0x40;

export type RegistrationJSON = {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
  authenticatorAttachment: string;
  clientExtensionResults: Record<string, never>;
};

export type AssertionJSON = {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string };
  authenticatorAttachment: string;
  clientExtensionResults: Record<string, never>;
};

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(32);
  readonly aaguid: Buffer;
  readonly algorithm: 'ES256' | 'RS256';
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** The counter the next signature reports (0 stays 0: a key that does not count). */
  signCount: number;

  constructor(options: { algorithm?: 'ES256' | 'RS256'; counts?: boolean; aaguid?: Buffer } = {}) {
    this.algorithm = options.algorithm ?? 'ES256';
    const pair = this.algorithm === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
    this.aaguid = options.aaguid ?? Buffer.alloc(16);
    this.signCount = options.counts === false ? 0 : 1;
  }

  /** The public key as a COSE_Key (RFC 9053): EC2 with crv P-256, or RSA with n and e. */
  coseKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    const b = (text: string | undefined) => Buffer.from(text ?? '', 'base64url');
    if (this.algorithm === 'ES256') {
      return cborEncode(new Map<number, Encodable>([[1, 2], [3, -7], [-1, 1], [-2, b(jwk.x)], [-3, b(jwk.y)]]));
    }
    return cborEncode(new Map<number, Encodable>([[1, 3], [3, -257], [-1, b(jwk.n)], [-2, b(jwk.e)]]));
  }

  private clientData(type: string, options: CeremonyOptions, origin: string, spoil: Spoil): Buffer {
    const data: Record<string, unknown> = {
      type: spoil.clientType ?? type,
      challenge: spoil.challenge ?? bytesOf(options.challenge).toString('base64url'),
      origin: spoil.origin ?? origin,
      crossOrigin: spoil.crossOrigin ?? false,
    };
    return Buffer.from(JSON.stringify(data), 'utf8');
  }

  private counter(spoil: Spoil): Buffer {
    const out = Buffer.alloc(4);
    out.writeUInt32BE(spoil.signCount ?? this.signCount);
    return out;
  }

  private signature(data: Buffer, spoil: Spoil): Buffer {
    const signed = sign('sha256', data, spoil.signWith ?? this.privateKey);
    if (spoil.breakSignature) signed[signed.length - 1] = (signed[signed.length - 1] as number) ^ 0x01;
    return signed;
  }

  /** `navigator.credentials.create()`'s answer, as JSON (PublicKeyCredential.toJSON()); a counting key moves on afterwards. */
  register(options: CeremonyOptions, origin: string, spoil: Spoil = {}): RegistrationJSON {
    const rpId = spoil.rpId ?? options.rp?.id ?? '';
    const clientData = this.clientData('webauthn.create', options, origin, spoil);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([spoil.flags ?? up | uv | at]),
      this.counter(spoil),
      this.aaguid,
      idLength,
      this.credentialId,
      this.coseKey(),
    ]);
    const format = spoil.format ?? 'none';
    const statement = new Map<string, Encodable>();
    if (format === 'packed') {
      statement.set('alg', this.algorithm === 'ES256' ? -7 : -257);
      statement.set('sig', this.signature(Buffer.concat([authData, sha256(clientData)]), spoil));
    }
    for (const [key, value] of spoil.statement ?? []) statement.set(key, value);
    const attestationObject = cborEncode(new Map<string, Encodable>([['fmt', format], ['attStmt', statement], ['authData', authData]]));
    if (this.signCount > 0 && spoil.signCount === undefined) this.signCount += 1;
    const id = this.credentialId.toString('base64url');
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: { clientDataJSON: clientData.toString('base64url'), attestationObject: attestationObject.toString('base64url'), transports: ['usb'] },
      authenticatorAttachment: 'cross-platform',
      clientExtensionResults: {},
    };
  }

  /** `navigator.credentials.get()`'s answer, as JSON; the counter moves on afterwards as a real key's does. */
  assert(options: CeremonyOptions, origin: string, spoil: Spoil = {}): AssertionJSON {
    const rpId = spoil.rpId ?? options.rpId ?? '';
    const clientData = this.clientData('webauthn.get', options, origin, spoil);
    const authData = Buffer.concat([sha256(rpId), Buffer.from([spoil.flags ?? up | uv]), this.counter(spoil)]);
    const signature = this.signature(Buffer.concat([authData, sha256(clientData)]), spoil);
    if (this.signCount > 0 && spoil.signCount === undefined) this.signCount += 1;
    const id = this.credentialId.toString('base64url');
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: clientData.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
        ...(spoil.userHandle !== undefined ? { userHandle: spoil.userHandle } : {}),
      },
      authenticatorAttachment: 'cross-platform',
      clientExtensionResults: {},
    };
  }
}

/** The JSON as supabase-js takes a browser's credential: an object whose toJSON() gives it. */
export function asBrowserCredential<T>(json: T): never {
  return { toJSON: () => json } as never;
}
