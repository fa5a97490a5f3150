/**
 * Requests built to hold the database, for the hostile-request suite: regular expressions
 * with back-references, lookarounds and huge repetitions, and long LIKE and full-text
 * patterns, on every path a filter takes (top level, negated, `or=`, embedded, quantified,
 * RPC), embeds amplified through the count shorthand, computed relationships and views
 * (hostile/objects.sql), explained with analyze, malformed forms of these, and figures
 * moved to another id or day in place. Each must be refused or bounded (the pattern
 * guard, the planned-cost limit, the row budgets, immutable identity) and change nothing. A
 * fixed list, after the generated stream, so that stream stays as it was.
 */
import type { HttpCase } from './http-cases.ts';
import type { Tokens } from './tokens.ts';

const backReferences = `^${'(.*)'.repeat(12)}${Array.from({ length: 9 }, (_, n) => `\\${n + 1}`).join('')}e$`;
const patterns = [
  backReferences,
  '^(?=(a+)+b)',
  '(?!x)(?<=y).*',
  '(.*){255}z',
  '((a{1,100}){1,100}){1,100}',
  `${'%_'.repeat(300)}x`,
  'a'.repeat(5000),
];

export function stallCases(tokens: Tokens): HttpCase[] {
  const h = { apikey: tokens.anon, Authorization: `Bearer ${tokens.manager}` };
  const q = encodeURIComponent;
  const reads = patterns.flatMap((pattern) => [
    `/rest/v1/stores?select=id&name=match.${q(pattern)}`,
    `/rest/v1/stores?select=id&name=not.imatch.${q(pattern)}`,
    `/rest/v1/daily_inputs?select=id&or=(row_identifier.match.${q(pattern)},metric_type.eq.hours)`,
    `/rest/v1/stores?select=id,daily_inputs(id)&daily_inputs.row_identifier=imatch.${q(pattern)}`,
    `/rest/v1/daily_inputs?select=id&row_identifier=match(any).${q(`{${JSON.stringify(pattern)},CP}`)}`,
    `/rest/v1/daily_inputs?select=id&row_identifier=like.${q(pattern)}`,
    `/rest/v1/daily_inputs?select=id&row_identifier=fts.${q(pattern)}`,
    `/rest/v1/rpc/get_user_store_id?select=*&get_user_store_id=match.${q(pattern)}`,
  ]);
  const amplified = [
    `/rest/v1/daily_inputs?select=id,stores(daily_inputs(id))&stores.daily_inputs.value=eq.-1`,
    `/rest/v1/daily_inputs?select=id,stores(daily_inputs(id,stores(daily_inputs(id))))`,
    // The same through the count shorthand, a computed relationship and a view (objects.sql).
    `/rest/v1/daily_inputs?select=id,stores(daily_inputs(count))&stores.daily_inputs.value=eq.-1`,
    `/rest/v1/daily_inputs?select=id,stores(store_figures(id))&stores.store_figures.value=eq.-1`,
    `/rest/v1/daily_inputs?select=id,stores(store_figures!inner(count))`,
    `/rest/v1/figures_view?select=id,stores(figures_view(id,stores(figures_view(id))))`,
    `/rest/v1/daily_inputs?select=id,figure_label,stores(store_figures(figure_label))&figure_label=like.${q('*a*')}&order=figure_label`,
  ];
  // Malformed forms of the same: PostgreSQL's and PostgREST's 4xx, never a 5xx.
  const malformed = [
    '/rest/v1/stores?select=id,daily_inputs(id,count)',
    '/rest/v1/stores?select=id&count=gt.0',
    '/rest/v1/stores?select=count->a,daily_inputs(sum),daily_inputs(json_agg)',
    '/rest/v1/stores?select=daily_inputs(id),daily_inputs(id)',
    '/rest/v1/stores?select=daily_inputs(stores(daily_inputs(stores(nope(id)))))',
    '/rest/v1/stores?select=store_figures(nope),figure_label',
    '/rest/v1/daily_inputs?select=figure_label.sum(),store_figures(id)',
    '/rest/v1/figures_view?select=stores!nope(id)',
    '/rest/v1/rpc/store_figures?select=id',
    `/rest/v1/rpc/get_user_store_id?${q('')}=1`,
  ];
  // explain() of the amplified reads: with analyze they run, so the same limits apply.
  const explained = amplified.map((path): HttpCase => ({
    method: 'GET',
    path,
    headers: { ...h, Accept: 'application/vnd.pgrst.plan+json; for="application/json"; options=analyze|verbose|buffers' },
  }));
  const other = [
    { method: 'GET', path: '/rest/v1/stores?select=id', headers: { ...h, Accept: 'application/geo+json' } },
    { method: 'GET', path: '/rest/v1/rpc/get_user_store_id', headers: { ...h, Prefer: 'count=planned' } },
    { method: 'POST', path: '/rest/v1/rpc/is_user_admin', headers: { ...h, 'Content-Type': 'application/json', Prefer: 'count=exact' }, body: '[{"":1},{"x":2}]' },
    { method: 'POST', path: '/rest/v1/rpc/push_changes', headers: { ...h, 'Content-Type': 'application/json', Prefer: 'params=single-object' }, body: '{"p_table":"stores","p_rows":[]}' },
    { method: 'POST', path: '/rest/v1/rpc/push_changes', headers: { ...h, 'Content-Type': 'application/json', Accept: 'application/vnd.pgrst.plan+text; options=analyze' }, body: '{"p_table":"nope","p_rows":[]}' },
  ];
  const moved = [
    { id: '00000000-0000-4000-8000-000000000001' },
    { entry_date: '2031-03-11' },
    { row_identifier: 'W', metric_type: 'sales' },
    { store_id: '22222222-2222-4222-8222-222222222222' },
  ].map((body): HttpCase => ({
    method: 'PATCH',
    path: '/rest/v1/daily_inputs?entry_date=gte.2000-01-01',
    headers: { ...h, 'Content-Type': 'application/json', Prefer: 'return=minimal' },
    body: JSON.stringify(body),
  }));
  return [...[...reads, ...amplified, ...malformed].map((path): HttpCase => ({ method: 'GET', path, headers: h })), ...explained, ...other, ...moved];
}
