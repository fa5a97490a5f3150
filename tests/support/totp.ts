/**
 * The tests' own one-time-password generator (RFC 4226 / RFC 6238), written apart from
 * the backend's (supabase/local/auth/totp.ts) so that a code the backend accepts was
 * computed by something else: it decodes base32 through a bit string and reads the
 * counter as a BigInt. tests/unit/local/totp.test.ts holds it to the RFCs' published
 * values.
 */
import { createHmac } from 'node:crypto';

const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function secretBytes(base32: string): Buffer {
  const bits = [...base32.replace(/=/g, '').toUpperCase()]
    .map((char) => {
      const index = letters.indexOf(char);
      if (index < 0) throw new Error(`not base32: ${char}`);
      return index.toString(2).padStart(5, '0');
    })
    .join('');
  const bytes: number[] = [];
  for (let at = 0; at + 8 <= bits.length; at += 8) bytes.push(parseInt(bits.slice(at, at + 8), 2));
  return Buffer.from(bytes);
}

/** The code of `key` at counter value `counter`, `digits` long (RFC 4226 section 5.3). */
export function counterCode(key: Buffer, counter: bigint, digits = 6, hash: 'sha1' | 'sha256' | 'sha512' = 'sha1'): string {
  const counterBytes = Buffer.alloc(8);
  for (let i = 7, rest = counter; i >= 0; i -= 1, rest >>= 8n) counterBytes[i] = Number(rest & 0xffn);
  const digest = createHmac(hash, key).update(counterBytes).digest();
  const offset = digest[digest.length - 1]! & 0xf;
  const truncated = ((digest[offset]! & 0x7f) << 24) | (digest[offset + 1]! << 16) | (digest[offset + 2]! << 8) | digest[offset + 3]!;
  return (truncated % 10 ** digits).toString().padStart(digits, '0');
}

/** The authenticator app's code for a base32 secret at `unixSeconds` (30-second steps). */
export function authenticatorCode(base32Secret: string, unixSeconds = Date.now() / 1000): string {
  return counterCode(secretBytes(base32Secret), BigInt(Math.floor(unixSeconds / 30)));
}
