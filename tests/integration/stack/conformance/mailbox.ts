/** Reading the embedded Auth's mailbox (one JSON line per e-mail) and following its links, for the Auth conformance suites. */
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';

export type Mail = { sent_at: string; to: string; type: string; subject: string; action_link: string; email_otp: string; redirect_to: string; via?: string };

export async function mails(file: string): Promise<Mail[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Mail);
}

/** The newest e-mail of `type` to `to`. */
export async function lastMail(file: string, to: string, type: string): Promise<Mail> {
  const found = (await mails(file)).filter((m) => m.to === to && m.type === type).pop();
  if (!found) throw new Error(`no ${type} e-mail to ${to} in the mailbox`);
  return found;
}

/**
 * The token hash, computed here independently: SHA-224 of the address followed by the code,
 * as GoTrue's, but keyed (HMAC) with a key derived from the JWT secret (docs/security.md).
 */
export const tokenHashOf = (jwtSecret: string, email: string, otp: string) =>
  createHmac('sha224', createHmac('sha256', jwtSecret).update('auth one-time codes').digest()).update(`${email}${otp}`).digest('hex');

/** Follows an e-mail link without following its redirect: the Location and its fragment's fields. */
export async function follow(link: string): Promise<{ status: number; location: URL; fragment: URLSearchParams }> {
  const response = await fetch(link, { redirect: 'manual' });
  const location = new URL(response.headers.get('location') ?? 'http://invalid/');
  return { status: response.status, location, fragment: new URLSearchParams(location.hash.slice(1)) };
}
