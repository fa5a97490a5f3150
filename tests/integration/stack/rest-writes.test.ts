import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';

describe('REST writes through supabase-js', () => {
  let stack: TestStack;
  let manager: SupabaseClient;
  const sql = async (text: string, params: unknown[] = []) => (await stack.database.query(text, params)).rows;
  const day = (d: number) => ({
    store_id: demo.storeA,
    entry_date: `2031-03-${String(d).padStart(2, '0')}`,
    year: 2031,
    month: 3,
    day_of_week_iso: ((new Date(Date.UTC(2031, 2, d)).getUTCDay() + 6) % 7) + 1,
  });

  beforeAll(async () => {
    stack = await startTestStack();
    manager = await stack.signIn('manager@example.com');
  });
  afterAll(() => stack?.stop());

  it('inserts one row (201, no body by default) and many rows returning them', async () => {
    const single = await manager.from('daily_inputs').insert({ ...day(3), row_identifier: 'CP', metric_type: 'hours', value: 10 });
    expect(single).toMatchObject({ error: null, data: null, status: 201 });
    const bulk = await manager
      .from('daily_inputs')
      .insert([
        { ...day(4), row_identifier: 'CP', metric_type: 'hours', value: 11 },
        { ...day(4), row_identifier: 'W', metric_type: 'sales', value: 1200.5 },
      ])
      .select('row_identifier, value');
    expect(bulk).toMatchObject({ error: null, status: 201, data: [{ row_identifier: 'CP', value: 11 }, { row_identifier: 'W', value: 1200.5 }] });
    expect(await sql(`select count(*)::int as n from daily_inputs where entry_date in ('2031-03-03', '2031-03-04')`)).toEqual([{ n: 3 }]);
  });

  it('sends missing keys of a bulk insert as NULL, or as the column default with defaultToNull: false', async () => {
    const rows = [
      { ...day(5), row_identifier: 'CP', metric_type: 'hours', value: 1, week_of_month_display: 1 },
      { ...day(5), row_identifier: 'W', metric_type: 'hours', value: 2 },
    ];
    const nulls = await manager.from('daily_inputs').insert(rows).select('week_of_month_display');
    expect(nulls.data).toEqual([{ week_of_month_display: 1 }, { week_of_month_display: null }]);
    // is_active is NOT NULL DEFAULT true: sent as NULL it breaks the rule; left to its default it is true.
    const advisors = [
      { store_id: demo.storeA, advisor_name: 'Part Timer', is_active: false },
      { store_id: demo.storeA, advisor_name: 'New Hire' },
    ];
    const asNull = await manager.from('front_end_team_advisors').insert(advisors);
    expect(asNull).toMatchObject({ status: 400, error: { code: '23502' } });
    const withDefaults = await manager
      .from('front_end_team_advisors')
      .insert(advisors, { defaultToNull: false })
      .select('advisor_name, is_active');
    expect(withDefaults).toMatchObject({
      error: null,
      data: [
        { advisor_name: 'Part Timer', is_active: false },
        { advisor_name: 'New Hire', is_active: true },
      ],
    });
  });

  it('upserts on a composite natural key, changing only the columns it sent', async () => {
    const key = { store_id: demo.storeA, year: 2031, month: 5 };
    await manager.from('yearly_financial_inputs').insert({ ...key, sales: 100, gp_net: 70 });
    const upsert = await manager
      .from('yearly_financial_inputs')
      .upsert({ ...key, sales: 150 }, { onConflict: 'store_id,year,month' })
      .select('sales, gp_net');
    expect(upsert).toMatchObject({ error: null, data: [{ sales: 150, gp_net: 70 }] });
    const ignored = await manager
      .from('yearly_financial_inputs')
      .upsert({ ...key, sales: 999 }, { onConflict: 'store_id,year,month', ignoreDuplicates: true })
      .select();
    expect(ignored).toMatchObject({ error: null, data: [] });
    expect(await sql('select sales::int, gp_net::int from yearly_financial_inputs where store_id = $1 and year = 2031 and month = 5', [demo.storeA])).toEqual([
      { sales: 150, gp_net: 70 },
    ]);
  });

  it('updates and deletes only what the filters match', async () => {
    const updated = await manager.from('store_settings').update({ stalls: 30 }).eq('store_id', demo.storeA).select('stalls');
    expect(updated).toMatchObject({ error: null, status: 200, data: [{ stalls: 30 }] });
    const minimal = await manager.from('store_settings').update({ lube_techs: 4 }).eq('store_id', demo.storeA);
    expect(minimal).toMatchObject({ error: null, status: 204 });
    const admin = await stack.signIn('admin@example.com');
    const created = await admin.from('stores').insert({ name: 'Temporary Store' }).select('id').single();
    const deleted = await admin.from('stores').delete().eq('id', (created.data as { id: string }).id).select('name');
    expect(deleted).toMatchObject({ error: null, data: [{ name: 'Temporary Store' }] });
    expect(await sql(`select count(*)::int as n from stores where name = 'Temporary Store'`)).toEqual([{ n: 0 }]);
  });

  it('answers a duplicate key with 409 23505, a broken rule with 400, and changes nothing', async () => {
    const before = await sql('select count(*)::int as n, coalesce(sum(value), 0)::text as total from daily_inputs');
    const duplicate = await manager.from('daily_inputs').insert({ ...day(3), row_identifier: 'CP', metric_type: 'hours', value: 99 });
    expect(duplicate).toMatchObject({ status: 409, error: { code: '23505' } });
    const badMonth = await manager.from('monthly_targets').insert({ store_id: demo.storeA, year: 2031, month: 13, metric_key: 'cpElr' });
    expect(badMonth).toMatchObject({ status: 400, error: { code: '23514' } });
    const notNumber = await manager.from('daily_inputs').insert({ ...day(6), row_identifier: 'CP', metric_type: 'hours', value: 'lots' });
    expect(notNumber).toMatchObject({ status: 400, error: { code: '22P02' } });
    expect(await sql('select count(*)::int as n, coalesce(sum(value), 0)::text as total from daily_inputs')).toEqual(before);
  });

  it('refuses writes into another store with 403 42501, and anonymous writes with 401', async () => {
    const foreign = await manager.from('daily_inputs').insert({ ...day(7), store_id: demo.storeB, row_identifier: 'CP', metric_type: 'hours', value: 1 });
    expect(foreign).toMatchObject({ status: 403, error: { code: '42501' } });
    const anonymous = await stack.anon().from('daily_inputs').insert({ ...day(7), row_identifier: 'CP', metric_type: 'hours', value: 1 });
    expect(anonymous).toMatchObject({ status: 401, error: { code: '42501' } });
  });

  it('rejects unknown columns in a body with PGRST204 and a non-object body with PGRST102', async () => {
    const unknown = await manager.from('store_settings').update({ stalls: 1, bogus: 2 }).eq('store_id', demo.storeA);
    expect(unknown).toMatchObject({ status: 400, error: { code: 'PGRST204' } });
    const response = await fetch(`${stack.url}/rest/v1/store_settings`, {
      method: 'POST',
      headers: { apikey: stack.keys.anonKey, 'Content-Type': 'application/json' },
      body: '[1, 2]',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'PGRST102' });
  });
});
