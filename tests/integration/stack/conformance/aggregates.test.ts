import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../../support/test-databases.ts';
import type { ConformanceStack } from './conformance-stack.ts';
import { startConformanceStack } from './conformance-stack.ts';

// Aggregate functions (aggregate_functions.rst), enabled as hosted Supabase allows with
// db-aggregates-enabled. Orders of the fixture, counted by hand:
//   1 2023-09-01 100.50 A | 2 2023-09-01 200.00 A | 3 2023-09-02 50.25 B | 4 2023-09-02 30.00 B | 5 2023-09-03 75.00 A
const byKey = <T extends Record<string, unknown>>(rows: T[] | null, key: keyof T) =>
  [...(rows ?? [])].sort((a, b) => String(a[key]).localeCompare(String(b[key])));

for (const engine of engines) {
  describe(`PostgREST aggregates on ${engine}`, () => {
    let stack: ConformanceStack;
    let db: SupabaseClient;

    beforeAll(async () => {
      stack = await startConformanceStack(engine, { rest: { aggregatesEnabled: true } });
      db = stack.service();
    });
    afterAll(() => stack?.stop());

    it('computes sum, avg, count, min and max over the whole table', async () => {
      const { data, error } = await db
        .from('orders')
        .select('amount.sum(), avg_amount:amount.avg(), orders:count(), largest:amount.max(), smallest:amount.min()');
      expect(error).toBeNull();
      expect(data).toEqual([{ sum: 455.75, avg_amount: 91.15, orders: 5, largest: 200, smallest: 30 }]);
    });

    it('groups by the other selected columns, and counts rows or non-null values', async () => {
      const sums = await db.from('orders').select('amount.sum(), order_date').order('order_date');
      expect(sums.data).toEqual([
        { sum: 300.5, order_date: '2023-09-01' },
        { sum: 80.25, order_date: '2023-09-02' },
        { sum: 75, order_date: '2023-09-03' },
      ]);
      const counts = await db.from('orders').select('count(), customer_count:customer_id.count(), order_date').order('order_date');
      expect(counts.data).toEqual([
        { count: 2, customer_count: 2, order_date: '2023-09-01' },
        { count: 2, customer_count: 2, order_date: '2023-09-02' },
        { count: 1, customer_count: 1, order_date: '2023-09-03' },
      ]);
    });

    it('casts the aggregated column or the aggregate', async () => {
      const { data } = await db.from('orders').select('rounded:amount::int.sum(), average:amount.avg()::int');
      // 101 + 200 + 50 + 30 + 75 (numeric to integer rounds half away from zero), and 91.15 rounded.
      expect(data).toEqual([{ rounded: 456, average: 91 }]);
    });

    it('groups by an embedded resource, and aggregates inside one', async () => {
      const grouped = await db.from('orders').select('amount.sum(), customers(name)');
      expect(byKey(grouped.data as unknown as Array<{ sum: number; customers: { name: string } }>, 'sum')).toEqual([
        { sum: 375.5, customers: { name: 'Customer A' } },
        { sum: 80.25, customers: { name: 'Customer B' } },
      ]);
      const inside = await db.from('customers').select('name, orders(amount.sum(), order_date)').order('id').order('order_date', { referencedTable: 'orders' });
      expect(inside.data).toEqual([
        { name: 'Customer A', orders: [{ sum: 300.5, order_date: '2023-09-01' }, { sum: 75, order_date: '2023-09-03' }] },
        { name: 'Customer B', orders: [{ sum: 80.25, order_date: '2023-09-02' }] },
      ]);
    });

    it('hoists the aggregates of a spread embed to its parent, grouped by the other columns', async () => {
      const hoisted = await db.from('orders').select('...customers(last:name.max(), first:name.min())');
      expect(hoisted.data).toEqual([{ last: 'Customer B', first: 'Customer A' }]);
      const grouped = await db.from('orders').select('amount.sum(), ...customers(name)');
      expect(byKey(grouped.data as unknown as Array<{ sum: number; name: string }>, 'name')).toEqual([
        { sum: 375.5, name: 'Customer A' },
        { sum: 80.25, name: 'Customer B' },
      ]);
    });

    it('applies filters before aggregating, and counts the filtered rows', async () => {
      const { data, count } = await db.from('orders').select('amount.sum()', { count: 'exact' }).gte('amount', 75);
      expect(data).toEqual([{ sum: 375.5 }]);
      expect(count).toBe(3);
    });
  });

  describe(`the aggregated-row budget on ${engine}`, () => {
    let stack: ConformanceStack;

    beforeAll(async () => {
      stack = await startConformanceStack(engine, { rest: { aggregatesEnabled: true }, limits: { maxAggregatedRows: 4 } });
    });
    afterAll(() => stack?.stop());

    it('refuses an aggregate over more rows than maxAggregatedRows (413, 54000), and serves one within it', async () => {
      const db = stack.service();
      const over = await db.from('orders').select('amount.sum()');
      expect(over).toMatchObject({ status: 413, error: { code: '54000', message: 'The request aggregates more than 4 rows' } });
      const within = await db.from('orders').select('amount.sum()').lte('amount', 100.5);
      expect(within.data).toEqual([{ sum: 255.75 }]);
    });
  });
}
