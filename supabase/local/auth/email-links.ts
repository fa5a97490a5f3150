/**
 * E-mail links as GoTrue makes them (mail.go, crypto.go): a six-digit code, and the
 * token stored on the user (and put in the link) is SHA-224 of the address followed by
 * the code, so the code typed with the address and the link's token both verify. Unlike
 * GoTrue's, the hash is keyed with a server secret (HMAC): otherwise anyone who knows an
 * address could compute the token of each of the million codes and guess with links,
 * which name no account and so escape the account's few tries (one-time-codes.ts). A link
 * is `<auth url>/verify?token=...&type=...&redirect_to=...`; it redirects to the site
 * unless the request named an allowed address. One kind of e-mail goes to one user at
 * most once per interval (GoTrue's SMTP max frequency), answered 429.
 */
import { createHmac, randomInt } from 'node:crypto';
import type { MailSettings } from './settings.ts';

export type LinkType = 'signup' | 'invite' | 'magiclink' | 'recovery' | 'email_change';

export function newOtp(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** The key of the tokens: derived from the JWT secret, so it survives restarts and is as secret. */
export function codeKey(jwtSecret: string): Buffer {
  return createHmac('sha256', jwtSecret).update('auth one-time codes').digest();
}

export function tokenHash(key: Buffer, email: string, otp: string): string {
  return createHmac('sha224', key).update(`${email}${otp}`).digest('hex');
}

/** Where a link leads after verifying: the requested address when allowed, else the site. */
export function redirectFor(mail: MailSettings, requested: unknown): string {
  if (typeof requested === 'string' && requested) {
    try {
      const wanted = new URL(requested);
      const site = new URL(mail.siteUrl);
      const allowed = wanted.origin === site.origin || mail.redirectUrls.some((prefix) => requested.startsWith(prefix));
      if (allowed && (wanted.protocol === 'http:' || wanted.protocol === 'https:')) return wanted.toString();
    } catch {
      // Not an address: the site it is.
    }
  }
  return mail.siteUrl;
}

export function actionLink(authUrl: string, token: string, type: LinkType, redirectTo: string): string {
  const query = new URLSearchParams({ token, type, redirect_to: redirectTo });
  return `${authUrl}/verify?${query.toString()}`;
}

/** Seconds still to wait before another e-mail of this kind may go, or 0. */
export function secondsToWait(sentAt: string | null, intervalSeconds: number, now = Date.now()): number {
  if (!sentAt || intervalSeconds <= 0) return 0;
  const due = Date.parse(sentAt) + intervalSeconds * 1000;
  return due > now ? Math.ceil((due - now) / 1000) : 0;
}

export function expired(sentAt: string | null, linkSeconds: number, now = Date.now()): boolean {
  return !sentAt || Date.parse(sentAt) + linkSeconds * 1000 < now;
}

/** GoTrue's 429 for an e-mail asked for again too soon. */
export const tooSoon = (seconds: number) => ({
  ok: false as const,
  status: 429,
  code: 'over_email_send_rate_limit',
  message: `For security purposes, you can only request this after ${seconds} seconds.`,
});
