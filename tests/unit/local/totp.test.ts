import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { qrModules, qrSvg } from '../../../supabase/local/auth/qr-svg.ts';
import { base32Decode, base32Encode, hotp, newTotpSecret, totpMatches, totpUri } from '../../../supabase/local/auth/totp.ts';
import { authenticatorCode, counterCode, secretBytes } from '../../support/totp.ts';

// RFC 4226 appendix D: HMAC-SHA-1 of the ASCII secret "12345678901234567890", counters 0 to 9.
const rfc4226 = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
// RFC 6238 appendix B, SHA-1 rows: unix time and the eight-digit code.
const rfc6238: Array<[number, string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];
const rfcKey = Buffer.from('12345678901234567890', 'ascii');
// The same key in base32, as an authenticator app would be given it.
const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('the tests\' own TOTP generator against the RFCs', () => {
  it('gives RFC 4226\'s HOTP values and RFC 6238\'s SHA-1 TOTP values', () => {
    expect(rfc4226.map((_, counter) => counterCode(rfcKey, BigInt(counter)))).toEqual(rfc4226);
    for (const [time, code] of rfc6238) expect(counterCode(rfcKey, BigInt(Math.floor(time / 30)), 8), String(time)).toBe(code);
    expect(secretBytes(rfcSecret)).toEqual(rfcKey);
    expect(authenticatorCode(rfcSecret, 1111111109)).toBe('081804');
  });
});

describe('the backend\'s TOTP (supabase/local/auth/totp.ts)', () => {
  it('gives the RFCs\' values', () => {
    expect(rfc4226.map((_, counter) => hotp(rfcKey, counter))).toEqual(rfc4226);
    for (const [time, code] of rfc6238) expect(hotp(rfcKey, Math.floor(time / 30), 8), String(time)).toBe(code);
  });

  it('reads and writes base32 as RFC 4648 does', () => {
    expect(base32Encode(rfcKey)).toBe(rfcSecret);
    expect(base32Decode(rfcSecret)).toEqual(rfcKey);
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI'); // RFC 4648 section 10, padding left out
    expect(base32Decode('MZXW6YTBOI======')).toEqual(Buffer.from('foobar'));
    expect(base32Decode('not base32!')).toBeNull();
  });

  it('makes secrets of 20 random bytes (32 base32 letters)', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(secretBytes(secret)).toHaveLength(20);
    expect(newTotpSecret()).not.toBe(secret);
  });

  it('accepts the code of the current step and one either side, nothing further and nothing malformed', () => {
    const now = 1_800_000_015_000;
    const at = (offsetSteps: number) => authenticatorCode(rfcSecret, now / 1000 + offsetSteps * 30);
    expect([-1, 0, 1].map((offset) => totpMatches(rfcSecret, at(offset), now))).toEqual([true, true, true]);
    expect([-2, 2].map((offset) => totpMatches(rfcSecret, at(offset), now))).toEqual([false, false]);
    expect(totpMatches(rfcSecret, ` ${at(0)}`, now)).toBe(false);
    expect(totpMatches(rfcSecret, at(0).slice(1), now)).toBe(false);
    expect(totpMatches('!!', at(0), now)).toBe(false);
  });

  it('writes the otpauth address authenticator apps read', () => {
    expect(totpUri('Demo Motors', 'admin@example.com', rfcSecret)).toBe(
      `otpauth://totp/Demo%20Motors:admin@example.com?algorithm=SHA1&digits=6&issuer=Demo%20Motors&period=30&secret=${rfcSecret}`,
    );
  });
});

/** Draws the SVG's squares onto a bitmap, as a camera would see the screen. */
function rasterise(svg: string): { data: Uint8ClampedArray; width: number; height: number } {
  const side = Number(/width="(\d+)"/.exec(svg)?.[1]);
  const data = new Uint8ClampedArray(side * side * 4).fill(255);
  for (const [, x, y, size] of svg.matchAll(/M(\d+) (\d+)h(\d+)/g)) {
    for (let dy = 0; dy < Number(size); dy += 1) {
      for (let dx = 0; dx < Number(size); dx += 1) {
        const at = ((Number(y) + dy) * side + Number(x) + dx) * 4;
        data[at] = data[at + 1] = data[at + 2] = 0;
      }
    }
  }
  return { data, width: side, height: side };
}

describe('the enrolment QR code', () => {
  it('is an SVG a QR reader decodes back to the otpauth address', () => {
    const uri = totpUri('localhost:4173', 'admin@example.com', newTotpSecret());
    const svg = qrSvg(uri);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).not.toMatch(/[#%]/); // usable in a data: address without encoding, as supabase-js uses it
    const image = rasterise(svg);
    expect(jsQR(image.data, image.width, image.height)?.data).toBe(uri);
  });

  it('holds the longest issuer and e-mail address the backend accepts', () => {
    const uri = totpUri('I'.repeat(100), `${'a'.repeat(64)}@${'b'.repeat(180)}.example`, newTotpSecret());
    const image = rasterise(qrSvg(uri));
    expect(jsQR(image.data, image.width, image.height)?.data).toBe(uri);
    expect(qrModules(uri).length).toBeLessThanOrEqual(177);
  });
});
