/**
 * The relying party's side of WebAuthn (W3C Web Authentication, level 2), as the MFA API
 * needs it: the options `navigator.credentials.create()` and `.get()` are called with,
 * and the checks of what the browser sends back. Registration accepts the `none`
 * attestation and `packed` self-attestation (signed by the new credential's own key);
 * keys are ES256 or RS256 (cose.ts). Nothing here touches the database: mfa-webauthn.ts
 * stores the ceremony's state and the credential. docs/security.md, "Multi-factor sign-in".
 *
 * Stored shapes follow GoTrue's (go-webauthn's JSON): the ceremony state of a challenge
 * (`auth.mfa_challenges.web_authn_session_data`) and the credential of a factor
 * (`auth.mfa_factors.web_authn_credential`), byte fields in standard base64.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { CborKey, CborLimits, CborValue } from './cbor.ts';
import { CborError, decodeCbor, decodeCborPrefix } from './cbor.ts';
import type { PublicKey, RsaBounds } from './cose.ts';
import { coseAlgorithms, CoseError, coseToPublicKey, signatureMatches } from './cose.ts';

export type RelyingParty = { id: string; name: string; origins: readonly string[] };

/** Sizes of what a browser sends, and the bounds of the parsers (service-limits.ts). */
export type WebAuthnLimits = CborLimits &
  RsaBounds & {
    clientDataBytes: number;
    attestationObjectBytes: number;
    authenticatorDataBytes: number;
    signatureBytes: number;
    credentialIdBytes: number;
  };

export type UserVerification = 'required' | 'preferred' | 'discouraged';

/** A ceremony's state, kept with its challenge until the browser's answer comes back. */
export type CeremonyState = {
  challenge: string;
  rpId: string;
  /** The user handle, standard base64. */
  user_id: string;
  /** For a sign-in, the credentials that may answer (standard base64). */
  allowed_credentials?: string[];
  userVerification: UserVerification;
  /** For a registration, the algorithms offered. */
  credParams?: Array<{ type: 'public-key'; alg: number }>;
};

/** A verified factor's credential. */
export type StoredCredential = {
  id: string;
  /** The COSE_Key bytes. */
  publicKey: string;
  transport: string[];
  flags: { userPresent: boolean; userVerified: boolean; backupEligible: boolean; backupState: boolean };
  authenticator: { AAGUID: string; signCount: number; cloneWarning: boolean; attachment: string };
  attestationType: 'none' | 'self';
  attestationFormat: 'none' | 'packed';
};

export type Verdict<T> = ({ ok: true } & T) | { ok: false; reason: string };

/** Why a response was refused, as the end of a sentence ("WebAuthn verification failed: ..."). */
class Refusal extends Error {}

const offeredAlgorithms = [coseAlgorithms.ES256, coseAlgorithms.RS256];
const challengeBytes = 32;
const flag = { up: 0x01, uv: 0x04, be: 0x08, bs: 0x10, at: 0x40, ed: 0x80 } as const;

export const sha256 = (data: Buffer | string): Buffer => createHash('sha256').update(data).digest();

export function newCeremonyChallenge(): string {
  return randomBytes(challengeBytes).toString('base64url');
}

/** The user handle of a person: their id's text, as GoTrue's (a handle must not hold an e-mail address). */
export function userHandle(userId: string): Buffer {
  return Buffer.from(userId, 'utf8');
}

const descriptor = (credential: StoredCredential) => ({
  type: 'public-key',
  id: Buffer.from(credential.id, 'base64').toString('base64url'),
  ...(credential.transport.length > 0 ? { transports: credential.transport } : {}),
});

/** `credential_options` for registering a new credential, and the state to keep. */
export function creationOptions(
  rp: RelyingParty,
  user: { id: string; name: string },
  existing: StoredCredential[],
  timeoutMs: number,
): { options: { publicKey: Record<string, unknown> }; state: CeremonyState } {
  const challenge = newCeremonyChallenge();
  const handle = userHandle(user.id);
  const credParams = offeredAlgorithms.map((alg) => ({ type: 'public-key' as const, alg }));
  const publicKey = {
    rp: { id: rp.id, name: rp.name },
    user: { id: handle.toString('base64url'), name: user.name, displayName: user.name },
    challenge,
    pubKeyCredParams: credParams,
    timeout: timeoutMs,
    // A key the person already has need not be registered twice.
    excludeCredentials: existing.map(descriptor),
    authenticatorSelection: { residentKey: 'discouraged', requireResidentKey: false, userVerification: 'preferred' },
    // Who made the key is not checked (no attestation trust), so none is asked for.
    attestation: 'none',
  };
  const state: CeremonyState = { challenge, rpId: rp.id, user_id: handle.toString('base64'), userVerification: 'preferred', credParams };
  return { options: { publicKey }, state };
}

/** `credential_options` for signing in with one of the person's credentials, and the state to keep. */
export function requestOptions(
  rp: RelyingParty,
  userId: string,
  credentials: StoredCredential[],
  timeoutMs: number,
): { options: { publicKey: Record<string, unknown> }; state: CeremonyState } {
  const challenge = newCeremonyChallenge();
  const publicKey = { challenge, timeout: timeoutMs, rpId: rp.id, allowCredentials: credentials.map(descriptor), userVerification: 'preferred' };
  const state: CeremonyState = {
    challenge,
    rpId: rp.id,
    user_id: userHandle(userId).toString('base64'),
    allowed_credentials: credentials.map((credential) => credential.id),
    userVerification: 'preferred',
  };
  return { options: { publicKey }, state };
}

// ---------------------------------------------------------------------------------------
// Reading what the browser sent.

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Refusal(`${what} is not an object`);
  return value as Record<string, unknown>;
}

/** base64url (padding tolerated) of at most `maxBytes` bytes. */
function base64url(value: unknown, what: string, maxBytes: number): Buffer {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]*={0,2}$/.test(value)) throw new Refusal(`${what} is not base64url`);
  if (value.length > Math.ceil((maxBytes * 4) / 3) + 2) throw new Refusal(`${what} is longer than ${maxBytes} bytes`);
  const bytes = Buffer.from(value.replace(/=+$/, ''), 'base64url');
  if (bytes.length > maxBytes) throw new Refusal(`${what} is longer than ${maxBytes} bytes`);
  return bytes;
}

/** The credential's id, which `id` and `rawId` both carry. */
function credentialId(response: Record<string, unknown>, limits: WebAuthnLimits): Buffer {
  if (response.type !== 'public-key') throw new Refusal('the credential is not a public key credential');
  const raw = base64url(response.rawId ?? response.id, 'the credential id', limits.credentialIdBytes);
  if (response.id !== undefined && !base64url(response.id, 'the credential id', limits.credentialIdBytes).equals(raw)) {
    throw new Refusal('the credential\'s id and rawId differ');
  }
  if (raw.length === 0) throw new Refusal('the credential id is empty');
  return raw;
}

type ClientData = { bytes: Buffer };

/** clientDataJSON: the ceremony type, the challenge and the page's origin, as the browser saw them. */
function checkClientData(encoded: unknown, type: 'webauthn.create' | 'webauthn.get', state: CeremonyState, rp: RelyingParty, limits: WebAuthnLimits): ClientData {
  const bytes = base64url(encoded, 'clientDataJSON', limits.clientDataBytes);
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new Refusal('clientDataJSON is not JSON');
  }
  const data = record(parsed, 'clientDataJSON');
  if (data.type !== type) throw new Refusal(`the client data is of type ${JSON.stringify(data.type)}, not ${type}`);
  if (data.challenge !== state.challenge) throw new Refusal('the client data answers another challenge');
  if (typeof data.origin !== 'string' || !rp.origins.includes(data.origin)) {
    throw new Refusal(`the origin ${JSON.stringify(data.origin)} is not one this site allows`);
  }
  // The app never runs in another site's frame (frame-ancestors 'none').
  if (data.crossOrigin === true || data.topOrigin !== undefined) throw new Refusal('the ceremony ran in a frame of another site');
  return { bytes };
}

type AuthenticatorData = {
  bytes: Buffer;
  flags: number;
  signCount: number;
  attested?: { aaguid: Buffer; credentialId: Buffer; publicKeyBytes: Buffer; publicKey: CborValue };
};

/** authenticatorData: rpIdHash (32), flags (1), signCount (4), then the attested credential and extensions the flags announce. */
function parseAuthenticatorData(bytes: Buffer, state: CeremonyState, limits: WebAuthnLimits): AuthenticatorData {
  if (bytes.length < 37) throw new Refusal('the authenticator data is too short');
  if (!bytes.subarray(0, 32).equals(sha256(state.rpId))) throw new Refusal(`the authenticator data is for another relying party than ${state.rpId}`);
  const flags = bytes[32] as number;
  const signCount = bytes.readUInt32BE(33);
  let offset = 37;
  let attested: AuthenticatorData['attested'];
  if (flags & flag.at) {
    if (bytes.length < offset + 18) throw new Refusal('the authenticator data ends inside the credential');
    const aaguid = bytes.subarray(offset, offset + 16);
    const idLength = bytes.readUInt16BE(offset + 16);
    offset += 18;
    if (idLength > limits.credentialIdBytes) throw new Refusal(`the credential id is longer than ${limits.credentialIdBytes} bytes`);
    if (bytes.length < offset + idLength) throw new Refusal('the authenticator data ends inside the credential id');
    const id = bytes.subarray(offset, offset + idLength);
    offset += idLength;
    const key = decodeCborPrefix(bytes, limits, offset);
    attested = { aaguid, credentialId: id, publicKeyBytes: bytes.subarray(offset, offset + key.length), publicKey: key.value };
    offset += key.length;
  }
  if (flags & flag.ed) {
    const extensions = decodeCborPrefix(bytes, limits, offset);
    if (!(extensions.value instanceof Map)) throw new Refusal('the authenticator\'s extensions are not a map');
    offset += extensions.length;
  }
  if (offset !== bytes.length) throw new Refusal('the authenticator data has bytes after its content');
  if (!(flags & flag.up)) throw new Refusal('the security key did not register the person\'s presence (a touch)');
  if (state.userVerification === 'required' && !(flags & flag.uv)) throw new Refusal('the security key did not verify the person (PIN or biometrics)');
  if (flags & flag.bs && !(flags & flag.be)) throw new Refusal('the authenticator data says backed up but not backup eligible');
  return { bytes, flags, signCount, attested };
}

const flagsOf = (flags: number): StoredCredential['flags'] => ({
  userPresent: (flags & flag.up) !== 0,
  userVerified: (flags & flag.uv) !== 0,
  backupEligible: (flags & flag.be) !== 0,
  backupState: (flags & flag.bs) !== 0,
});

function mapOf(value: CborValue, what: string): Map<CborKey, CborValue> {
  if (!(value instanceof Map)) throw new Refusal(`${what} is not a CBOR map`);
  return value;
}

/** The attestation statement: `none` (nothing), or `packed` self-attestation signed by the new key. */
function checkAttestation(format: string, statement: Map<CborKey, CborValue>, signed: Buffer, key: PublicKey): StoredCredential['attestationType'] {
  if (format === 'none') {
    if (statement.size !== 0) throw new Refusal('a none attestation carries a statement');
    return 'none';
  }
  if (format === 'packed') {
    if (statement.has('x5c') || statement.has('ecdaaKeyId')) {
      throw new Refusal('packed attestation with a certificate is not supported: only self-attestation (register with attestation "none")');
    }
    if (statement.get('alg') !== key.alg) throw new Refusal('the packed attestation\'s algorithm is not the credential key\'s');
    const signature = statement.get('sig');
    if (!Buffer.isBuffer(signature)) throw new Refusal('the packed attestation has no signature');
    if (!signatureMatches(key, signed, signature)) throw new Refusal('the packed attestation\'s signature does not match the credential key');
    return 'self';
  }
  throw new Refusal(`the attestation format ${JSON.stringify(format)} is not supported (none and packed are)`);
}

function transportsOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => typeof item === 'string' && /^[a-z-]{1,20}$/.test(item)).slice(0, 8);
}

function guarded<T>(run: () => T): Verdict<T> {
  try {
    return { ok: true, ...run() };
  } catch (error) {
    if (error instanceof Refusal || error instanceof CoseError) return { ok: false, reason: error.message };
    if (error instanceof CborError) return { ok: false, reason: `unreadable CBOR (${error.message})` };
    throw error;
  }
}

/**
 * Checks a registration (`navigator.credentials.create()`'s answer, as JSON) against the
 * ceremony it answers; the credential to store when it holds.
 */
export function verifyRegistration(
  input: unknown,
  state: CeremonyState,
  rp: RelyingParty,
  limits: WebAuthnLimits,
): Verdict<{ credential: StoredCredential; aaguid: string }> {
  return guarded(() => {
    const credential = record(input, 'credential_response');
    const rawId = credentialId(credential, limits);
    const response = record(credential.response, 'the credential\'s response');
    const clientData = checkClientData(response.clientDataJSON, 'webauthn.create', state, rp, limits);
    const attestationBytes = base64url(response.attestationObject, 'attestationObject', limits.attestationObjectBytes);
    const attestation = mapOf(decodeCbor(attestationBytes, limits), 'the attestation object');
    const format = attestation.get('fmt');
    const authDataBytes = attestation.get('authData');
    if (typeof format !== 'string' || !Buffer.isBuffer(authDataBytes)) throw new Refusal('the attestation object lacks its format or authenticator data');
    const authData = parseAuthenticatorData(authDataBytes, state, limits);
    const attested = authData.attested;
    if (!attested) throw new Refusal('the authenticator data holds no credential');
    if (!attested.credentialId.equals(rawId)) throw new Refusal('the credential id is not the one the authenticator made');
    const key = coseToPublicKey(attested.publicKey, limits);
    if (!(state.credParams ?? []).some((param) => param.alg === key.alg)) throw new Refusal('the key\'s algorithm was not offered');
    const signed = Buffer.concat([authData.bytes, sha256(clientData.bytes)]);
    const attestationType = checkAttestation(format, mapOf(attestation.get('attStmt') ?? new Map(), 'the attestation statement'), signed, key);
    const attachment = credential.authenticatorAttachment === 'platform' || credential.authenticatorAttachment === 'cross-platform' ? credential.authenticatorAttachment : '';
    return {
      credential: {
        id: rawId.toString('base64'),
        publicKey: attested.publicKeyBytes.toString('base64'),
        transport: transportsOf(response.transports),
        flags: flagsOf(authData.flags),
        authenticator: { AAGUID: attested.aaguid.toString('base64'), signCount: authData.signCount, cloneWarning: false, attachment },
        attestationType,
        attestationFormat: format as 'none' | 'packed',
      },
      aaguid: uuidText(attested.aaguid),
    };
  });
}

function uuidText(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A credential of the person's that may answer a sign-in, with the factor it belongs to. */
export type KnownCredential = { factorId: string; credential: StoredCredential };

/**
 * Checks a sign-in (`navigator.credentials.get()`'s answer, as JSON): the signature with
 * the stored key, the challenge, origin and relying party, and that the key's signature
 * counter went forward. Answers the factor whose key signed and its new counter.
 */
export function verifyAssertion(
  input: unknown,
  state: CeremonyState,
  rp: RelyingParty,
  known: KnownCredential[],
  limits: WebAuthnLimits,
): Verdict<{ factorId: string; signCount: number }> {
  return guarded(() => {
    const credential = record(input, 'credential_response');
    const rawId = credentialId(credential, limits);
    const id = rawId.toString('base64');
    const match = known.find((entry) => entry.credential.id === id);
    if (!match || !(state.allowed_credentials ?? []).includes(id)) throw new Refusal('the security key is not one registered for this account');
    const response = record(credential.response, 'the credential\'s response');
    const clientData = checkClientData(response.clientDataJSON, 'webauthn.get', state, rp, limits);
    const authData = parseAuthenticatorData(base64url(response.authenticatorData, 'authenticatorData', limits.authenticatorDataBytes), state, limits);
    if (authData.attested) throw new Refusal('the authenticator data of a sign-in carries a new credential');
    if (response.userHandle !== undefined && response.userHandle !== null && response.userHandle !== '') {
      const handle = base64url(response.userHandle, 'userHandle', limits.credentialIdBytes);
      if (!handle.equals(Buffer.from(state.user_id, 'base64'))) throw new Refusal('the security key answered for another account');
    }
    const signature = base64url(response.signature, 'signature', limits.signatureBytes);
    const key = coseToPublicKey(decodeCbor(Buffer.from(match.credential.publicKey, 'base64'), limits), limits);
    if (!signatureMatches(key, Buffer.concat([authData.bytes, sha256(clientData.bytes)]), signature)) throw new Refusal('the signature does not match the security key');
    const stored = match.credential.authenticator.signCount;
    // A key that counts must count up: a count that stands still or goes back means a copy of the key signed.
    if ((authData.signCount !== 0 || stored !== 0) && authData.signCount <= stored) {
      throw new Refusal(`the security key's signature counter went from ${stored} to ${authData.signCount}: the key may have been copied`);
    }
    return { factorId: match.factorId, signCount: authData.signCount };
  });
}
