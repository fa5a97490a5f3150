/**
 * `Prefer: missing=default` (supabase-js `defaultToNull: false`) on a bulk insert whose
 * rows carry different keys: as PostgREST 12, each row's missing columns take the
 * column's default, every row goes in one INSERT, and the rows come back in the order
 * they were sent. On both engines.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceLimits } from '../../../src/domain/limits.ts';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { engines } from '../../support/test-databases.ts';

/** Columns a row of team totals may leave out; each row below carries its own subset of them. */
const optional = [
  'parts_labour', 'labour_sales', 'total_ros', 'total_hours', 'cp_labour', 'cp_ros', 'cp_hours', 'internal_ros', 'warranty_ros', 'id', 'deleted_at',
] as const;
const dayMs = 86_400_000;

describe.each(engines)('REST missing=default with rows of different keys (%s)', (engine) => {
  let stack: TestStack;
  let manager: SupabaseClient;
  beforeAll(async () => {
    stack = await startTestStack({ engine });
    manager = await stack.signIn('manager@example.com');
  });
  afterAll(() => stack?.stop());

  it('inserts as many rows as one request may carry, each with its own key set, missing columns at their defaults', async () => {
    const count = serviceLimits.maxRowsPerWrite;
    expect(2 ** optional.length).toBeGreaterThanOrEqual(count);
    const ids = new Map<number, string>();
    const dates = Array.from({ length: count }, (_, i) => new Date(Date.UTC(2040, 0, 1) + i * dayMs));
    const rows = dates.map((date, i) => {
      const row: Record<string, unknown> = {
        store_id: demo.storeA, entry_date: date.toISOString().slice(0, 10), year: date.getUTCFullYear(), month: date.getUTCMonth() + 1,
      };
      optional.forEach((column, bit) => {
        if ((i & (1 << bit)) === 0) return;
        if (column === 'id') ids.set(i, crypto.randomUUID());
        row[column] = column === 'id' ? ids.get(i) : column === 'deleted_at' ? null : i;
      });
      return row;
    });
    const { data, error, status } = await manager
      .from('front_end_team_totals')
      .insert(rows, { defaultToNull: false })
      .select('id, entry_date, parts_labour, total_ros, warranty_ros, deleted_at');
    expect(error).toBeNull();
    expect(status).toBe(201);
    const back = data as Array<Record<string, unknown>>;
    expect(back).toHaveLength(count);
    back.forEach((got, i) => {
      // Sent order, and each value as sent or (left out) the column's default: a new id, NULL.
      expect(got.entry_date).toBe(rows[i]?.entry_date);
      expect(got.id).toBe(ids.get(i) ?? got.id);
      expect(got.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(got.parts_labour).toBe(i & 1 ? i : null);
      expect(got.total_ros).toBe(i & 4 ? i : null);
      expect(got.warranty_ros).toBe(i & 256 ? i : null);
      expect(got.deleted_at).toBeNull();
    });
    expect(new Set(back.map((r) => r.id)).size).toBe(count);
  });

  it('answers the rows in the order they were sent when key sets alternate, a default where a key is missing and NULL where it is sent as null', async () => {
    const advisors = [
      { store_id: demo.storeA, advisor_name: 'First', is_active: false },
      { store_id: demo.storeA, advisor_name: 'Second' },
      { store_id: demo.storeA, advisor_name: 'Third', is_active: false },
      { store_id: demo.storeA, advisor_name: 'Fourth', employee_id: 'E4' },
      { store_id: demo.storeA, advisor_name: 'Fifth' },
      { store_id: demo.storeA, advisor_name: 'Sixth', employee_id: null },
    ];
    const { data, error } = await manager
      .from('front_end_team_advisors')
      .insert(advisors, { defaultToNull: false })
      .select('advisor_name, is_active, employee_id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { advisor_name: 'First', is_active: false, employee_id: null },
      { advisor_name: 'Second', is_active: true, employee_id: null },
      { advisor_name: 'Third', is_active: false, employee_id: null },
      { advisor_name: 'Fourth', is_active: true, employee_id: 'E4' },
      { advisor_name: 'Fifth', is_active: true, employee_id: null },
      { advisor_name: 'Sixth', is_active: true, employee_id: null },
    ]);
  });

  it('upserts with the defaults of the columns a row left out, as PostgREST sets every sent column on conflict', async () => {
    const [kept, reset] = [crypto.randomUUID(), crypto.randomUUID()];
    const first = await manager.from('front_end_team_advisors').insert([
      { id: kept, store_id: demo.storeA, advisor_name: 'Kept', is_active: false },
      { id: reset, store_id: demo.storeA, advisor_name: 'Reset', is_active: false },
    ]);
    expect(first.error).toBeNull();
    const { data, error, status } = await manager
      .from('front_end_team_advisors')
      .upsert([
        { id: kept, store_id: demo.storeA, advisor_name: 'Kept again', is_active: false },
        { id: reset, store_id: demo.storeA, advisor_name: 'Reset again' },
      ], { defaultToNull: false })
      .select('advisor_name, is_active');
    expect({ error, status }).toEqual({ error: null, status: 200 });
    expect(data).toEqual([{ advisor_name: 'Kept again', is_active: false }, { advisor_name: 'Reset again', is_active: true }]);
  });

  it('still refuses an explicit null where the column may not be null, and changes nothing', async () => {
    const before = await stack.database.query<{ n: number }>(`select count(*)::int as n from front_end_team_advisors`);
    const { error, status } = await manager
      .from('front_end_team_advisors')
      .insert([{ store_id: demo.storeA, advisor_name: 'Nulled', is_active: null }, { store_id: demo.storeA, advisor_name: 'Fine' }], { defaultToNull: false });
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: '23502' });
    const after = await stack.database.query<{ n: number }>(`select count(*)::int as n from front_end_team_advisors`);
    expect(after.rows).toEqual(before.rows);
  });
});
