/**
 * The tests' own CBOR encoder (RFC 8949, definite lengths, shortest heads), written apart
 * from the backend's decoder (supabase/local/auth/cbor.ts) so that what the software
 * authenticator sends was put together by something else. Maps keep their insertion
 * order, as CTAP2's canonical form lists integer keys first.
 */

export type Encodable = number | bigint | string | Uint8Array | boolean | null | undefined | Encodable[] | Map<number | string, Encodable>;

function head(major: number, argument: number | bigint): Buffer {
  const value = BigInt(argument);
  const type = major << 5;
  if (value < 24n) return Buffer.from([type | Number(value)]);
  if (value < 0x100n) return Buffer.from([type | 24, Number(value)]);
  if (value < 0x10000n) {
    const out = Buffer.alloc(3);
    out[0] = type | 25;
    out.writeUInt16BE(Number(value), 1);
    return out;
  }
  if (value < 0x100000000n) {
    const out = Buffer.alloc(5);
    out[0] = type | 26;
    out.writeUInt32BE(Number(value), 1);
    return out;
  }
  const out = Buffer.alloc(9);
  out[0] = type | 27;
  out.writeBigUInt64BE(value, 1);
  return out;
}

export function cborEncode(value: Encodable): Buffer {
  if (value === false) return Buffer.from([0xf4]);
  if (value === true) return Buffer.from([0xf5]);
  if (value === null) return Buffer.from([0xf6]);
  if (value === undefined) return Buffer.from([0xf7]);
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (typeof value === 'number' && !Number.isInteger(value)) throw new Error('the test encoder writes integers only');
    const big = BigInt(value);
    return big >= 0n ? head(0, big) : head(1, -1n - big);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cborEncode)]);
  const parts: Buffer[] = [head(5, value.size)];
  for (const [key, item] of value) parts.push(cborEncode(key), cborEncode(item));
  return Buffer.concat(parts);
}
