import { describe, expect, it } from 'vitest';
import { metadataTooLarge, normaliseEmail, passwordProblem } from '../../../src/domain/credentials.ts';

describe('normaliseEmail', () => {
  it.each([
    ['  Manager@Example.COM\t', 'manager@example.com'],
    ['ｍａｎａｇｅｒ＠ｅｘａｍｐｌｅ．ｃｏｍ', 'manager@example.com'], // full-width forms fold under NFKC
    ['ﬁnance@example.com', 'finance@example.com'], // the "ﬁ" ligature is two letters
  ])('stores %j as %j', (raw, email) => {
    expect(normaliseEmail(raw)).toEqual({ ok: true, email });
  });

  it.each([
    ['zero-width space', 'manager\u200B@example.com'],
    ['zero-width joiner', 'mana\u200Dger@example.com'],
    ['zero-width non-joiner', 'mana\u200Cger@example.com'],
    ['word joiner', 'manager@example.com\u2060'],
    ['byte order mark at the start', '\uFEFFmanager@example.com'],
    ['soft hyphen', 'man\u00ADager@example.com'],
    ['right-to-left override', 'manager@\u202Eexample.com'],
    ['a control character', 'manager\u0007@example.com'],
    ['Hangul filler', 'manager\u3164@example.com'],
    ['a variation selector', 'manager\uFE0F@example.com'],
    ['a tag character', 'manager\u{E0041}@example.com'],
  ])('refuses an address with a %s', (_name, raw) => {
    expect(normaliseEmail(raw)).toEqual({ ok: false, reason: 'invisible' });
  });

  it.each([[''], ['no-at-sign'], ['a@b'], ['two words@example.com'], [`${'a'.repeat(250)}@example.com`], [42], [null]])(
    'refuses %j as not an address',
    (raw) => {
      expect(normaliseEmail(raw)).toEqual({ ok: false, reason: 'invalid' });
    },
  );
});

describe('passwordProblem', () => {
  it.each([
    ['12345', 'length'],
    [undefined, 'length'],
    ['123456', 'pwned'],
    ['PASSWORD', 'pwned'],
    ['qwerty', 'pwned'],
    ['x'.repeat(73), 'too_long'],
    ['€'.repeat(25), 'too_long'], // 75 bytes
  ])('finds %j %s', (password, reason) => {
    expect(passwordProblem(password)?.reason).toBe(reason);
  });

  it('accepts six characters that are not on the list, and the demo password', () => {
    expect(passwordProblem('tyre42')).toBeNull();
    expect(passwordProblem('demo1234')).toBeNull();
    expect(passwordProblem('x'.repeat(72))).toBeNull();
  });
});

describe('metadataTooLarge', () => {
  it('allows 4 KiB of JSON and no more', () => {
    expect(metadataTooLarge({ note: 'x'.repeat(4096 - '{"note":""}'.length) })).toBe(false);
    expect(metadataTooLarge({ note: 'x'.repeat(4097 - '{"note":""}'.length) })).toBe(true);
  });
});
