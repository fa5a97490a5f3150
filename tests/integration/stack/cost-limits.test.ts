import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceLimits } from '../../../src/domain/limits.ts';
import type { Database } from '../../../supabase/local/db/database.ts';
import { demo } from '../../support/demo.ts';
import type { ParallelAnswer, ParallelRequest } from '../../support/other-thread-fetch.ts';
import { fetchInParallelFromAnotherThread } from '../../support/other-thread-fetch.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { engines } from '../../support/test-databases.ts';
import { untilTrue } from '../../support/poll.ts';

// Each cost limit against the real stack, on every engine. Expected figures come from
// SQL on the server's own rows, never from the code under test.

/** Daily figures for store A on `days` consecutive days from 2020-01-01: six rows a day. */
async function fillDailyInputs(db: Database, days: number): Promise<number> {
  await db.query(
    `insert into daily_inputs (store_id, entry_date, year, month, day_of_week_iso, row_identifier, metric_type, value)
     select $1, d::date, extract(year from d)::int, extract(month from d)::int, extract(isodow from d)::int, r, m, 1
     from generate_series('2020-01-01'::date, '2020-01-01'::date + ($2::int - 1), '1 day') d,
          unnest(array['CP', 'W', 'I']) r, unnest(array['hours', 'sales']) m
     on conflict do nothing`,
    [demo.storeA, days],
  );
  const { rows } = await db.query<{ n: string }>('select count(*)::text as n from daily_inputs where store_id = $1', [demo.storeA]);
  return Number(rows[0]?.n);
}

async function tokenOf(stack: TestStack, email: string): Promise<string> {
  const client = await stack.signIn(email);
  return (await client.auth.getSession()).data.session?.access_token ?? '';
}

function rest(stack: TestStack, token: string) {
  return (path: string, init: RequestInit = {}) =>
    fetch(`${stack.url}/rest/v1/${path}`, {
      ...init,
      headers: { apikey: stack.keys.anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...init.headers },
    });
}

/** A read whose work grows with the square of store A's daily rows: every row embeds all of its store's rows. */
const squareRead = (limit?: number) =>
  `daily_inputs?select=${encodeURIComponent('*,stores(*,daily_inputs(id))')}${limit ? `&limit=${limit}` : ''}`;

for (const engine of engines) {
  describe(`cost limits on ${engine}`, () => {
    let stack: TestStack;
    let manager: ReturnType<typeof rest>;
    let dailyRows = 0;

    beforeAll(async () => {
      // The planned-cost limit (PGlite) is lifted so that the row budgets are what these reads meet.
      stack = await startTestStack({ engine, limits: { maxRowsPerWrite: 5, maxPlanCost: 1_000_000_000 } });
      dailyRows = await fillDailyInputs(stack.database, 300);
      manager = rest(stack, await tokenOf(stack, 'manager@example.com'));
    });
    afterAll(() => stack?.stop());

    it('refuses a select embedded deeper than maxEmbedDepth, and serves one at the limit', async () => {
      const atLimit = await manager(`daily_inputs?select=${encodeURIComponent('id,stores(id,daily_inputs(id,stores(name)))')}&limit=1`);
      expect(atLimit.status).toBe(200);
      const tooDeep = await manager(`daily_inputs?select=${encodeURIComponent('id,stores(id,daily_inputs(id,stores(id,daily_inputs(id))))')}&limit=1`);
      expect(tooDeep.status).toBe(400);
      expect(await tooDeep.json()).toMatchObject({
        code: 'PGRST100',
        message: `Resources are embedded 4 levels deep; at most ${serviceLimits.maxEmbedDepth} are allowed.`,
      });
    });

    it('cuts a long read at maxRowsPerRead, as PostgREST does, and says so in Content-Range', async () => {
      expect(dailyRows).toBeGreaterThan(serviceLimits.maxRowsPerRead);
      const response = await manager('daily_inputs?select=id', { headers: { Prefer: 'count=exact' } });
      expect(response.status).toBe(206);
      expect(((await response.json()) as unknown[]).length).toBe(serviceLimits.maxRowsPerRead);
      expect(response.headers.get('content-range')).toBe(`0-${serviceLimits.maxRowsPerRead - 1}/${dailyRows}`);
      const paged = (await (await manager(`daily_inputs?select=id&offset=${dailyRows - 10}&limit=5000`)).json()) as unknown[];
      expect(paged.length).toBe(10);
    });

    it('stops a read whose embeds would bring more than maxEmbeddedRows rows, and still serves others', async () => {
      expect(dailyRows * dailyRows).toBeGreaterThan(serviceLimits.maxEmbeddedRows);
      const heavy = await manager(squareRead());
      expect(heavy.status).toBe(413);
      expect(await heavy.json()).toMatchObject({ code: '54000', message: `The request embeds more than ${serviceLimits.maxEmbeddedRows} rows` });
      const light = await manager(squareRead(2));
      expect(light.status).toBe(200);
      const rows = (await light.json()) as Array<{ stores: { daily_inputs: unknown[] } }>;
      // PostgREST's db-max-rows cuts every level of a read, embedded lists included.
      const perEmbed = Math.min(dailyRows, serviceLimits.maxRowsPerRead);
      expect(rows.map((row) => row.stores.daily_inputs.length)).toEqual([perEmbed, perEmbed]);
    });

    it('refuses an insert of more rows than maxRowsPerWrite, writing none of them', async () => {
      const rows = Array.from({ length: 6 }, (_, i) => ({ store_id: demo.storeA, year: 2031, month: i + 1, metric_key: 'cpElr', target_value: 1 }));
      const response = await manager('monthly_targets', { method: 'POST', body: JSON.stringify(rows) });
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ message: 'The body has 6 rows; one request may write at most 5.' });
      const stored = await stack.database.query('select 1 from monthly_targets where year = 2031');
      expect(stored.rows).toEqual([]);
      const five = await manager('monthly_targets', { method: 'POST', body: JSON.stringify(rows.slice(0, 5)) });
      expect(five.status).toBe(201);
      expect((await stack.database.query('select 1 from monthly_targets where year = 2031')).rows.length).toBe(5);
    });

    it('refuses more filters than maxFilters and a target longer than maxTargetBytes', async () => {
      const filters = Array.from({ length: serviceLimits.maxFilters + 1 }, (_, i) => `value.neq.${i}`).join(',');
      const tooMany = await manager(`daily_inputs?select=id&or=(${filters})`);
      expect(tooMany.status).toBe(400);
      expect(await tooMany.json()).toMatchObject({ message: `The request has ${serviceLimits.maxFilters + 1} filters; at most ${serviceLimits.maxFilters} are allowed.` });
      const long = await manager(`daily_inputs?select=id&id=eq.${'a'.repeat(serviceLimits.maxTargetBytes)}`);
      expect(long.status).toBe(414);
      expect(await long.json()).toMatchObject({ code: 'PGRST100' });
    });

    it(`refuses a push of ${serviceLimits.pushBatchRows + 1} rows with a clear message through supabase-js`, async () => {
      const client = await stack.signIn('manager@example.com');
      const targets = async () => (await stack.database.query('select count(*)::int as n from monthly_targets')).rows[0];
      const before = await targets();
      const rows = Array.from({ length: serviceLimits.pushBatchRows + 1 }, (_, i) => ({
        store_id: demo.storeA, year: 2000 + Math.floor(i / 12), month: (i % 12) + 1, metric_key: 'cpElr', target_value: 1,
      }));
      const { error, status } = await client.rpc('push_changes', { p_table: 'monthly_targets', p_rows: rows });
      expect(status).toBe(400);
      expect(error).toMatchObject({
        code: '22023',
        message: `push_changes: ${serviceLimits.pushBatchRows + 1} rows in one call; at most ${serviceLimits.pushBatchRows} are allowed`,
      });
      expect(await targets()).toEqual(before);
    });
  });

  describe(`the database queue on ${engine}`, () => {
    let stack: TestStack;
    let managerToken = '';
    let otherToken = '';
    let heavyLimit = 0;

    beforeAll(async () => {
      stack = await startTestStack({ engine, limits: { dbConcurrentRequests: 1, dbQueueLength: 4, dbQueuePerClient: 3 } });
      // As many top rows as keep each heavy read just inside the embedded-row budget.
      heavyLimit = Math.floor((serviceLimits.maxEmbeddedRows * 0.9) / ((await fillDailyInputs(stack.database, 300)) + 1));
      managerToken = await tokenOf(stack, 'manager@example.com');
      otherToken = await tokenOf(stack, 'other@example.com');
    });
    afterAll(() => stack?.stop());

    it('answers the overflow of 10 parallel heavy reads 503 with Retry-After, and serves another client in its turn', async () => {
      const requests: ParallelRequest[] = Array.from({ length: 10 }, (_, i) => ({
        name: `heavy-${i}`,
        url: `${stack.url}/rest/v1/${squareRead(heavyLimit)}`,
        headers: { apikey: stack.keys.anonKey, Authorization: `Bearer ${managerToken}` },
      }));
      requests.push({ name: 'simple', url: `${stack.url}/rest/v1/stores?select=name`, headers: { apikey: stack.keys.anonKey, Authorization: `Bearer ${otherToken}` } });
      // The database's one slot is held until the queue is full and a read has been
      // refused, then let go: on a busy machine the other thread can send its reads so
      // slowly that each ends before the next arrives, and none would overflow.
      let letGo = () => {};
      const holder = stack.queue.run('test-holder', () => new Promise<void>((resolve) => (letGo = resolve)));
      let answered = 0;
      const pending = fetchInParallelFromAnotherThread(requests, () => (answered += 1));
      await untilTrue(() => stack.queue.load.waiting === 4 && answered > 0, 30_000, 'a full queue and a refused read');
      letGo();
      await holder;
      const answers = await pending;

      const heavy = answers.filter((a) => a.name.startsWith('heavy'));
      const refused = heavy.filter((a) => a.status === 503);
      const served = heavy.filter((a) => a.status === 200);
      expect(refused.length + served.length).toBe(10);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      for (const answer of refused) {
        expect(answer.retryAfter).toBe(String(serviceLimits.retryAfterSeconds));
        expect(answer.body).toMatchObject({ code: 'PGRST003', details: null, hint: `Try again in ${serviceLimits.retryAfterSeconds} seconds.` });
      }
      const simple = answers.find((a) => a.name === 'simple');
      expect(simple).toMatchObject({ status: 200, body: [{ name: 'Northside Auto Service' }] });
      // The other client took its turn before the heavy client's queued reads, not after all of them.
      const lastServed = Math.max(...served.map((a) => answers.indexOf(a)));
      expect(answers.indexOf(simple as ParallelAnswer)).toBeLessThan(lastServed);
      expect(stack.queue.load).toEqual({ running: 0, waiting: 0 });
    });
  });
}

describe('the statement timeout on postgres', () => {
  // PGlite runs a statement to its end whatever statement_timeout says (it cannot be
  // interrupted); there the embedded-row budget above bounds such a read instead.
  const onPostgres = engines.includes('postgres');
  let stack: TestStack;
  let manager: ReturnType<typeof rest>;
  let other: ReturnType<typeof rest>;

  beforeAll(async () => {
    if (!onPostgres) return;
    stack = await startTestStack({ engine: 'postgres', limits: { statementTimeoutMs: 1_000, maxEmbeddedRows: 1_000_000_000 } });
    await fillDailyInputs(stack.database, 600);
    manager = rest(stack, await tokenOf(stack, 'manager@example.com'));
    other = rest(stack, await tokenOf(stack, 'other@example.com'));
  });
  afterAll(() => stack?.stop());

  it.skipIf(!onPostgres)('cuts an expensive read with 57014 and a 503 with Retry-After, while another client is served meanwhile', async () => {
    const finished: string[] = [];
    const heavy = manager(`daily_inputs?select=${encodeURIComponent('*,stores(*,daily_inputs(*,stores(*)))')}`).then(async (response) => {
      finished.push('heavy');
      return { response, body: (await response.json()) as unknown };
    });
    const simple = await other('stores?select=name');
    finished.push('simple');
    expect(simple.status).toBe(200);
    expect(await simple.json()).toEqual([{ name: 'Northside Auto Service' }]);
    const { response, body } = await heavy;
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe(String(serviceLimits.retryAfterSeconds));
    expect(body).toMatchObject({ code: '57014', message: 'canceling statement due to statement timeout' });
    expect(finished).toEqual(['simple', 'heavy']);
  });
});
