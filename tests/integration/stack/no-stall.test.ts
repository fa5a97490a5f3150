import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../supabase/local/db/open.ts';
import { backendLimits } from '../../../supabase/local/service-limits.ts';
import type { BackendProcess } from '../../support/backend-process.ts';
import { startBackendProcess } from '../../support/backend-process.ts';
import { demo } from '../../support/demo.ts';
import type { EngineName } from '../../support/test-databases.ts';
import { engines } from '../../support/test-databases.ts';

// One member's request must not stall the backend for everybody else, on PGlite (which
// runs one statement at a time and cannot interrupt it) as on PostgreSQL. The backend runs
// as `npm start` runs it: a process of its own on a data folder.

const processTestTimeoutMs = 180_000;
/** How long health and another member's one-row read may take while the heavy request runs. */
const answerWithinMs = 1_000;

/** `^(.*)...(.*)\1...\Ne$`: back-references make the match exponential in the number of groups. */
const backReferences = (groups: number) =>
  `^${'(.*)'.repeat(groups)}${Array.from({ length: groups }, (_, i) => `\\${i + 1}`).join('')}e$`;
/** The costliest regular expression within the pattern budget: a chain of `(.*)` groups, nothing matching. */
const widestAllowed = `${'(.*)'.repeat(Math.floor((backendLimits.maxPatternLength - 1) / 4))}~`;
/** The costliest LIKE within the budget: O(text x pattern) on text of one repeated letter. */
const longestLike = `%${'a'.repeat(backendLimits.maxPatternLength - 3)}~%`;
/** A full-text query as long as the budget allows: every row's note becomes a tsvector first. */
const longestPhrase = Array.from({ length: 16 }, () => 'alpha').join(' ');

const q = encodeURIComponent;

/** A fresh database on the PostgreSQL server of TEST_DATABASE_URL, dropped afterwards. */
async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL as string;
  const name = `nostall_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

async function tokenOf(backend: BackendProcess, email: string): Promise<string> {
  const client = backend.client();
  const { data, error } = await client.auth.signInWithPassword({ email, password: demo.password });
  if (error || !data.session) throw new Error(`sign-in as ${email} failed: ${error?.message}`);
  return data.session.access_token;
}

type Probe = { what: string; status: number; ms: number };

for (const engine of engines as EngineName[]) {
  describe(`no request stalls the others on ${engine}`, () => {
    let backend: BackendProcess;
    let dataDir = '';
    let env: Record<string, string> = {};
    let dropDatabase: (() => Promise<void>) | undefined;
    let manager = '';
    let other = '';

    const rest = (token: string, path: string, init: RequestInit = {}) =>
      fetch(`${backend.url}/rest/v1/${path}`, {
        ...init,
        headers: { apikey: backend.anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...init.headers },
      });

    beforeAll(async () => {
      if (engine === 'postgres') {
        const database = await freshPostgres();
        dropDatabase = database.drop;
        env = { DATABASE_URL: database.url };
      }
      dataDir = await mkdtemp(path.join(tmpdir(), 'no-stall-'));
      backend = await startBackendProcess({ env, dataDir });
      manager = await tokenOf(backend, 'manager@example.com');
      other = await tokenOf(backend, 'other@example.com');
      // Five years of calendar days whose notes are as long as a note may be: the most text a
      // pattern of store A's member can be made to scan. One letter throughout is the worst
      // case of LIKE, many words that of a full-text query.
      const days = Array.from({ length: 5 * 365 }, (_, i) => {
        const date = new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
        const note = i % 2 === 0 ? 'a'.repeat(200) : 'alpha beta gamma delta '.repeat(9).slice(0, 200);
        return { store_id: demo.storeA, calendar_date: date, year: Number(date.slice(0, 4)), is_work_day: true, note };
      });
      for (let i = 0; i < days.length; i += 500) {
        const response = await rest(backend.serviceRoleKey, 'store_calendar_days', { method: 'POST', body: JSON.stringify(days.slice(i, i + 500)) });
        expect(response.status, await response.text()).toBe(201);
      }
      // And five years of the store's daily figures, six a day, years before the demo's.
      const figures = days.flatMap(({ calendar_date: date }) => {
        const entry_date = `${Number(date.slice(0, 4)) - 10}${date.slice(4)}`;
        if (entry_date.endsWith('02-29')) return [];
        const shifted = new Date(`${entry_date}T00:00:00Z`);
        return ['CP', 'W', 'I'].flatMap((row_identifier) => ['hours', 'sales'].map((metric_type) => ({
          store_id: demo.storeA, entry_date, year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1,
          day_of_week_iso: ((shifted.getUTCDay() + 6) % 7) + 1, row_identifier, metric_type, value: 7,
        })));
      });
      for (let i = 0; i < figures.length; i += 1000) {
        const response = await rest(backend.serviceRoleKey, 'daily_inputs', { method: 'POST', body: JSON.stringify(figures.slice(i, i + 1000)) });
        expect(response.status, await response.text()).toBe(201);
      }
      // A start takes the planner's statistics of what is there (PostgreSQL's autovacuum
      // would in its time), so every estimate below knows of the five years. Meanwhile the
      // test-only computed relationship, computed field and view of the hostile suite are
      // added, and plans turned on, so that those forms face the heavy requests too.
      await backend.stop();
      const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir });
      await db.exec(await readFile(new URL('./hostile/objects.sql', import.meta.url), 'utf8'));
      await db.close();
      env = { ...env, LOCAL_SUPABASE_DB_PLAN_ENABLED: 'true' };
      backend = await startBackendProcess({ env, dataDir });
    }, processTestTimeoutMs);

    afterAll(async () => {
      await backend?.stop();
      await dropDatabase?.();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    }, processTestTimeoutMs);

    /** Health and another member's one-row read, timed; run until `heavy` has settled, at least once. */
    async function probeWhile(heavy: Promise<unknown>): Promise<Probe[]> {
      let settled = false;
      void heavy.finally(() => (settled = true));
      const probes: Probe[] = [];
      const timed = async (what: string, run: () => Promise<Response>) => {
        const started = performance.now();
        const response = await run();
        await response.arrayBuffer();
        probes.push({ what, status: response.status, ms: Math.round(performance.now() - started) });
      };
      do {
        await Promise.all([
          timed('/auth/v1/health', () => fetch(`${backend.url}/auth/v1/health`, { headers: { apikey: backend.anonKey } })),
          timed('/health', () => fetch(`${backend.url}/health`)),
          timed('one-row read', () => rest(other, 'stores?select=name&limit=1')),
        ]);
      } while (!settled);
      await heavy;
      return probes;
    }

    const refused: Array<[string, string]> = [
      ['match with back-references', `stores?select=id&name=match.${q(backReferences(9))}`],
      ['imatch with a back-reference', `stores?select=id&name=imatch.${q('(a)\\1')}`],
      ['not.match with a back-reference', `stores?select=id&name=not.match.${q('(a)\\1')}`],
      ['a back-reference inside or=()', `stores?select=id&or=${q('(id.is.null,name.match."(a)\\\\1")')}`],
      ['a back-reference in an embedded filter', `stores?select=id,store_calendar_days(id)&store_calendar_days.note=match.${q('(a)\\1')}`],
      ['a back-reference in an embedded or=()', `stores?select=id,store_calendar_days(id)&store_calendar_days.or=${q('(note.imatch."(a)\\\\1")')}`],
      ['a back-reference in match(any)', `stores?select=id&name=match(any).${q('{North,"(a)\\\\1"}')}`],
      ['a back-reference in imatch(all)', `stores?select=id&name=imatch(all).${q('{(a)\\\\1}')}`],
      ['a back-reference in a PATCH filter', `stores?name=match.${q('(a)\\1')}`],
      ['a lookahead constraint', `store_calendar_days?select=id&note=match.${q('(?=a*(?=a*(?=a*~)))')}`],
      ['a lookbehind constraint', `store_calendar_days?select=id&note=match.${q('(?<!b)a')}`],
      ['nested bounded repetition', `store_calendar_days?select=id&note=match.${q('(a{1,255}){1,255}~')}`],
      ['a regular expression longer than the budget', `stores?select=id&name=match.${q('a'.repeat(backendLimits.maxPatternLength + 1))}`],
      ['a LIKE longer than the budget', `stores?select=id&name=like.${q('a'.repeat(backendLimits.maxPatternLength + 1))}`],
      ['patterns of one request together over the budget', `stores?select=id&name=match.${q(widestAllowed)}&or=${q(`(name.ilike.${'b'.repeat(20)})`)}`],
      ['basic regular expression syntax', `stores?select=id&name=match.${q('(?b)\\(a\\)\\1')}`],
      ['a full-text query longer than the budget', `store_calendar_days?select=id&note=fts.${q(Array(40).fill('alpha').join('|'))}`],
      ['two full-text filters in one request', `store_calendar_days?select=id&note=fts.alpha&or=${q('(note.wfts.beta)')}`],
      ['eleven short patterns in one request', `stores?select=id&or=${q(`(${Array.from({ length: 11 }, (_, i) => `name.like.${i}`).join(',')})`)}`],
    ];

    it.each(refused)('refuses %s with a 400 before running it', async (_what, path) => {
      const started = performance.now();
      const response = await rest(manager, path, path.startsWith('stores?name=') ? { method: 'PATCH', body: '{"name":"x"}' } : {});
      const body = (await response.json()) as { code: string; message: string; details: unknown; hint: unknown };
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(body.code).toBe('PGRST100');
      expect(body.message).toMatch(/^The pattern /);
      expect(typeof body.hint).toBe('string');
      expect(performance.now() - started).toBeLessThan(answerWithinMs);
    });

    it('still serves ordinary patterns of every kind', async () => {
      const name = [{ name: 'Northside Auto Service' }];
      for (const filter of ['name=match.^North', 'name=imatch.^north', 'name=like.North*', 'name=ilike.*AUTO*', `name=match(any).${q('{^x,^N}')}`]) {
        const response = await rest(other, `stores?select=name&${filter}`);
        expect({ filter, status: response.status, body: await response.json() }).toEqual({ filter, status: 200, body: name });
      }
      const widest = await rest(manager, `store_calendar_days?select=id&note=match.${q(widestAllowed)}`);
      expect(widest.status).toBe(200);
      expect(await widest.json()).toEqual([]);
    });

    // Each figure looks up its store's figures again: 11,000 lookups of 11,000 rows each,
    // and nothing matches, so the embedded-row budget (rows brought) is barely spent.
    const embedAmplification = 'daily_inputs?select=id,stores(daily_inputs(id))&stores.daily_inputs.value=eq.-1';
    const likeAmplification = `store_calendar_days?select=id,stores(id,store_calendar_days(id))&stores.store_calendar_days.note=like.${q(longestLike)}`;
    // The same amplification through the count shorthand, a computed relationship and a view (hostile/objects.sql).
    const countAmplification = 'daily_inputs?select=id,stores(daily_inputs(count))&stores.daily_inputs.value=eq.-1';
    const functionAmplification = 'daily_inputs?select=id,stores(store_figures(id))&stores.store_figures.value=eq.-1';
    const viewAmplification = 'figures_view?select=id,stores(figures_view(id))&stores.figures_view.value=eq.-1';
    /** explain() with analyze runs the statement it explains. */
    const analyzed = { Accept: 'application/vnd.pgrst.plan+json; for="application/json"; options=analyze' };

    if (engine === 'pglite') {
      it.each<[string, string, Record<string, string>?]>([
        ['a figure embedding all of its store\'s figures', embedAmplification],
        ['a calendar day embedding all of its store\'s days through a long LIKE', likeAmplification],
        ['the same, with as few root rows as still read too much', `${likeAmplification}&limit=20`],
        ['a figure counting all of its store\'s figures with the count shorthand', countAmplification],
        ['a figure embedding all of its store\'s figures through a computed relationship', functionAmplification],
        ['a view\'s row embedding all of its store\'s rows of the view', viewAmplification],
        ['the first of these explained with analyze', embedAmplification, analyzed],
      ])('refuses %s before running it, by its planned cost (413 54000)', async (_what, path, headers = {}) => {
        const started = performance.now();
        const response = await rest(manager, path, { headers });
        const body = (await response.json()) as { code: string; message: string; details: string; hint: string };
        expect(response.status, JSON.stringify(body)).toBe(413);
        expect(body).toMatchObject({ code: '54000', message: 'The request would read too many rows to answer in time' });
        expect(body.details).toMatch(new RegExp(`; at most ${backendLimits.maxPlanCost} is allowed\\.$`));
        expect(body.hint).toMatch(/Narrow the filters or the embedded resources/);
        expect(performance.now() - started).toBeLessThan(answerWithinMs);
      });
    }

    it('serves the app\'s own reads and calls over five years of figures', async () => {
      const year = new Date().getUTCFullYear();
      const calls: Array<[string, unknown]> = [
        ['pull_changes_many', { p_requests: ['stores', 'daily_inputs', 'store_calendar_days', 'monthly_targets'].map((table) => ({ table, cursor: null, min_year: 2000 })), p_limit: 5000 }],
        ['pull_row_counts', { p_tables: ['stores', 'daily_inputs', 'store_calendar_days'], p_min_year: 2000 }],
        ['pull_changes', { p_table: 'daily_inputs', p_cursor: null, p_limit: 1000, p_min_year: 2000 }],
      ];
      for (const [fn, args] of calls) {
        const response = await rest(manager, `rpc/${fn}`, { method: 'POST', body: JSON.stringify(args) });
        expect({ fn, status: response.status, body: response.status === 200 ? '' : await response.text() }).toEqual({ fn, status: 200, body: '' });
      }
      const reads = [
        `daily_inputs?select=*&year=eq.${year - 12}&month=eq.3`,
        `change_history?select=field,old_value,new_value,changed_by_name,device_id,typed_at,arrived_at&table_name=eq.daily_inputs&row_key=cs.${q(JSON.stringify({ store_id: demo.storeA, entry_date: '2012-03-05' }))}&order=arrived_at.desc,id.desc&limit=50`,
        'stores?select=id,name,subdomain&order=name',
      ];
      for (const path of reads) expect({ path, status: (await rest(manager, path)).status }).toEqual({ path, status: 200 });
    }, processTestTimeoutMs);

    const heavy: Array<[string, string, Record<string, string>?]> = [
      ['a figure embedding all of its store\'s figures (refused on PGlite)', embedAmplification],
      ['the embed amplification over as many figures as the planned cost allows', `${embedAmplification}&limit=40`],
      ['the count shorthand amplification over as many figures as the planned cost allows', `${countAmplification}&limit=40`],
      ['the computed relationship amplification over as many figures as the planned cost allows', `${functionAmplification}&limit=40`],
      ['the embed amplification explained with analyze, over as many figures as the planned cost allows', `${embedAmplification}&limit=40`, analyzed],
      ['the LIKE amplification over as many days as the planned cost allows', `${likeAmplification}&limit=4`],
      ['a regular expression with back-references (refused)', `stores?select=id&name=match.${q(backReferences(11))}`],
      ['the widest regular expression allowed, over all of a store\'s notes', `store_calendar_days?select=id&note=match.${q(widestAllowed)}`],
      ['the longest LIKE allowed, over all of a store\'s notes', `store_calendar_days?select=id&note=like.${q(longestLike)}`],
      ['the longest full-text query allowed, over all of a store\'s notes', `store_calendar_days?select=id&note=phfts.${q(longestPhrase)}`],
    ];

    it.each(heavy)('answers health and another member\'s one-row read within a second while %s runs', async (_what, path, headers = {}) => {
      const heavyRequest = rest(manager, path, { headers }).then(async (response) => ({ status: response.status, body: await response.text() }));
      const probes = await probeWhile(heavyRequest);
      expect(probes.filter((p) => p.status !== 200)).toEqual([]);
      expect(probes.filter((p) => p.ms >= answerWithinMs)).toEqual([]);
      expect([200, 400, 413]).toContain((await heavyRequest).status);
    }, processTestTimeoutMs);

    // Last, as it restarts the backend with a short statement timeout.
    it('cuts a statement past the statement timeout with 503 57014, keeps answering meanwhile, and loses no committed write', async () => {
      const target = { store_id: demo.storeA, year: 2033, month: 3, metric_key: 'cpElr', target_value: 123.45 };
      const written = await rest(manager, 'monthly_targets', { method: 'POST', body: JSON.stringify(target) });
      expect(written.status).toBe(201);
      await backend.stop();
      // The planned-cost limit is lifted, or PGlite would refuse the statement before it ran.
      backend = await startBackendProcess({ env: { ...env, LOCAL_SUPABASE_STATEMENT_TIMEOUT_MS: '1000', LOCAL_SUPABASE_MAX_PLAN_COST: '999999999' }, dataDir });
      manager = await tokenOf(backend, 'manager@example.com');
      other = await tokenOf(backend, 'other@example.com');

      // The worst request found within every limit: each of a thousand calendar days looks up
      // all of its store's days again, through the longest LIKE allowed. Nothing matches, so
      // the embedded-row budget is barely spent, but the work is far past a second.
      const slow = likeAmplification;
      const heavyRequest = rest(manager, slow).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as { code?: string; message?: string },
      }));
      const probes = await probeWhile(heavyRequest);
      expect(await heavyRequest).toMatchObject({ status: 503, body: { code: '57014', message: 'canceling statement due to statement timeout' } });
      // PGlite ignores statement_timeout: there the backend ended the database's worker.
      if (engine === 'pglite') expect(backend.output()).toContain('ran past the statement timeout');
      const health = probes.filter((p) => p.what !== 'one-row read');
      expect(health.filter((p) => p.status !== 200 || p.ms >= answerWithinMs)).toEqual([]);
      // Afterwards the database answers again, with the write committed before the cut.
      const read = await rest(other, 'stores?select=name&limit=1');
      expect(read.status).toBe(200);
      const kept = await rest(manager, 'monthly_targets?select=target_value&year=eq.2033&month=eq.3&metric_key=eq.cpElr');
      expect(await kept.json()).toEqual([{ target_value: 123.45 }]);
    }, processTestTimeoutMs);
  });
}
