import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';

// Reads through the real supabase-js against the embedded stack. Expected figures come
// from SQL run directly as the superuser, never from the REST code under test.
describe('REST reads through supabase-js', () => {
  let stack: TestStack;
  let manager: SupabaseClient;
  const sql = async <T,>(text: string, params: unknown[] = []) => (await stack.database.query<T & Record<string, unknown>>(text, params)).rows;

  beforeAll(async () => {
    stack = await startTestStack();
    manager = await stack.signIn('manager@example.com');
  });
  afterAll(() => stack?.stop());

  it('selects listed columns with aliases and casts', async () => {
    const { data, error } = await manager
      .from('daily_inputs')
      .select('day:entry_date, value, value_text:value::text')
      .eq('row_identifier', 'CP')
      .eq('metric_type', 'hours')
      .order('entry_date', { ascending: true })
      .limit(1);
    const [expected] = await sql<{ day: string; value: string }>(
      `select entry_date::text as day, value::text as value from daily_inputs
       where store_id = $1 and row_identifier = 'CP' and metric_type = 'hours' order by entry_date limit 1`,
      [demo.storeA],
    );
    expect(error).toBeNull();
    expect(data).toEqual([{ day: expected?.day, value: Number(expected?.value), value_text: expected?.value }]);
  });

  it('applies eq, neq, gt, gte, lt, lte, in, is, like, ilike, not and or', async () => {
    const count = async (query: PromiseLike<{ data: unknown[] | null; error: unknown }>) => {
      const { data, error } = await query;
      expect(error).toBeNull();
      return data?.length;
    };
    // One month of the demo store: a read returns at most 1,000 rows, and the store has years of them.
    const lastMonth = new Date(new Date().getFullYear(), new Date().getMonth() - 1, 1);
    const [year, month] = [lastMonth.getFullYear(), lastMonth.getMonth() + 1];
    const base = () => manager.from('daily_inputs').select('id').eq('year', year).eq('month', month);
    const n = async (where: string) =>
      Number((await sql<{ n: string }>(`select count(*)::text as n from daily_inputs where store_id = $1 and year = $2 and month = $3 and ${where}`, [demo.storeA, year, month]))[0]?.n);
    expect(await n('true')).toBeGreaterThan(100);

    expect(await count(base().eq('row_identifier', 'W'))).toBe(await n(`row_identifier = 'W'`));
    expect(await count(base().neq('row_identifier', 'W'))).toBe(await n(`row_identifier <> 'W'`));
    expect(await count(base().gt('value', 5000))).toBe(await n('value > 5000'));
    expect(await count(base().gte('value', 10).lte('value', 30))).toBe(await n('value between 10 and 30'));
    expect(await count(base().lt('value', 10))).toBe(await n('value < 10'));
    expect(await count(base().in('row_identifier', ['W', 'I']))).toBe(await n(`row_identifier in ('W', 'I')`));
    expect(await count(base().is('deleted_at', null))).toBe(await n('deleted_at is null'));
    expect(await count(base().not('deleted_at', 'is', null))).toBe(0);
    expect(await count(base().like('year_week_actual', '%-4%'))).toBe(await n(`year_week_actual like '%-4%'`));
    expect(await count(base().ilike('metric_type', 'HOU*'))).toBe(await n(`metric_type ilike 'hou%'`));
    expect(await count(base().or('row_identifier.eq.I,and(row_identifier.eq.W,value.gt.20)'))).toBe(
      await n(`(row_identifier = 'I' or (row_identifier = 'W' and value > 20))`),
    );
  });

  it('quotes in() values that contain commas and parentheses', async () => {
    const { data, error } = await manager.from('stores').select('name').in('name', ['Demo Motors', 'A, (tricky) name']);
    expect(error).toBeNull();
    expect(data).toEqual([{ name: 'Demo Motors' }]);
  });

  it('orders by several columns and pages with range()', async () => {
    const { data, error } = await manager
      .from('daily_inputs')
      .select('entry_date, row_identifier, metric_type')
      .order('entry_date', { ascending: false })
      .order('row_identifier')
      .order('metric_type')
      .range(6, 11);
    const expected = await sql(
      `select entry_date::text, row_identifier, metric_type from daily_inputs where store_id = $1
       order by entry_date desc, row_identifier, metric_type offset 6 limit 6`,
      [demo.storeA],
    );
    expect(error).toBeNull();
    expect(data).toEqual(expected);
  });

  it('counts exactly, with and without rows (head)', async () => {
    const [expected] = await sql<{ n: string }>('select count(*)::text as n from daily_inputs where store_id = $1', [demo.storeA]);
    const head = await manager.from('daily_inputs').select('*', { count: 'exact', head: true });
    expect(head).toMatchObject({ error: null, data: null, count: Number(expected?.n) });
    const paged = await manager.from('daily_inputs').select('id', { count: 'exact' }).range(0, 9);
    expect(paged.count).toBe(Number(expected?.n));
    expect(paged.data).toHaveLength(10);
  });

  it('embeds to-one as an object and to-many as an array, through a composite foreign key too', async () => {
    const { data, error } = await manager
      .from('front_end_team_daily_performance')
      .select('days_worked, advisor:front_end_team_advisors(id, advisor_name), store:stores(name)')
      .order('advisor_id');
    expect(error).toBeNull();
    const expected = await sql<{ id: string; advisor_name: string }>(
      `select a.id::text, a.advisor_name from front_end_team_daily_performance p
       join front_end_team_advisors a on a.id = p.advisor_id where p.store_id = $1 order by p.advisor_id`,
      [demo.storeA],
    );
    expect(data?.map((row) => row.advisor)).toEqual(expected);
    expect(data?.every((row) => (row.store as unknown as { name: string }).name === 'Demo Motors')).toBe(true);

    const stores = await manager
      .from('stores')
      .select('name, front_end_team_advisors(advisor_name)')
      .order('advisor_name', { referencedTable: 'front_end_team_advisors', ascending: false })
      .limit(2, { referencedTable: 'front_end_team_advisors' });
    expect(stores.error).toBeNull();
    expect(stores.data).toEqual([
      { name: 'Demo Motors', front_end_team_advisors: [{ advisor_name: 'Sam Carter' }, { advisor_name: 'Priya Patel' }] },
    ]);
  });

  it('filters embedded rows, and drops parents without a match with !inner', async () => {
    const plain = await manager.from('stores').select('name, front_end_team_advisors(advisor_name)').eq('front_end_team_advisors.advisor_name', 'Nobody');
    expect(plain.data).toEqual([{ name: 'Demo Motors', front_end_team_advisors: [] }]);
    const inner = await manager.from('stores').select('name, front_end_team_advisors!inner(advisor_name)').eq('front_end_team_advisors.advisor_name', 'Nobody');
    expect(inner).toMatchObject({ error: null, data: [] });
    const hit = await manager.from('stores').select('name, front_end_team_advisors!inner(advisor_name)').eq('front_end_team_advisors.advisor_name', 'Priya Patel');
    expect(hit.data).toEqual([{ name: 'Demo Motors', front_end_team_advisors: [{ advisor_name: 'Priya Patel' }] }]);
  });

  it('answers single() with an object, or 406 PGRST116 when there are 0 or many rows; maybeSingle() with null', async () => {
    const one = await manager.from('stores').select('name').eq('id', demo.storeA).single();
    expect(one).toMatchObject({ error: null, data: { name: 'Demo Motors' }, status: 200 });
    const none = await manager.from('stores').select('name').eq('id', demo.storeB).single();
    expect(none.status).toBe(406);
    expect(none.error).toMatchObject({ code: 'PGRST116', details: 'The result contains 0 rows', message: 'Cannot coerce the result to a single JSON object' });
    const many = await manager.from('daily_inputs').select('id').limit(2).single();
    expect(many.error).toMatchObject({ code: 'PGRST116', details: 'The result contains 2 rows' });
    const maybe = await manager.from('store_settings').select('*').eq('store_id', demo.storeB).maybeSingle();
    expect(maybe).toMatchObject({ error: null, data: null });
  });

  it('calls functions with named arguments, by POST and by GET', async () => {
    const post = await manager.rpc('get_user_store_id');
    expect(post).toMatchObject({ error: null, data: demo.storeA });
    const get = await manager.rpc('is_user_admin', {}, { get: true });
    expect(get).toMatchObject({ error: null, data: false });
    const pull = await manager.rpc('pull_changes', { p_table: 'stores', p_cursor: null, p_limit: 5 });
    expect(pull.error).toBeNull();
    expect((pull.data as { rows: Array<{ name: string }> }).rows.map((r) => r.name)).toEqual(['Demo Motors']);
  });

  it('reports unknown tables, columns, functions and relationships as PostgREST does', async () => {
    expect(await manager.from('nope').select('*')).toMatchObject({ status: 404, error: { code: 'PGRST205' } });
    expect(await manager.from('stores').select('nope')).toMatchObject({ status: 400, error: { code: '42703' } });
    expect(await manager.from('stores').select('*').eq('nope', 1)).toMatchObject({ status: 400, error: { code: '42703' } });
    expect(await manager.rpc('nope')).toMatchObject({ status: 404, error: { code: 'PGRST202' } });
    expect(await manager.from('stores').select('name, daily_inputs_x(id)')).toMatchObject({ status: 400, error: { code: 'PGRST200' } });
    // A filter on a resource the select does not embed would otherwise be silently ignored.
    expect(await manager.from('stores').select('name').eq('pg_catalog.pg_authid', 1)).toMatchObject({ status: 400, error: { code: 'PGRST108' } });
  });

  it('shows an anonymous caller nothing and tells them so', async () => {
    const result = await stack.anon().from('daily_inputs').select('id').limit(1);
    expect(result).toMatchObject({ status: 401, error: { code: '42501' } });
  });

  it('answers a browser preflight from another origin with the headers supabase-js sends', async () => {
    const response = await fetch(`${stack.url}/rest/v1/daily_inputs`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:4173', 'Access-Control-Request-Method': 'PATCH' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = response.headers.get('access-control-allow-headers') ?? '';
    for (const name of ['authorization', 'apikey', 'content-type', 'x-client-info', 'prefer', 'accept-profile', 'content-profile', 'x-supabase-api-version']) {
      expect(allowed).toContain(name);
    }
    expect(response.headers.get('access-control-expose-headers')).toContain('Content-Range');
  });
});
