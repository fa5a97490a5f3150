import { describe, expect, it } from 'vitest';
import type { CborValue } from '../../../supabase/local/auth/cbor.ts';
import { CborError, CborSimple, CborTag, decodeCbor, decodeCborPrefix } from '../../../supabase/local/auth/cbor.ts';
import { cborEncode } from '../../support/cbor-encode.ts';

const limits = { maxDepth: 16, maxItems: 2048 };
const read = (hex: string) => decodeCbor(Buffer.from(hex, 'hex'), limits);
const bytes = (hex: string) => Buffer.from(hex, 'hex');
const map = (...entries: Array<[number | string, CborValue]>) => new Map(entries);

/** RFC 8949, Appendix A: each encoded example and the value it stands for. */
const examples: Array<[string, CborValue]> = [
  ['00', 0],
  ['01', 1],
  ['0a', 10],
  ['17', 23],
  ['1818', 24],
  ['1819', 25],
  ['1864', 100],
  ['1903e8', 1000],
  ['1a000f4240', 1000000],
  ['1b000000e8d4a51000', 1000000000000],
  ['1bffffffffffffffff', 18446744073709551615n],
  ['3bffffffffffffffff', -18446744073709551616n],
  ['20', -1],
  ['29', -10],
  ['3863', -100],
  ['3903e7', -1000],
  ['f90000', 0],
  ['f93c00', 1],
  ['fb3ff199999999999a', 1.1],
  ['f93e00', 1.5],
  ['f97bff', 65504],
  ['fa47c35000', 100000],
  ['fa7f7fffff', 3.4028234663852886e38],
  ['fb7e37e43c8800759c', 1.0e300],
  ['f90001', 5.960464477539063e-8],
  ['f90400', 0.00006103515625],
  ['f9c400', -4],
  ['fbc010666666666666', -4.1],
  ['f97c00', Infinity],
  ['f9fc00', -Infinity],
  ['fa7f800000', Infinity],
  ['fb7ff0000000000000', Infinity],
  ['f4', false],
  ['f5', true],
  ['f6', null],
  ['f7', undefined],
  ['f0', new CborSimple(16)],
  ['f8ff', new CborSimple(255)],
  ['c074323031332d30332d32315432303a30343a30305a', new CborTag(0, '2013-03-21T20:04:00Z')],
  ['c11a514b67b0', new CborTag(1, 1363896240)],
  ['c1fb41d452d9ec200000', new CborTag(1, 1363896240.5)],
  ['d74401020304', new CborTag(23, bytes('01020304'))],
  ['d818456449455446', new CborTag(24, bytes('6449455446'))],
  ['d82076687474703a2f2f7777772e6578616d706c652e636f6d', new CborTag(32, 'http://www.example.com')],
  ['40', Buffer.alloc(0)],
  ['4401020304', bytes('01020304')],
  ['60', ''],
  ['6161', 'a'],
  ['6449455446', 'IETF'],
  ['62225c', '"\\'],
  ['62c3bc', '\u00fc'],
  ['63e6b0b4', '\u6c34'],
  ['64f0908591', '\u{10151}'],
  ['80', []],
  ['83010203', [1, 2, 3]],
  ['8301820203820405', [1, [2, 3], [4, 5]]],
  ['98190102030405060708090a0b0c0d0e0f101112131415161718181819', Array.from({ length: 25 }, (_, i) => i + 1)],
  ['a0', new Map()],
  ['a201020304', map([1, 2], [3, 4])],
  ['a26161016162820203', map(['a', 1], ['b', [2, 3]])],
  ['826161a161626163', ['a', map(['b', 'c'])]],
  ['a56161614161626142616361436164614461656145', map(['a', 'A'], ['b', 'B'], ['c', 'C'], ['d', 'D'], ['e', 'E'])],
  ['5f42010243030405ff', bytes('0102030405')],
  ['7f657374726561646d696e67ff', 'streaming'],
  ['9fff', []],
  ['9f018202039f0405ffff', [1, [2, 3], [4, 5]]],
  ['9f01820203820405ff', [1, [2, 3], [4, 5]]],
  ['83018202039f0405ff', [1, [2, 3], [4, 5]]],
  ['83019f0203ff820405', [1, [2, 3], [4, 5]]],
  ['9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff', Array.from({ length: 25 }, (_, i) => i + 1)],
  ['bf61610161629f0203ffff', map(['a', 1], ['b', [2, 3]])],
  ['826161bf61626163ff', ['a', map(['b', 'c'])]],
  ['bf6346756ef563416d7421ff', map(['Fun', true], ['Amt', -2])],
];

describe('the CBOR decoder WebAuthn answers are read with', () => {
  it.each(examples)('reads RFC 8949\'s example %s', (hex, value) => {
    expect(read(hex)).toEqual(value);
  });

  it('reads negative zero and NaN as the RFC writes them', () => {
    expect(Object.is(read('f98000'), -0)).toBe(true);
    expect(read('f97e00')).toBeNaN();
    expect(read('fa7fc00000')).toBeNaN();
  });

  it('reads what the tests\' own encoder writes, nested, with integer keys as COSE keys have', () => {
    const value = new Map<number | string, unknown>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from('x'.repeat(32))],
      ['list', [true, null, 'ü', 65536, 4294967296, -70000]],
    ]);
    expect(decodeCbor(cborEncode(value as never), limits)).toEqual(value);
  });

  it('tells how many bytes an item took, so the bytes after it can be read next', () => {
    expect(decodeCborPrefix(bytes('a201020304ffee'), limits)).toEqual({ value: map([1, 2], [3, 4]), length: 5 });
    expect(decodeCborPrefix(bytes('00008301020399'), limits, 2)).toEqual({ value: [1, 2, 3], length: 4 });
  });

  const refused: Array<[string, string, RegExp]> = [
    ['nothing', '', /ends early/],
    ['a head cut short', '19 03', /ends early/],
    ['a string longer than what is left', '44 010203', /ends early/],
    ['a string longer than the whole input', '45 0102', /longer than the data/],
    ['a 64-bit length', '5b ffffffffffffffff', /longer than the data/],
    ['an array missing items', '83 0102', /ends early/],
    ['a map missing a value', 'a1 01', /ends early/],
    ['a reserved additional information', '1c', /reserved encoding/],
    ['a reserved simple encoding', 'fc', /reserved encoding/],
    ['a one-byte simple value below 32', 'f8 18', /two bytes where one would do/],
    ['a lone break', 'ff', /break outside/],
    ['a break ending a definite array', '82 01 ff', /break outside/],
    ['a break in place of a map key', 'a1 ff', /break outside/],
    ['an indefinite integer', '1f', /indefinite length/],
    ['an indefinite tag', 'df 00', /indefinite length/],
    ['an unterminated indefinite array', '9f 01 02', /ends early/],
    ['a text chunk in a byte string', '5f 6161 ff', /chunk of another kind/],
    ['an indefinite chunk in an indefinite string', '5f 5f 41 00 ff ff', /chunk of another kind/],
    ['a repeated map key', 'a2 01 02 01 03', /repeats the key 1/],
    ['a map key that is an array', 'a1 80 01', /not an integer or text/],
    ['invalid UTF-8', '62 c328', /not valid UTF-8/],
    ['bytes after the item', '01 02', /bytes after its item/],
  ];

  it.each(refused)('refuses %s with a CborError', (_what, hex, message) => {
    expect(() => read(hex.replace(/ /g, ''))).toThrow(CborError);
    expect(() => read(hex.replace(/ /g, ''))).toThrow(message);
  });

  it('bounds nesting and the number of items, so a small input cannot cost much', () => {
    const deep = Buffer.concat([Buffer.alloc(17, 0x81), Buffer.from([0x00])]);
    expect(() => decodeCbor(deep, limits)).toThrow(/nested deeper than 16 levels/);
    expect(decodeCbor(Buffer.concat([Buffer.alloc(16, 0x81), Buffer.from([0x00])]), limits)).toBeDefined();
    const many = cborEncode(Array.from({ length: 3000 }, () => 0));
    expect(() => decodeCbor(many, limits)).toThrow(/more than 2048 items/);
    // A declared count far beyond the data is refused before anything is read or allocated.
    expect(() => read('9b00000000ffffffff')).toThrow(/longer than the data/);
  });
});
