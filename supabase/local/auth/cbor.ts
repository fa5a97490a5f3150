/**
 * A CBOR decoder (RFC 8949) for what WebAuthn authenticators send: the attestation object,
 * the COSE public key inside the authenticator data, and its extensions. It reads every
 * major type (indefinite lengths too), and is strict where leniency would help an
 * attacker: a map key may appear once, text must be valid UTF-8, reserved encodings are
 * refused, and nesting and item counts are bounded so a small hostile input cannot cost
 * much. Anything it cannot read is a CborError, never another exception.
 *
 * Values: unsigned and negative integers as numbers (bigint beyond 2^53), byte strings as
 * Buffers, text as strings, arrays, maps as Map (keys: numbers, bigints and strings, the
 * kinds WebAuthn uses), true/false/null/undefined, floats as numbers, tags as CborTag and
 * other simple values as CborSimple.
 */

export class CborError extends Error {}

export class CborTag {
  constructor(
    readonly tag: number | bigint,
    readonly value: CborValue,
  ) {}
}

export class CborSimple {
  constructor(readonly value: number) {}
}

export type CborKey = number | bigint | string;
export type CborValue =
  | number
  | bigint
  | string
  | Buffer
  | boolean
  | null
  | undefined
  | CborValue[]
  | Map<CborKey, CborValue>
  | CborTag
  | CborSimple;

export type CborLimits = {
  /** Arrays, maps and tags nested in one another. */
  maxDepth: number;
  /** Data items in the whole input (each array element, map key and value counts). */
  maxItems: number;
};

/** The value read and how many bytes it took: authenticator data carries CBOR followed by more bytes. */
export type Decoded = { value: CborValue; length: number };

const breakMarker = Symbol('break');

class Reader {
  private offset: number;
  private items = 0;

  constructor(
    private readonly bytes: Buffer,
    start: number,
    private readonly limits: CborLimits,
  ) {
    this.offset = start;
  }

  get position(): number {
    return this.offset;
  }

  private need(count: number): void {
    if (this.offset + count > this.bytes.length) throw new CborError('CBOR data ends early');
  }

  private byte(): number {
    this.need(1);
    return this.bytes[this.offset++] as number;
  }

  private take(count: number): Buffer {
    this.need(count);
    const slice = this.bytes.subarray(this.offset, this.offset + count);
    this.offset += count;
    return slice;
  }

  /** The argument of an item head: its value, or null for an indefinite length (31). */
  private argument(info: number): number | bigint | null {
    if (info < 24) return info;
    if (info === 24) return this.byte();
    if (info === 25) return this.take(2).readUInt16BE(0);
    if (info === 26) return this.take(4).readUInt32BE(0);
    if (info === 27) {
      const big = this.take(8).readBigUInt64BE(0);
      return big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
    }
    if (info === 31) return null;
    throw new CborError(`CBOR uses a reserved encoding (additional information ${info})`);
  }

  /** A length that must fit in the input: anything longer cannot be real. */
  private length(argument: number | bigint): number {
    if (typeof argument === 'bigint' || argument > this.bytes.length) throw new CborError('CBOR length is longer than the data');
    return argument;
  }

  private count(): void {
    this.items += 1;
    if (this.items > this.limits.maxItems) throw new CborError(`CBOR data holds more than ${this.limits.maxItems} items`);
  }

  read(depth = 0): CborValue {
    const value = this.readItem(depth);
    if (value === breakMarker) throw new CborError('CBOR break outside an indefinite-length item');
    return value;
  }

  private readItem(depth: number): CborValue | typeof breakMarker {
    if (depth > this.limits.maxDepth) throw new CborError(`CBOR data is nested deeper than ${this.limits.maxDepth} levels`);
    const head = this.byte();
    const major = head >> 5;
    const info = head & 0x1f;
    if (major === 7) return this.simple(info);
    this.count();
    const argument = this.argument(info);
    switch (major) {
      case 0:
        return argument === null ? this.fail() : argument;
      case 1:
        return typeof argument === 'bigint' ? -1n - argument : argument === null ? this.fail() : -1 - argument;
      case 2:
        return argument === null ? this.chunks(2, depth) : Buffer.from(this.take(this.length(argument)));
      case 3:
        return argument === null ? this.chunks(3, depth).toString('utf8') : this.text(this.take(this.length(argument)));
      case 4:
        return this.array(argument, depth);
      case 5:
        return this.map(argument, depth);
      default:
        // Major type 6: a tag, then the item it tags.
        if (argument === null) return this.fail();
        return new CborTag(argument, this.read(depth + 1));
    }
  }

  private fail(): never {
    throw new CborError('CBOR uses an indefinite length where none is allowed');
  }

  private text(bytes: Buffer): string {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new CborError('CBOR text is not valid UTF-8');
    }
  }

  /** An indefinite-length byte or text string: definite chunks of the same type until a break. */
  private chunks(major: 2 | 3, depth: number): Buffer {
    const parts: Buffer[] = [];
    for (;;) {
      const head = this.byte();
      if (head === 0xff) break;
      if (head >> 5 !== major || (head & 0x1f) === 31) throw new CborError('CBOR indefinite string holds a chunk of another kind');
      this.offset -= 1;
      const chunk = this.readItem(depth + 1);
      parts.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Buffer));
    }
    const joined = Buffer.concat(parts);
    if (major === 3) this.text(joined);
    return joined;
  }

  private array(argument: number | bigint | null, depth: number): CborValue[] {
    const out: CborValue[] = [];
    if (argument === null) {
      for (;;) {
        const item = this.readItem(depth + 1);
        if (item === breakMarker) return out;
        out.push(item);
      }
    }
    const size = this.length(argument);
    for (let i = 0; i < size; i += 1) out.push(this.read(depth + 1));
    return out;
  }

  private map(argument: number | bigint | null, depth: number): Map<CborKey, CborValue> {
    const out = new Map<CborKey, CborValue>();
    const size = argument === null ? Infinity : this.length(argument);
    for (let i = 0; i < size; i += 1) {
      const key = this.readItem(depth + 1);
      if (key === breakMarker) {
        if (argument === null) return out;
        throw new CborError('CBOR break outside an indefinite-length item');
      }
      if (typeof key !== 'number' && typeof key !== 'bigint' && typeof key !== 'string') {
        throw new CborError('CBOR map key is not an integer or text');
      }
      if (out.has(key)) throw new CborError(`CBOR map repeats the key ${String(key)}`);
      out.set(key, this.read(depth + 1));
    }
    return out;
  }

  private simple(info: number): CborValue | typeof breakMarker {
    if (info === 31) return breakMarker;
    this.count();
    if (info < 20) return new CborSimple(info);
    if (info === 20) return false;
    if (info === 21) return true;
    if (info === 22) return null;
    if (info === 23) return undefined;
    if (info === 24) {
      const value = this.byte();
      if (value < 32) throw new CborError('CBOR simple value is encoded in two bytes where one would do');
      return new CborSimple(value);
    }
    if (info === 25) return halfFloat(this.take(2).readUInt16BE(0));
    if (info === 26) return this.take(4).readFloatBE(0);
    if (info === 27) return this.take(8).readDoubleBE(0);
    throw new CborError(`CBOR uses a reserved encoding (additional information ${info})`);
  }
}

/** An IEEE 754 half-precision float (RFC 8949, Appendix D). */
function halfFloat(half: number): number {
  const exponent = (half >> 10) & 0x1f;
  const mantissa = half & 0x3ff;
  const sign = half & 0x8000 ? -1 : 1;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 31) return mantissa === 0 ? sign * Infinity : NaN;
  return sign * (mantissa + 1024) * 2 ** (exponent - 25);
}

/** Reads one CBOR item starting at `start`; the bytes after it are left to the caller. */
export function decodeCborPrefix(bytes: Buffer, limits: CborLimits, start = 0): Decoded {
  const reader = new Reader(bytes, start, limits);
  const value = reader.read();
  return { value, length: reader.position - start };
}

/** Reads exactly one CBOR item: bytes left over are an error. */
export function decodeCbor(bytes: Buffer, limits: CborLimits): CborValue {
  const { value, length } = decodeCborPrefix(bytes, limits);
  if (length !== bytes.length) throw new CborError('CBOR data has bytes after its item');
  return value;
}
