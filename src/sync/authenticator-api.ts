/**
 * A person's authenticator apps (MFA factors) through supabase-js: setting one up
 * (enrol, then confirm with a first code), the code asked after the password, and
 * removing one. Each call needs a connection and answers data or a sentence the screen
 * shows. A new or removed authenticator reaches the session kept on the device (the
 * verify answer is saved by supabase-js; after a removal the session is refreshed), so
 * the account state follows by itself. docs/security.md, "Multi-factor sign-in".
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { cleanCode } from '../domain/second-factor.ts';
import { errorSentences, errorText } from './errors.ts';

export type NewAuthenticator = { factorId: string; qrCode: string; secret: string };
export type Outcome<T> = { ok: true; data: T } | { ok: false; message: string };

export const authenticatorMessages = {
  badCode: 'That code is not right. Enter the six digits your authenticator app shows now.',
  malformed: 'Enter the six digits your authenticator app shows.',
} as const;

type AuthFailure = { code?: unknown; message?: unknown };

function messageFor(error: unknown): string {
  const code = (error as AuthFailure | null)?.code;
  if (code === 'mfa_verification_failed' || code === 'mfa_challenge_expired') return authenticatorMessages.badCode;
  // The server's own sentence ("Too many wrong codes for this authenticator. Try again in 30 seconds.").
  if (code === 'over_request_rate_limit' && typeof (error as AuthFailure).message === 'string') return (error as { message: string }).message;
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

  return {
    verify,
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
