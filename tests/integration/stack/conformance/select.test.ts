import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../../support/test-databases.ts';
import type { ConformanceStack } from './conformance-stack.ts';
import { startConformanceStack } from './conformance-stack.ts';

// Vertical filtering (tables_views.rst): JSON paths and casts in select, ordering on JSON
// paths, and what a stack with hosted Supabase's default settings refuses: aggregates
// (db-aggregates-enabled off) and plans (db-plan-enabled off).
for (const engine of engines) {
  describe(`PostgREST select, JSON paths and casts on ${engine}`, () => {
    let stack: ConformanceStack;
    let db: SupabaseClient;

    beforeAll(async () => {
      stack = await startConformanceStack(engine);
      db = stack.service();
    });
    afterAll(() => stack?.stop());

    it('selects JSON paths, named after their last key', async () => {
      const { data, error } = await db.from('people').select('id, json_data->>blood_type, json_data->phones').eq('id', 1);
      expect(error).toBeNull();
      expect(data).toEqual([{ id: 1, blood_type: 'A-', phones: [{ country_code: '61', number: '917-929-5745' }] }]);
      const nested = await db.from('people').select('id, json_data->phones->0->>number').order('id');
      expect(nested.data).toEqual([
        { id: 1, number: '917-929-5745' },
        { id: 2, number: '512-446-4988' },
        { id: 3, number: null },
        { id: 4, number: null },
      ]);
    });

    it('reaches into arrays with a JSON path, and aliases a path', async () => {
      const { data } = await db.from('people').select('id, first_tag:tags->0, age:json_data->age').order('id');
      expect(data).toEqual([
        { id: 1, first_tag: 'a', age: 25 },
        { id: 2, first_tag: 'b', age: 30 },
        { id: 3, first_tag: 'c', age: 35 },
        { id: 4, first_tag: null, age: 20 },
      ]);
    });

    it('orders on JSON paths, as text with ->> and as JSON with ->', async () => {
      const asText = await db.from('people').select('id').order('json_data->>blood_type').order('id', { ascending: false });
      // A- (3, 1), B+ (4), O+ (2)
      expect(asText.data?.map((p) => p.id)).toEqual([3, 1, 4, 2]);
      const asJson = await db.from('people').select('id, json_data->age').order('json_data->age', { ascending: false });
      expect(asJson.data?.map((p) => p.id)).toEqual([3, 2, 1, 4]);
    });

    it('casts selected columns, and refuses a cast it does not offer', async () => {
      const { data } = await db.from('films').select('id, rating::text, year::text').eq('id', 1);
      expect(data).toEqual([{ id: 1, rating: '7.1', year: '1895' }]);
      const refused = await db.from('films').select('id::regclass');
      expect(refused).toMatchObject({ status: 400, error: { code: 'PGRST100' } });
    });

    it('counts exactly, by the planner, or estimated (exact under db-max-rows), and refuses a range past the end', async () => {
      // The fixture analyzes films, so the planner knows its 4 rows.
      for (const count of ['exact', 'planned', 'estimated'] as const) {
        const { data, count: total, status } = await db.from('films').select('id', { count }).order('id').range(0, 1);
        expect({ count, total, status, data }).toEqual({ count, total: 4, status: 206, data: [{ id: 1 }, { id: 2 }] });
      }
      const past = await stack.rest('films?select=id&offset=10', { headers: { Prefer: 'count=exact' } });
      expect([past.status, past.headers.get('content-range')]).toEqual([416, '*/4']);
      expect(await past.json()).toMatchObject({ code: 'PGRST103', message: 'Requested range not satisfiable', details: 'An offset of 10 was requested, but there are only 4 rows.' });
    });

        it('refuses aggregates with PGRST123 unless they are enabled, as hosted Supabase does by default', async () => {
      const refused = await db.from('orders').select('amount.sum()');
      expect(refused).toMatchObject({ status: 400, error: { code: 'PGRST123', message: 'Use of aggregate functions is not allowed' } });
    });

    it('commits a write despite tx=rollback when db-tx-end allows no override, as hosted Supabase by default', async () => {
      const written = await db.from('tasks').insert({ id: 61, title: 'kept' }).select('id').rollback();
      expect(written).toMatchObject({ status: 201, data: [{ id: 61 }] });
      expect(await stack.sql('select title from conformance.tasks where id = 61')).toEqual([{ title: 'kept' }]);
      const strict = await stack.rest('tasks', {
        method: 'POST', body: '{"id": 62, "title": "kept too"}',
        headers: { Prefer: 'handling=strict, tx=rollback', 'Content-Type': 'application/json' },
      });
      expect([strict.status, strict.headers.get('preference-applied')]).toEqual([201, 'handling=strict']);
      expect(await stack.sql('select title from conformance.tasks where id = 62')).toEqual([{ title: 'kept too' }]);
    });

    it('refuses explain() with 406 PGRST107 unless plans are enabled', async () => {
      const refused = await db.from('films').select('*').explain();
      expect(refused.status).toBe(406);
      expect(refused.error).toMatchObject({ code: 'PGRST107' });
      expect(String(refused.error?.message)).toContain('application/vnd.pgrst.plan+text');
    });
  });
}
