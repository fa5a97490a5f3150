import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';

// Hostile and malformed requests, generated from a fixed seed so a failure reproduces.
// Each must get a 4xx with a PostgREST-style body, the server must keep serving, and no
// data may change.

function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

// Every list below holds only values that cannot make a valid request in its place,
// so each generated request is malformed by construction.
const badValues = [
  "1; drop table stores; --", "' or '1'='1", '"); delete from stores; --', 'x" or 1=1 --', '$1', '$$',
  '\\', '%00', '🚗', 'pg_sleep(5)', '../../etc/passwd', 'nope', 'a'.repeat(5000),
];
const badColumns = ['nope', 'id;drop', '"id"', 'value)', 'sync_xid--', '', 'pg_catalog.pg_authid'];
const badOperators = ['fts', 'bogus', 'not', '', 'eq(any)', 'nope', 'not.bogus'];
const comparisons = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'];
const badSelects = ['id,', 'id(', 'a:b:c', '*,stores(', 'id::regclass', 'id!inner', '!!', 'stores(*)!x', 'nope', '*,nope(*)', ...badValues];
const badLogic = ['(', '(id.eq.1', 'id.eq.1)', '(and(id.eq.1)', '((((', '(id.eq.1,,)', '()', '(nope.eq.1)', '(id.bogus.1)', '(id.eq.nope)'];
const badTables = ['pg_authid', 'nope', 'daily_inputs;drop table stores', '..', 'auth.users', 'users', ''];
const badBodies = ['{', '[1,2]', '"text"', 'null', '{"value": "abc"}', '{"nope": 1}', '[{"value": []}]', '{"entry_date": "yesterday"}', '[[]]', '{"__proto__": {"x": 1}}'];
const badRpc: Array<[string, string]> = [
  ['pull_changes', '{"p_table": "pg_authid"}'], ['pull_changes', '{"p_table": "daily_inputs", "p_limit": -5}'],
  ['pull_changes', '{"p_table": "daily_inputs", "p_cursor": "junk"}'], ['pull_changes', '{"bogus": 1}'],
  ['pull_changes', '[]'], ['pull_changes', '{'], ['nope', '{}'], ['pg_sleep', '{"seconds": 5}'], ['set_config', '{}'],
];
const asciiOnly = (value: string) => /^[\x20-\x7e]*$/.test(value);

type Case = { method: string; path: string; body?: string; headers?: Record<string, string> };

function generate(count: number): Case[] {
  const next = random(20261122);
  const pick = <T,>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const q = encodeURIComponent;
  const shapes: Array<() => Case> = [
    () => ({ method: 'GET', path: `/rest/v1/daily_inputs?id=${q(`${pick(comparisons)}.${pick(badValues)}`)}` }),
    () => ({ method: 'GET', path: `/rest/v1/daily_inputs?${q(pick(badColumns))}=eq.1` }),
    () => ({ method: 'GET', path: `/rest/v1/daily_inputs?value=${q(`${pick(badOperators)}.1`)}` }),
    () => ({ method: 'GET', path: `/rest/v1/daily_inputs?value=${q(`in.${pick(['1,2', '(1,2', '((1)', '("a)', '(a)'])}`)}` }),
    () => ({ method: 'GET', path: `/rest/v1/daily_inputs?select=${q(pick(badSelects))}` }),
    () => ({ method: 'GET', path: `/rest/v1/daily_inputs?or=${q(pick(badLogic))}` }),
    () => ({ method: 'GET', path: `/rest/v1/daily_inputs?order=${q(pick(['id.sideways', 'nope.asc', 'id.asc.nullsmiddle', ...badValues]))}` }),
    () => ({ method: 'GET', path: `/rest/v1/daily_inputs?limit=${q(pick(['-1', 'ten', '1e3', '9999999999', ...badValues]))}` }),
    () => ({ method: 'GET', path: `/rest/v1/${q(pick(badTables))}?select=*` }),
    () => ({ method: 'POST', path: '/rest/v1/daily_inputs', body: pick([...badBodies, JSON.stringify({ value: pick(badValues) })]) }),
    () => ({ method: 'POST', path: `/rest/v1/daily_inputs?on_conflict=${q(pick(badColumns.filter(Boolean)))}`, body: '{"value": 1}', headers: { Prefer: 'resolution=merge-duplicates' } }),
    () => ({ method: 'PATCH', path: `/rest/v1/daily_inputs?id=eq.${q(pick(badValues))}`, body: pick(['[]', '{"value": {"a": 1}}', '{"store_id": "x"}', '{"nope": 1}', '{"value": 1}']) }),
    () => ({ method: 'DELETE', path: `/rest/v1/stores?id=${q(`${pick(comparisons)}.${pick(badValues)}`)}` }),
    () => {
      const [fn, body] = pick(badRpc);
      return { method: 'POST', path: `/rest/v1/rpc/${q(fn)}`, body };
    },
    () => ({ method: 'GET', path: '/rest/v1/daily_inputs?select=*', headers: { 'Accept-Profile': pick(['auth', 'pg_catalog', 'private', ...badValues.filter(asciiOnly)]) } }),
    () => ({ method: 'PUT', path: '/rest/v1/daily_inputs', body: '{}' }),
    () => ({ method: 'POST', path: '/rest/v1/daily_inputs', body: `[${'{"value": 1},'.repeat(100_000)}{}]` }),
  ];
  const cases: Case[] = [];
  for (let i = 0; i < count; i += 1) cases.push(pick(shapes)());
  return cases;
}

describe('the REST API under malformed and hostile requests', () => {
  let stack: TestStack;
  let token: string;
  const fingerprint = async () =>
    (
      await stack.database.query(`select
        (select count(*)::int from public.daily_inputs) as daily,
        (select coalesce(sum(value), 0)::text from public.daily_inputs) as daily_sum,
        (select count(*)::int from public.stores) as stores,
        (select count(*)::int from public.monthly_targets) as targets,
        (select count(*)::int from auth.users) as users`)
    ).rows[0];

  beforeAll(async () => {
    stack = await startTestStack({ bodyLimit: 256 * 1024 });
    const manager = await stack.signIn('manager@example.com');
    token = (await manager.auth.getSession()).data.session?.access_token ?? '';
  });
  afterAll(() => stack?.stop());

  it('answers each of 600 generated requests with a 4xx PostgREST error and changes nothing', async () => {
    const before = await fingerprint();
    const cases = generate(600);
    const statuses = new Map<number, number>();
    for (const [i, c] of cases.entries()) {
      const response = await fetch(`${stack.url}${c.path}`, {
        method: c.method,
        headers: {
          apikey: stack.keys.anonKey,
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          Prefer: 'return=representation',
          ...c.headers,
        },
        body: c.body,
      });
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const context = `case ${i}: ${c.method} ${c.path.slice(0, 200)} ${JSON.stringify(c.headers ?? {}).slice(0, 80)} ${c.body?.slice(0, 80) ?? ''} -> ${response.status} ${text.slice(0, 200)}`;
      expect(response.status, context).toBeGreaterThanOrEqual(400);
      expect(response.status, context).toBeLessThan(500);
      const body = JSON.parse(text) as Record<string, unknown>;
      expect(typeof body.message, context).toBe('string');
      expect(body, context).toHaveProperty('code');
    }
    expect(await fingerprint()).toEqual(before);
    // Still serving, and still right.
    const health = await fetch(`${stack.url}/rest/v1/stores?select=name`, { headers: { apikey: stack.keys.anonKey, Authorization: `Bearer ${token}` } });
    expect(await health.json()).toEqual([{ name: 'Demo Motors' }]);
    expect(statuses.size).toBeGreaterThan(3);
  });
});
