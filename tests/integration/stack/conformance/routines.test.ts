import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../../support/test-databases.ts';
import type { ConformanceStack } from './conformance-stack.ts';
import { startConformanceStack } from './conformance-stack.ts';

// Overloaded functions and the calls PostgREST 12 cannot resolve (functions.rst
// "Overloaded Functions", Plan.hs findProc, Error.hs NoRpc/AmbiguousRpc), counts of a
// call, and functions of the second exposed schema. Orders of fixture.sql: customer 1
// has orders 1 (100.50, 2023-09-01), 2 (200.00, 2023-09-01) and 5 (75.00, 2023-09-03).
for (const engine of engines) {
  describe(`PostgREST overloaded functions and calls on ${engine}`, () => {
    let stack: ConformanceStack;
    let db: SupabaseClient;

    beforeAll(async () => {
      stack = await startConformanceStack(engine, { rest: { planEnabled: true } });
      db = stack.service();
    });
    afterAll(() => stack?.stop());

    it('calls the overload whose parameter names the arguments fit', async () => {
      expect(await db.rpc('order_total', { customer_id: 1 })).toMatchObject({ status: 200, data: 375.5 });
      expect(await db.rpc('order_total', { customer_id: 1, since: '2023-09-02' })).toMatchObject({ status: 200, data: 75 });
      expect(await db.rpc('order_total', { customer_id: 1 }, { get: true })).toMatchObject({ status: 200, data: 375.5 });
    });

    it('answers overloads it cannot tell apart 300 PGRST203, listing them by their parameters', async () => {
      const ambiguous = await db.rpc('order_count', { c: 1 });
      expect(ambiguous.status).toBe(300);
      expect(ambiguous.error).toEqual({
        code: 'PGRST203',
        message: 'Could not choose the best candidate function between: conformance.order_count(c => integer), conformance.order_count(c => text)',
        details: null,
        hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
      });
    });

    it('passes the whole body to a function of one unnamed json parameter, and finds none of one unnamed integer', async () => {
      expect(await db.rpc('mult_them', { x: 4, y: 2 })).toMatchObject({ status: 200, data: 8 });
      const unnamed = await db.rpc('double_it', { '': 2 });
      expect(unnamed.status).toBe(404);
      expect(unnamed.error).toMatchObject({
        code: 'PGRST202',
        message: 'Could not find the function conformance.double_it() in the schema cache',
        details: 'Searched for the function conformance.double_it with parameter  or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
      });
    });

    it('hints at the closest function, or at the closest parameters of an overloaded one', async () => {
      const misspelt = await db.rpc('add_thme', { a: 1, b: 2 });
      expect(misspelt.error).toEqual({
        code: 'PGRST202',
        message: 'Could not find the function conformance.add_thme(a, b) in the schema cache',
        details: 'Searched for the function conformance.add_thme with parameters a, b or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
        hint: 'Perhaps you meant to call the function conformance.add_them',
      });
      const wrongArgument = await db.rpc('order_total', { customer: 1 });
      expect(wrongArgument.error).toMatchObject({
        message: 'Could not find the function conformance.order_total(customer) in the schema cache',
        hint: 'Perhaps you meant to call the function conformance.order_total(customer_id)',
      });
    });

    it('counts the result of a call: one for a scalar, the rows of a set', async () => {
      expect(await db.rpc('add_them', { a: 1, b: 2 }, { count: 'exact' })).toMatchObject({ status: 200, count: 1, data: 3 });
      expect(await db.rpc('add_them', { a: 1, b: 2 }, { count: 'exact', head: true })).toMatchObject({ status: 200, count: 1, data: null });
      expect(await db.rpc('add_them', { a: 1, b: 2 }, { count: 'exact', get: true })).toMatchObject({ status: 200, count: 1, data: 3 });
      const titles = await db.rpc('film_titles', {}, { count: 'exact' });
      expect(titles).toMatchObject({ status: 200, count: 4 });
    });

    it('calls the function of the schema a client or .schema() names', async () => {
      expect(await stack.service('conformance_b').rpc('item_count')).toMatchObject({ data: 2 });
      expect(await stack.service('conformance').rpc('item_count')).toMatchObject({ data: 1 });
      expect(await db.schema('conformance_b').rpc('item_count', {}, { get: true })).toMatchObject({ data: 2 });
      const items = await db.schema('conformance_b').from('items').select('id').order('id');
      expect(items.data).toEqual([{ id: 1 }, { id: 2 }]);
    });

    it('explains a call of a scalar function', async () => {
      const plan = await db.rpc('add_them', { a: 1, b: 2 }).explain();
      expect(plan.error).toBeNull();
      expect(String(plan.data)).toMatch(/json_to_record/);
    });
  });
}
