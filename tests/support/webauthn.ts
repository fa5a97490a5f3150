/**
 * Registering a software security key (software-authenticator.ts) and signing in with it
 * through the real supabase-js: `mfa.enroll`, `mfa.challenge` (whose options supabase-js
 * turns into ArrayBuffers, as for a browser) and `mfa.verify` with the key's answer
 * standing in for the browser's credential. For the WebAuthn suites.
 */
import type { AuthError, SupabaseClient } from '@supabase/supabase-js';
import type { CeremonyOptions, SoftwareAuthenticator, Spoil } from './software-authenticator.ts';
import { asBrowserCredential } from './software-authenticator.ts';

/** The relying party the suites' stacks are configured with: the app as `npm start` serves it. */
export const relyingParty = { id: 'localhost', name: 'Service Dashboard', origins: ['http://localhost:4173'] };
export const appOrigin = 'http://localhost:4173';

export type Ceremony = { challengeId: string; type: 'create' | 'request'; options: CeremonyOptions; expiresAt: number };

export async function challengeKey(client: SupabaseClient, factorId: string): Promise<Ceremony> {
  const { data, error } = await client.auth.mfa.challenge({ factorId, webauthn: { rpId: relyingParty.id, rpOrigins: relyingParty.origins } });
  if (error || !data) throw new Error(`challenge failed: ${error?.message}`);
  if (data.type !== 'webauthn') throw new Error(`challenge of type ${data.type}`);
  return { challengeId: data.id, type: data.webauthn.type, options: data.webauthn.credential_options.publicKey as unknown as CeremonyOptions, expiresAt: data.expires_at };
}

/** Sends the key's answer to a ceremony: supabase-js's error, or null when the session is now aal2. */
export async function answer(client: SupabaseClient, factorId: string, ceremony: Ceremony, key: SoftwareAuthenticator, spoil: Spoil = {}): Promise<AuthError | null> {
  const json = ceremony.type === 'create' ? key.register(ceremony.options, appOrigin, spoil) : key.assert(ceremony.options, appOrigin, spoil);
  const { error } = await client.auth.mfa.verify({
    factorId,
    challengeId: ceremony.challengeId,
    webauthn: { type: ceremony.type, rpId: relyingParty.id, credential_response: asBrowserCredential(json) },
  });
  return error;
}

/** Enrols a WebAuthn factor named `name` and registers `key` as it: the session is then aal2. */
export async function registerKey(client: SupabaseClient, key: SoftwareAuthenticator, name = 'Office key', spoil: Spoil = {}): Promise<string> {
  const { data, error } = await client.auth.mfa.enroll({ factorType: 'webauthn', friendlyName: name });
  if (error || !data) throw new Error(`enrolment failed: ${error?.message}`);
  const failed = await answer(client, data.id, await challengeKey(client, data.id), key, spoil);
  if (failed) throw new Error(`registration failed: ${failed.message}`);
  return data.id;
}

/** Signs in with `key` for `factorId`: the session is then aal2. */
export async function signInWithKey(client: SupabaseClient, factorId: string, key: SoftwareAuthenticator): Promise<void> {
  const failed = await answer(client, factorId, await challengeKey(client, factorId), key);
  if (failed) throw new Error(`sign-in with the key failed: ${failed.message}`);
}
