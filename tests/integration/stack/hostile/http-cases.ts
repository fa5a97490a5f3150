/**
 * Generated HTTP requests for the hostile-request suite: the REST query grammar (select
 * trees with deep embeds, filters, or/and/not logic, order, paging), bodies, headers and
 * encodings, Auth and Functions, each built from a seeded random source. Reads may be
 * valid (they change nothing); a write is always refused by construction (a broken
 * envelope, a bad value, a foreign store, an unknown column), so no case may change data.
 */
import { gzipSync } from 'node:zlib';
import { codeGuessCases } from './code-cases.ts';
import { stallCases } from './stall-cases.ts';
import type { Random } from '../../../support/random.ts';
import type { Tokens } from './tokens.ts';

export type HttpCase = { method: string; path: string; headers: Record<string, string>; body?: string | Buffer<ArrayBuffer> };

const tables = ['daily_inputs', 'stores', 'store_settings', 'monthly_targets', 'front_end_team_advisors', 'front_end_team_daily_performance'];
const badTables = ['pg_authid', 'nope', 'daily_inputs;drop table stores', '..', 'auth.users', 'users', '%ZZ', '%', '%C0%AF', '%00', 'a/b', ''];
const columns = ['id', 'store_id', 'entry_date', 'year', 'month', 'value', 'row_identifier', 'metric_type', 'name', 'advisor_name', 'sync_xid'];
const badColumns = ['nope', 'id;drop', '"id"', 'value)', 'sync_xid--', '', 'pg_catalog.pg_authid', '*', 'a'.repeat(300)];
const relations = ['stores', 'daily_inputs', 'store_settings', 'front_end_team_advisors', 'front_end_team_daily_performance', 'monthly_targets', 'nope'];
const operators = [
  'eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'is', 'in', 'cs', 'cd', 'fts', 'match', 'bogus', '', 'not.eq', 'not.bogus',
  // PostgREST 12's range, full-text and quantified operators.
  'sl', 'sr', 'nxr', 'nxl', 'adj', 'ov', 'plfts(english)', 'phfts(french)', 'wfts(klingon)', 'fts()', 'like(any)', 'ilike(all)',
  'eq(any)', 'gt(all)', 'imatch', 'isdistinct', 'like(some)', 'not.fts(english)',
];
const values = [
  '1', '0', '-1', '2026', '1e309', 'NaN', 'Infinity', 'null', 'true', 'not_null', 'CP', 'hours', '2026-01-01', 'yesterday',
  "1; drop table stores; --", "' or '1'='1", '$1', '$$', '\\', '🚗', '%', '*', '(1,2)', '("a,b",c)', '{1,2}',
  '11111111-1111-4111-8111-111111111111', 'a'.repeat(3000), '\u0000', '\uFFFD', 'é',
  '[1,5)', '(,)', 'empty', '{a,b}', '{O*,*n}', 'fat & cat', '!(', '"quoted,value"', '(a[)', '{', '[2026-01-01,2026-02-01)',
];
/** JSON paths a select, filter or order may take (`col->key`, `col->>0`, quoted keys). */
const jsonPaths = ['', '', '->a', '->>a', '->0', '->>-1', '->"a,b"', '->a->>b', '->', '->>', '->>(', '->a::text'];
/** Aggregates of PostgREST 12, right and wrong. */
const aggregates = ['', '', '', '.sum()', '.avg()::int', '.count()', '.max()', '.min()', '.median()', '.sum', '.sum()::bogus'];
const casts = ['text', 'int', 'json', 'regclass', 'oid', 'pg_catalog.text', 'bogus', 'numeric'];
const badBodies = [
  '{', '[1,2]', '"text"', 'null', '{"value": "abc"}', '{"nope": 1}', '[{"value": []}]', '{"entry_date": "yesterday"}',
  '[[]]', '{"__proto__": {"x": 1}}', '{"value": 1e309}', '{"value": NaN}', '[' + '['.repeat(5000), '{"a":' + '{"a":'.repeat(3000) + '1',
  '{"value": "\\u0000"}', '\uFEFF{}', '{"store_id": "22222222-2222-4222-8222-222222222222", "year": 2031, "month": 1}',
  // Targets of another store, each row with its own set of keys: one INSERT however many
  // sets (with missing=default, each row's defaults), refused by the store's policy.
  JSON.stringify(Array.from({ length: 300 }, (_, i) => {
    const row: Record<string, unknown> = { store_id: '22222222-2222-4222-8222-222222222222', metric_key: 'cpElr' };
    const optional: Record<string, unknown> = { year: 2000 + i, month: (i % 12) + 1, target_value: i, deleted_at: null, updated_at: '2031-01-01T00:00:00Z' };
    Object.entries(optional).forEach(([key, value], bit) => {
      if (i & (1 << bit)) row[key] = value;
    });
    if (i & 32) row.id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    return row;
  })),
];
const invalidUtf8 = [Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), Buffer.from([0xc3, 0x28]), Buffer.from([0xe2, 0x82]), Buffer.from([0xc0, 0xaf])];

/** A row the server would take, sent only inside a broken envelope (its refusal proves the envelope is checked). */
const validRow = JSON.stringify({ store_id: '11111111-1111-4111-8111-111111111111', year: 2033, month: 7, metric_key: 'cpElr', target_value: 5 });

export function httpCases(pick: Random, tokens: Tokens, count: number): HttpCase[] {
  const { one, chance, int } = pick;
  const q = encodeURIComponent;

  function select(depth: number): string {
    const items: string[] = [];
    for (let i = int(1, 4); i > 0; i -= 1) {
      const r = pick.next();
      if (r < 0.15) items.push('*');
      else if (r < 0.55) {
        const column = chance(0.9) ? one(columns) : one(badColumns);
        const alias = chance(0.2) ? `${one(['a', 'x_1', '"q"', ''])}:` : '';
        const cast = chance(0.15) ? `::${one(casts)}` : '';
        if (chance(0.08)) items.push(`${alias}count()`);
        else items.push(`${alias}${column}${one(jsonPaths)}${cast}${one(aggregates)}`);
      } else if (depth < 6) {
        const hint = chance(0.3) ? `!${one(['inner', 'left', 'bogus', 'store_id', 'daily_inputs_store_id_fkey', 'id', 'inner!left'])}` : '';
        const spread = chance(0.15) ? '...' : '';
        items.push(`${spread || !chance(0.2) ? '' : 'e:'}${spread}${one(relations)}${hint}(${select(depth + 1)})`);
      }
    }
    let text = items.join(chance(0.1) ? ' , ' : ',');
    if (chance(0.05)) text = text.slice(0, int(0, text.length));
    if (chance(0.03)) text += one(['(', ')', ',', '!!', '::', '"']);
    return text;
  }

  function filter(): string {
    const op = one(operators);
    if (op === 'in') return `in.(${Array.from({ length: int(0, 6) }, () => one(values).slice(0, 40)).join(',')}${chance(0.1) ? '' : ')'}`;
    return `${chance(0.15) ? 'not.' : ''}${op}.${one(values)}`;
  }

  function logic(depth: number, width: number): string {
    const parts = Array.from({ length: width }, () =>
      depth < 12 && chance(0.25) ? `${chance(0.2) ? 'not.' : ''}${one(['and', 'or'])}(${logic(depth + 1, int(1, 4))})` : `${one(columns)}.${filter()}`,
    );
    return parts.join(',');
  }

  function readPath(): string {
    const table = chance(0.93) ? one(tables) : one(badTables);
    const params: string[] = [];
    if (chance(0.7)) params.push(`select=${q(select(0))}`);
    for (let i = int(0, 3); i > 0; i -= 1) params.push(`${q(chance(0.9) ? one(columns) + one(jsonPaths) : one(badColumns))}=${q(filter())}`);
    if (chance(0.3)) {
      const huge = chance(0.15);
      params.push(`${one(['or', 'and', 'not.or', 'not.and'])}=${q(`(${logic(0, huge ? int(60, 160) : int(1, 5))}${chance(0.05) ? '' : ')'}`)}`);
    }
    if (chance(0.2)) {
      const term = () => `${chance(0.15) ? `${one(relations)}(${one(columns)})` : `${one(columns)}${one(jsonPaths)}`}${one(['', '.asc', '.desc', '.nullsfirst', '.desc.nullslast', '.sideways'])}`;
      params.push(`order=${q(Array.from({ length: int(1, 3) }, term).join(','))}`);
    }
    if (chance(0.2)) params.push(`limit=${q(one(['1', '0', '10', '-1', 'ten', '1e3', '9999999999', '1000000']))}`);
    if (chance(0.1)) params.push(`offset=${q(one(['0', '5', '-3', 'x', '999999999']))}`);
    if (chance(0.1)) params.push(`${one(relations)}.${one(['limit', 'order', 'offset', 'value', 'or', 'select'])}=${q(one(['1', 'id.desc', 'eq.1', '(id.eq.1)', 'x']))}`);
    if (chance(0.02)) params.push(...Array.from({ length: 230 }, (_, i) => `p${i}=eq.${i}`));
    return `/rest/v1/${table}${params.length ? `?${params.join('&')}` : ''}`;
  }

  const auth = () => one([
    `Bearer ${tokens.manager}`, `Bearer ${tokens.manager}`, `Bearer ${tokens.anon}`, 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz',
    `Bearer ${tokens.forged}`, `Bearer ${tokens.expired}`, `Bearer ${tokens.algNone}`, `Bearer ${tokens.postgresRole}`,
    `Bearer ${tokens.garbage}`, `Bearer ${'x'.repeat(6000)}`, `Bearer ${tokens.manager}, Bearer ${tokens.forged}`, 'Bearer é.é.é',
  ]);

  function headers(): Record<string, string> {
    const h: Record<string, string> = { apikey: chance(0.9) ? tokens.anon : one([tokens.garbage, `${tokens.anon}, ${tokens.forged}`, '']) };
    const authorization = auth();
    if (authorization.trim()) h.Authorization = authorization;
    if (chance(0.15)) {
      h.Prefer = one([
        'return=representation', 'count=exact', 'count=planned,return=minimal', 'handling=strict, bogus', 'tx=rollback', 'resolution=bogus',
        'x'.repeat(2000), 'return=representation,count=exact,missing=default', 'count=estimated', 'handling=strict, max-affected=0',
        'max-affected=-1', 'max-affected=99999999999999999999', 'tx=rollback, return=representation, handling=strict', 'tx=commit',
        'handling=strict, timezone=Mars/Base', 'return=headers-only', 'params=single-object',
      ]);
    }
    if (chance(0.1)) h.Range = one(['0-', '5-2', '-1', 'a-b', '99999999999-', '0-9', 'items=0-9', '0-0']);
    if (chance(0.08)) h['Accept-Profile'] = one(['auth', 'pg_catalog', 'private', 'public', '', "x'--", 'rest_local']);
    if (chance(0.05)) h['Content-Profile'] = one(['auth', 'public', 'extensions', '"public"']);
    if (chance(0.12)) {
      h.Accept = one([
        'application/vnd.pgrst.object+json', 'text/csv', 'application/vnd.pgrst.plan+text', '*/*', 'x',
        'application/vnd.pgrst.plan+json; for="text/csv"; options=analyze|verbose|buffers|wal|settings',
        'application/vnd.pgrst.plan; for="x/y"', 'application/vnd.pgrst.array+json;nulls=stripped', 'application/geo+json',
        'text/csv, application/json;q=0.5', 'application/json;q=0', 'application/vnd.pgrst.object+json;nulls=stripped',
      ]);
    }
    if (chance(0.05)) h['X-Supabase-Api-Version'] = one(['2024-01-01', 'bogus', '']);
    return h;
  }

  function write(): HttpCase {
    const h = headers();
    const table = chance(0.9) ? one(tables) : one(badTables);
    const r = pick.next();
    if (r < 0.2) {
      // A valid row in a broken envelope: refused for the envelope, never stored.
      const envelope = one(['text', 'form', 'gzip', 'deflate', 'utf8']);
      if (envelope === 'text') return { method: 'POST', path: '/rest/v1/monthly_targets', headers: { ...h, 'Content-Type': one(['text/plain', 'multipart/form-data', 'application/xml', 'application/json-patch+json']) }, body: validRow };
      if (envelope === 'form') return { method: 'POST', path: '/rest/v1/monthly_targets', headers: { ...h, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'store_id=1&year=2033' };
      if (envelope === 'utf8') return { method: 'POST', path: '/rest/v1/monthly_targets', headers: { ...h, 'Content-Type': 'application/json' }, body: Buffer.concat([Buffer.from(validRow.slice(0, -1)), Buffer.from(',"note":"'), one(invalidUtf8), Buffer.from('"}')]) };
      return { method: 'POST', path: '/rest/v1/monthly_targets', headers: { ...h, 'Content-Type': 'application/json', 'Content-Encoding': envelope === 'gzip' ? one(['gzip', 'GZIP', 'br']) : 'deflate' }, body: chance(0.5) ? gzipSync(validRow) : validRow };
    }
    if (r < 0.55) return { method: 'POST', path: `/rest/v1/${table}${chance(0.2) ? `?on_conflict=${q(one(badColumns))}` : ''}`, headers: { ...h, 'Content-Type': 'application/json' }, body: chance(0.85) ? one(badBodies) : one(invalidUtf8) };
    if (r < 0.75) return { method: 'PATCH', path: `/rest/v1/${table}?id=eq.${q(one(values.filter((v) => !v.startsWith('1111'))))}`, headers: { ...h, 'Content-Type': 'application/json' }, body: one(['[]', '{"value": {"a": 1}}', '{"store_id": "x"}', '{"nope": 1}', ...badBodies]) };
    if (r < 0.9) {
      // Limited deletes (with or without the order they need) on filters that match nothing.
      const limited = chance(0.2) ? `&limit=${one(['1', '0', 'x'])}${chance(0.5) ? `&order=${one(columns)}` : ''}` : '';
      return { method: 'DELETE', path: `/rest/v1/${table}?id=${q(`${one(['eq', 'gt', 'lt', 'neq', 'in'])}.${one(values.filter((v) => !v.startsWith('1111')))}`)}${limited}`, headers: h };
    }
    return { method: one(['PUT', 'PATCH']), path: `/rest/v1/${table}`, headers: { ...h, 'Content-Type': 'application/json' }, body: chance(0.5) ? '{}' : 'x' };
  }

  function rpc(): HttpCase {
    const h = { ...headers(), 'Content-Type': 'application/json' };
    const tooMany = JSON.stringify({ p_table: 'monthly_targets', p_rows: Array.from({ length: 401 }, (_, i) => ({ store_id: '11111111-1111-4111-8111-111111111111', year: 2000 + Math.floor(i / 12), month: (i % 12) + 1, metric_key: 'cpElr', target_value: 1 })) });
    const bodies: Array<[string, string]> = [
      ['pull_changes', '{"p_table": "pg_authid"}'], ['pull_changes', '{"p_table": "daily_inputs", "p_limit": -5}'],
      ['pull_changes', '{"p_table": "daily_inputs", "p_limit": 1001}'], ['pull_changes', '{"p_table": "daily_inputs", "p_cursor": "junk"}'],
      ['pull_changes', '{"p_table": "daily_inputs", "p_cursor": {"since": "x"}}'], ['pull_changes', '{"bogus": 1}'], ['pull_changes', '[]'], ['pull_changes', '{'],
      ['pull_changes_many', '{"p_requests": [{"table": "pg_authid"}]}'], ['pull_changes_many', '{"p_requests": "stores"}'],
      ['pull_changes_many', '{"p_requests": [{"table": "stores"}], "p_limit": 5001}'], ['pull_changes_many', '{"p_requests": [{"table": "stores", "min_year": "x"}]}'],
      ['pull_changes_many', `{"p_requests": ${JSON.stringify(Array.from({ length: 51 }, () => ({ table: 'stores' })))}}`],
      ['pull_row_counts', '{"p_tables": ["pg_authid"]}'], ['pull_row_counts', '{"p_tables": "stores"}'], ['pull_row_counts', '{"p_tables": [1, 2]}'],
      ['push_changes', tooMany], ['push_changes', '{"p_table": "stores", "p_rows": {"a": 1}}'],
      ['push_changes', '{"p_table": "monthly_targets", "p_rows": [{"store_id": "22222222-2222-4222-8222-222222222222", "year": 2033, "month": 1, "metric_key": "cpElr", "target_value": 1}]}'],
      ['push_changes', '{"p_table": "monthly_targets", "p_rows": [{"store_id": "11111111-1111-4111-8111-111111111111", "year": 2033, "month": 1, "metric_key": "cpElr", "nope": 1}]}'],
      ['push_changes', '{"p_table": "monthly_targets", "p_rows": [[1]]}'], ['push_changes', '{"p_table": "nope", "p_rows": []}'],
      ['get_user_store_id', '{"x": 1}'], ['nope', '{}'], ['pg_sleep', '{"seconds": 5}'], ['set_config', '{}'], ['%ZZ', '{}'], ['a/b', '{}'],
    ];
    const [fn, body] = one(bodies);
    if (chance(0.2)) return { method: 'GET', path: `/rest/v1/rpc/${fn}?${q(one(['p_table', 'x', 'p_limit']))}=${q(one(values))}`, headers: headers() };
    if (chance(0.1)) {
      // An RPC read like a table's: select, filters, order and limit on its result.
      const read = [`select=${q(select(0))}`, `${q(one(columns))}=${q(filter())}`, `order=${q(one(columns))}`, `limit=${one(['1', '-1', 'x'])}`];
      return { method: one(['GET', 'POST']), path: `/rest/v1/rpc/${fn}?${read.filter(() => chance(0.6)).join('&')}`, headers: h, body };
    }
    return { method: 'POST', path: `/rest/v1/rpc/${fn}`, headers: h, body };
  }

  function authCase(): HttpCase {
    const h: Record<string, string> = { apikey: tokens.anon, 'Content-Type': 'application/json' };
    if (chance(0.3)) h['X-Supabase-Api-Version'] = '2024-01-01';
    const r = pick.next();
    if (r < 0.3) {
      const grant = one(['password', 'refresh_token', 'bogus', '', 'pkce', 'id_token']);
      const body = one([
        '{', '[]', '"x"', '{"email": 5}', '{"email": "nobody@example.com", "password": "wrong-password"}', '{"refresh_token": "nope"}',
        '{"refresh_token": 5}', `{"email": "${'a'.repeat(5000)}@example.com", "password": "x"}`, '{"email": "\\u0000@example.com", "password": "x"}',
      ]);
      return { method: 'POST', path: `/auth/v1/token?grant_type=${q(grant)}`, headers: h, body };
    }
    const badCaller = one([tokens.forged, tokens.expired, tokens.algNone, tokens.garbage, tokens.anon, 'x']);
    if (r < 0.45) return { method: one(['GET', 'PUT', 'DELETE']), path: '/auth/v1/user', headers: { ...h, Authorization: `Bearer ${badCaller}` }, body: '{"password": "new-password-1"}' };
    if (r < 0.55) return { method: 'PUT', path: '/auth/v1/user', headers: { ...h, Authorization: `Bearer ${tokens.manager}` }, body: one(['{', '[]', '{"password": 5}', '{"password": "x"}', '{"password": ""}']) };
    if (r < 0.65) return { method: 'POST', path: `/auth/v1/logout?scope=${q(one(['global', 'local', 'others', 'bogus']))}`, headers: { ...h, Authorization: `Bearer ${badCaller}` } };
    if (r < 0.75) return { method: one(['GET', 'POST', 'PUT', 'DELETE']), path: `/auth/v1/admin/users${one(['', '/', '/not-a-uuid', '/%ZZ', '/aaaaaaaa-0000-4000-8000-000000000002'])}`, headers: { ...h, Authorization: `Bearer ${one([tokens.manager, badCaller])}` }, body: '{"email": "x@example.com", "password": "password-123"}' };
    if (r < 0.8) return { method: 'POST', path: one(['/auth/v1/signup', '/auth/v1/recover', '/auth/v1/otp', '/auth/v1/verify']), headers: h, body: one(badBodies.slice(0, 10)) };
    if (r < 0.85) {
      // E-mail links: tokens that match nobody, junk types and redirects, and admin calls by callers who are no admin.
      const verify = new URLSearchParams({ token: one(['', 'x', 'a'.repeat(56), '%00']), type: one(['signup', 'recovery', 'email_change', 'bogus', '']), redirect_to: one(['', 'javascript:alert(1)', '//evil.example', 'http://localhost:4173/reset', 'x'.repeat(3000)]) });
      if (chance(0.4)) return { method: 'GET', path: `/auth/v1/verify?${verify.toString()}`, headers: h };
      if (chance(0.4)) {
        return { method: 'POST', path: '/auth/v1/verify', headers: h, body: one(['{"type": "recovery", "token_hash": "nope"}', '{"type": "email", "email": "manager@example.com", "token": "000000"}', '{"type": "invite", "token": "1", "token_hash": "2"}', '{"type": 5}']) };
      }
      return { method: 'POST', path: one(['/auth/v1/admin/generate_link', '/auth/v1/invite']), headers: { ...h, Authorization: `Bearer ${one([tokens.manager, badCaller])}` }, body: one(['{"type": "signup", "email": "x@example.com", "password": "password-123"}', '{"email": "y@example.com"}', '{']) };
    }
    return { method: one(['GET', 'POST', 'DELETE', 'OPTIONS', 'HEAD']), path: one(['/auth/v1', '/auth/v1/', '/auth/v1/%ZZ', '/auth/v1/settings', '/auth/v1/health', '/auth/v1/.well-known/jwks.json', '/auth/v1/../rest/v1/stores']), headers: h };
  }

  function functionCase(): HttpCase {
    const h = { apikey: tokens.anon, Authorization: one([`Bearer ${tokens.manager}`, `Bearer ${tokens.forged}`, 'Bearer', `Bearer ${tokens.anon}`]), 'Content-Type': 'application/json' };
    return {
      method: one(['POST', 'GET', 'PUT', 'DELETE', 'OPTIONS']),
      path: `/functions/v1/${one(['admin-api', 'admin-api/', 'nope', '..', '%2e%2e', '_shared', 'admin-api/x', '%ZZ', ''])}`,
      headers: h,
      body: one(['{"action": "listUsers"}', '{"action": "deleteUser", "payload": {"id": "aaaaaaaa-0000-4000-8000-000000000002"}}', '{', '[]', '{"action": "createUser", "payload": {"email": 5}}']),
    };
  }

  function odd(): HttpCase {
    return {
      method: one(['GET', 'POST', 'HEAD', 'OPTIONS', 'DELETE']),
      path: one(['/', '/rest', '/rest/v1', '/rest/v1/', '/rest/v1/rpc/', '/rest/v1/a/b/c', '/realtime/v1/websocket', '/realtime/v1', '/health', '/%ZZ', '//rest/v1/stores', '/rest/v1/stores#frag', '/rest//v1/stores']),
      headers: headers(),
    };
  }

  const shapes: Array<[number, () => HttpCase]> = [
    [0.5, () => ({ method: chance(0.9) ? 'GET' : 'HEAD', path: readPath(), headers: headers() })],
    [0.2, write],
    [0.1, rpc],
    [0.1, authCase],
    [0.04, functionCase],
    [0.06, odd],
  ];
  const generated = Array.from({ length: count }, () => {
    let r = pick.next();
    for (const [weight, make] of shapes) {
      if (r < weight) return make();
      r -= weight;
    }
    return odd();
  });
  // Guessed one-time codes and requests built to stall, after the stream above, which stays as it was.
  return [...generated, ...codeGuessCases(tokens, Math.ceil(count / 25)), ...stallCases(tokens)];
}
