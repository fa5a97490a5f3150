/**
 * Enrolling and verifying an authenticator through supabase-js, with codes computed by
 * the tests' own TOTP generator (totp.ts), for the MFA suites.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { authenticatorCode } from './totp.ts';

export type Enrolled = { factorId: string; secret: string; uri: string; qrCode: string };

export async function enrol(client: SupabaseClient, friendlyName = 'Work phone', issuer?: string): Promise<Enrolled> {
  const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName, ...(issuer ? { issuer } : {}) });
  if (error || !data) throw new Error(`enrolment failed: ${error?.message}`);
  return { factorId: data.id, secret: data.totp.secret, uri: data.totp.uri, qrCode: data.totp.qr_code };
}

/** Challenges the factor and answers with the current code: the client's session is then aal2. */
export async function verifyWithCode(client: SupabaseClient, factor: Pick<Enrolled, 'factorId' | 'secret'>): Promise<void> {
  const { error } = await client.auth.mfa.challengeAndVerify({ factorId: factor.factorId, code: authenticatorCode(factor.secret) });
  if (error) throw new Error(`verification failed: ${error.message}`);
}

export async function enrolAndVerify(client: SupabaseClient, friendlyName?: string): Promise<Enrolled> {
  const factor = await enrol(client, friendlyName);
  await verifyWithCode(client, factor);
  return factor;
}

export function tokenClaims(token: string | undefined): Record<string, unknown> {
  return JSON.parse(Buffer.from((token ?? '').split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
}

export async function sessionClaims(client: SupabaseClient): Promise<Record<string, unknown>> {
  return tokenClaims((await client.auth.getSession()).data.session?.access_token);
}
