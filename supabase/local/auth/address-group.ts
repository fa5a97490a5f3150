/**
 * The unit a per-address limit counts: an IPv4 address, or an IPv6 /64 network. One
 * IPv6 subscriber usually holds a whole /64 and could otherwise take a fresh address
 * for every attempt.
 */
import { isIPv6 } from 'node:net';

function expand(address: string): string[] | null {
  const [head = '', tail] = address.split('::', 2) as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  if (tail === undefined) return left.length === 8 ? left : null;
  return [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
}

export function addressGroup(address: string): string {
  const plain = address.replace(/%.*$/, ''); // zone index
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(plain)) return plain;
  const groups = expand(plain.toLowerCase());
  if (!groups) return plain;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
