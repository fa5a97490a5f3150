/**
 * A person's authenticator apps and security keys (MFA factors) through supabase-js:
 * setting one up (an app: enrol, then confirm with a first code; a key or passkey: enrol,
 * then the browser creates a credential with the server's options and the server checks
 * it), the code or key asked after the password, and removing one. Each call needs a
 * connection and answers data or a sentence the screen shows. A new or removed factor
 * reaches the session kept on the device (the verify answer is saved by supabase-js;
 * after a removal the session is refreshed), so the account state follows by itself.
 * docs/security.md, "Multi-factor sign-in".
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { cleanCode } from '../domain/second-factor.ts';
import { errorSentences, errorText } from './errors.ts';

export type NewAuthenticator = { factorId: string; qrCode: string; secret: string };
export type Outcome<T> = { ok: true; data: T } | { ok: false; message: string };

export const authenticatorMessages = {
  badCode: 'That code is not right. Enter the six digits your authenticator app shows now.',
  malformed: 'Enter the six digits your authenticator app shows.',
  nameTaken: 'You already have an authenticator app or security key of this name (or one being set up). Choose another name.',
} as const;

export const securityKeyMessages = {
  unsupported: 'This browser cannot use security keys or passkeys. Use a current Chrome, Edge, Firefox or Safari, or an authenticator app.',
  insecureAddress:
    'Security keys and passkeys work only at a secure address: open the app at its https:// address or at http://localhost, not at an http:// address such as http://192.168.1.20. Or use an authenticator app.',
  cancelled: 'The security key was not used: the request was cancelled or timed out. Try again, and touch the key or confirm the passkey when asked.',
  alreadyRegistered: 'This security key is already set up for your account.',
  wrongAddress: 'This browser refused the security key at this address. Open the app at its usual address and try again.',
  refused: 'The server did not accept the security key',
  disabled: 'Security keys and passkeys are not turned on for this server. Use an authenticator app, or ask whoever runs the server to turn them on.',
} as const;

type AuthFailure = { code?: unknown; message?: unknown };

/** The browser's refusal of a WebAuthn ceremony (a DOMException by name), in words. */
function browserRefusal(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') return securityKeyMessages.cancelled;
  if (name === 'InvalidStateError') return securityKeyMessages.alreadyRegistered;
  if (name === 'SecurityError') return securityKeyMessages.wrongAddress;
  if (name === 'NotSupportedError') return securityKeyMessages.unsupported;
  return errorText(error);
}

/** The server's refusal of a key's answer: "WebAuthn verification failed: <why>" becomes a sentence with the why. */
function keyMessageFor(error: unknown): string {
  const { code, message } = (error ?? {}) as AuthFailure;
  if (code === 'mfa_verification_failed' && typeof message === 'string') {
    return `${securityKeyMessages.refused}: ${message.replace(/^WebAuthn verification failed: /, '')}. Try again.`;
  }
  if (code === 'mfa_challenge_expired') return securityKeyMessages.cancelled;
  if (code === 'mfa_webauthn_enroll_not_enabled' || code === 'mfa_webauthn_verify_not_enabled') return securityKeyMessages.disabled;
  return messageFor(error);
}

/**
 * Why this page cannot use security keys, or null when it can. Browsers offer WebAuthn
 * only in a secure context (https://, or http://localhost), so a current browser at a
 * plain http:// address lacks it as an old one does; the two are told apart.
 */
export function securityKeysUnavailable(): string | null {
  if (typeof globalThis.PublicKeyCredential === 'function' && typeof globalThis.navigator?.credentials?.create === 'function') return null;
  return globalThis.isSecureContext === false ? securityKeyMessages.insecureAddress : securityKeyMessages.unsupported;
}

/** What supabase-js and the server need to hear about this page; the server decides the relying party itself. */
const relyingPartyHint = () => ({ rpId: globalThis.location.hostname, rpOrigins: [globalThis.location.origin] });

function messageFor(error: unknown): string {
  const code = (error as AuthFailure | null)?.code;
  if (code === 'mfa_verification_failed' || code === 'mfa_challenge_expired') return authenticatorMessages.badCode;
  // The server's own sentence ("Too many wrong codes for this authenticator. Try again in 30 seconds.").
  if (code === 'over_request_rate_limit' && typeof (error as AuthFailure).message === 'string') return (error as { message: string }).message;
  if (code === 'mfa_factor_name_conflict') return authenticatorMessages.nameTaken;
  return errorText(error);
}

const offline = () => globalThis.navigator?.onLine === false;

export function createAuthenticatorApi(client: Promise<Pick<SupabaseClient, 'auth'>>) {
  async function attempt<T>(run: (auth: SupabaseClient['auth']) => Promise<Outcome<T>>): Promise<Outcome<T>> {
    if (offline()) return { ok: false, message: errorSentences.unreachable };
    try {
      return await run((await client).auth);
    } catch (error) {
      return { ok: false, message: messageFor(error) };
    }
  }

  /** Answers a fresh challenge of `factorId` with the typed code: the session is then aal2. */
  function verify(factorId: string, typed: string): Promise<Outcome<null>> {
    const code = cleanCode(typed);
    if (!code) return Promise.resolve({ ok: false, message: authenticatorMessages.malformed });
    return attempt(async (auth) => {
      const { error } = await auth.mfa.challengeAndVerify({ factorId, code });
      return error ? { ok: false, message: messageFor(error) } : { ok: true, data: null };
    });
  }

  /**
   * One WebAuthn ceremony for `factorId`: the server's options (create for a new key,
   * request for a registered one), the browser's credential from them, and the server's
   * check of it, after which the session is aal2.
   */
  async function ceremony(auth: SupabaseClient['auth'], factorId: string): Promise<Outcome<null>> {
    const hint = relyingPartyHint();
    const { data, error } = await auth.mfa.challenge({ factorId, webauthn: hint });
    if (error || !data) return { ok: false, message: keyMessageFor(error) };
    if (data.type !== 'webauthn') return { ok: false, message: errorSentences.unknown };
    let credential: Credential | null;
    try {
      credential =
        data.webauthn.type === 'create'
          ? await navigator.credentials.create({ publicKey: data.webauthn.credential_options.publicKey as PublicKeyCredentialCreationOptions })
          : await navigator.credentials.get({ publicKey: data.webauthn.credential_options.publicKey as PublicKeyCredentialRequestOptions });
    } catch (refusal) {
      return { ok: false, message: browserRefusal(refusal) };
    }
    if (!credential) return { ok: false, message: securityKeyMessages.cancelled };
    const verified = await auth.mfa.verify({
      factorId,
      challengeId: data.id,
      webauthn: { ...hint, type: data.webauthn.type, credential_response: credential as never },
    });
    return verified.error ? { ok: false, message: keyMessageFor(verified.error) } : { ok: true, data: null };
  }

  /**
   * A security key of this name that was never registered (the page closed while the
   * browser asked for the touch) still holds the name: GoTrue refuses a name any factor
   * of the person has, and never expires an unverified factor once it was challenged. It
   * is removed so the person can try again. Only an unverified WebAuthn factor goes: a
   * registered key, or an authenticator app being set up, keeps its name. Answers whether
   * one was removed.
   */
  async function dropAbandonedKey(auth: SupabaseClient['auth'], friendlyName: string): Promise<boolean> {
    const { data } = await auth.mfa.listFactors();
    const abandoned = data?.all.find((factor) => factor.factor_type === 'webauthn' && factor.status === 'unverified' && factor.friendly_name === friendlyName);
    if (!abandoned) return false;
    return !(await auth.mfa.unenroll({ factorId: abandoned.id })).error;
  }

  return {
    verify,
    /**
     * Sets up a security key or passkey named `name`: the browser asks the person to touch
     * the key (or confirm the passkey); this session is then proven with it. Nothing is
     * left half set up when that does not happen, and a key of the same name left half set
     * up earlier (a page closed during the prompt) gives way to this one.
     */
    addSecurityKey: (name: string): Promise<Outcome<null>> => {
      const unavailable = securityKeysUnavailable();
      if (unavailable) return Promise.resolve({ ok: false, message: unavailable });
      return attempt(async (auth) => {
        const friendlyName = name.trim();
        let { data, error } = await auth.mfa.enroll({ factorType: 'webauthn', friendlyName });
        if (error?.code === 'mfa_factor_name_conflict' && (await dropAbandonedKey(auth, friendlyName))) {
          ({ data, error } = await auth.mfa.enroll({ factorType: 'webauthn', friendlyName }));
        }
        if (error || !data) return { ok: false, message: keyMessageFor(error) };
        const outcome = await ceremony(auth, data.id);
        if (!outcome.ok) await auth.mfa.unenroll({ factorId: data.id }).catch(() => undefined);
        return outcome;
      });
    },
    /** The second step with a security key: any of the person's keys will do (the server offers them all). */
    useSecurityKey: (factorId: string): Promise<Outcome<null>> => {
      const unavailable = securityKeysUnavailable();
      if (unavailable) return Promise.resolve({ ok: false, message: unavailable });
      return attempt((auth) => ceremony(auth, factorId));
    },
    /** Starts setting up an authenticator: its QR code and secret, shown until the first code confirms it. */
    enrol: (name: string): Promise<Outcome<NewAuthenticator>> =>
      attempt(async (auth) => {
        const { data, error } = await auth.mfa.enroll({ factorType: 'totp', friendlyName: name.trim() });
        if (error || !data) return { ok: false, message: messageFor(error) };
        return { ok: true, data: { factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret } };
      }),
    /** The first code: the authenticator is verified and this session proven with it. */
    confirm: verify,
    /** Drops an authenticator set up but never confirmed (the person cancelled). */
    cancel: (factorId: string): Promise<Outcome<null>> =>
      attempt(async (auth) => {
        const { error } = await auth.mfa.unenroll({ factorId });
        return error ? { ok: false, message: messageFor(error) } : { ok: true, data: null };
      }),
    /** Removes an authenticator; the session is refreshed so the device knows at once. */
    remove: (factorId: string): Promise<Outcome<null>> =>
      attempt(async (auth) => {
        const { error } = await auth.mfa.unenroll({ factorId });
        if (error) return { ok: false, message: messageFor(error) };
        await auth.refreshSession();
        return { ok: true, data: null };
      }),
  };
}

export type AuthenticatorApi = ReturnType<typeof createAuthenticatorApi>;
