/**
 * Guessed one-time codes for the hostile-request suite: codes typed with known and
 * unknown addresses (in odd spellings) for every verification type, and link tokens of
 * the right shape, by POST and GET, all from one client address. They meet the per-address
 * and per-account limits and void codes after 5 wrong tries; with no code outstanding,
 * none may sign anyone in or change any row. From their own seeded source, so the main
 * stream of cases stays as it was.
 */
import type { HttpCase } from './http-cases.ts';
import type { Tokens } from './tokens.ts';
import { seeded } from '../../../support/random.ts';

const types = ['signup', 'invite', 'magiclink', 'recovery', 'email_change', 'email'];
const addresses = ['manager@example.com', 'ADMIN@example.com', ' other@example.com ', 'nobody@example.com', 'ｍａｎａｇｅｒ@example.com'];

export function codeGuessCases(tokens: Tokens, count: number, seed = 20261126): HttpCase[] {
  const { one, chance, int } = seeded(seed);
  const h = { apikey: tokens.anon, 'Content-Type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01' };
  const code = () => String(int(0, 999_999)).padStart(6, '0');
  const hex = () => Array.from({ length: 56 }, () => '0123456789abcdef'[int(0, 15)]).join('');
  return Array.from({ length: count }, (): HttpCase => {
    const type = one(types);
    if (chance(0.6)) return { method: 'POST', path: '/auth/v1/verify', headers: h, body: JSON.stringify({ type, email: one(addresses), token: code() }) };
    if (chance(0.5)) return { method: 'POST', path: '/auth/v1/verify', headers: h, body: JSON.stringify({ type, token_hash: hex() }) };
    return { method: 'GET', path: `/auth/v1/verify?type=${type}&token=${hex()}&redirect_to=${encodeURIComponent('http://localhost:4173/')}`, headers: h };
  });
}
