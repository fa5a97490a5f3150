/**
 * Time-based one-time passwords (RFC 6238) as authenticator apps and GoTrue use them:
 * HMAC-SHA-1, six digits, 30-second steps, and a code accepted in the step before and
 * after the server's own, so a phone whose clock is a little off still works. The secret
 * is 20 random bytes written in base32 (RFC 4648) without padding, the form an app reads
 * from the QR code or from the text a person types in.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const totpPeriodSeconds = 30;
export const totpDigits = 6;
/** Steps either side of the server's own that still count (GoTrue's skew). */
export const totpSkewSteps = 1;
const secretBytes = 20;
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += alphabet[(buffer << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 (case and padding ignored); null for any other character. */
export function base32Decode(text: string): Buffer | null {
  const clean = text.replace(/=+$/, '').toUpperCase();
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = alphabet.indexOf(char);
    if (value < 0) return null;
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >> (bits - 8)) & 255);
      bits -= 8;
    }
    buffer &= (1 << bits) - 1;
  }
  return Buffer.from(out);
}

export function newTotpSecret(): string {
  return base32Encode(randomBytes(secretBytes));
}

/** The HOTP value (RFC 4226) of `key` at `counter`, as `digits` decimal digits. */
export function hotp(key: Uint8Array, counter: number, digits = totpDigits): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The time step a moment (milliseconds since the epoch) falls in. */
export function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / totpPeriodSeconds);
}

/** True when `code` is the secret's code for the current step or one either side of it. */
export function totpMatches(secret: string, code: string, nowMs = Date.now()): boolean {
  const key = base32Decode(secret);
  if (!key || !new RegExp(`^\\d{${totpDigits}}$`).test(code)) return false;
  const given = Buffer.from(code);
  let matched = false;
  const step = totpStep(nowMs);
  // Every candidate is compared, in constant time, so the answer's timing tells nothing.
  for (let offset = -totpSkewSteps; offset <= totpSkewSteps; offset += 1) {
    if (timingSafeEqual(Buffer.from(hotp(key, step + offset)), given)) matched = true;
  }
  return matched;
}

/**
 * The otpauth:// address an authenticator app reads (the Key URI format): the label is
 * "issuer:account", the parameters sorted by name as GoTrue's TOTP library writes them.
 */
export function totpUri(issuer: string, account: string, secret: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account).replace(/%40/g, '@')}`;
  const query = new URLSearchParams([
    ['algorithm', 'SHA1'],
    ['digits', String(totpDigits)],
    ['issuer', issuer],
    ['period', String(totpPeriodSeconds)],
    ['secret', secret],
  ]);
  return `otpauth://totp/${label}?${query.toString().replace(/\+/g, '%20')}`;
}
