/**
 * The change history's promises through the real HTTP API and supabase-js, on each
 * engine: a figure's id and date cannot be changed by a PATCH (refused, nothing written),
 * a push that names another id changes the value and keeps the id (and the history has
 * it), the server stamps created_at whatever a client sends, and the name in the history
 * is not one the person gave themselves.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyCalendarColumns } from '../../../src/domain/calendar.ts';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { engines } from '../../support/test-databases.ts';

const forged = '2000-01-01T00:00:00+00:00';

for (const engine of engines) {
  describe(`the change history over HTTP on ${engine}`, () => {
    let stack: TestStack;
    let manager: SupabaseClient;
    let cell: { id: string; store_id: string; entry_date: string; row_identifier: string; metric_type: string };
    let createdAt: string;

    beforeAll(async () => {
      stack = await startTestStack({ engine });
      manager = await stack.signIn('manager@example.com');
      const key = { store_id: demo.storeA, entry_date: '2031-03-10', row_identifier: 'CP', metric_type: 'hours' };
      const added = await manager
        .from('daily_inputs')
        .insert({ ...key, ...dailyCalendarColumns(key.entry_date), value: 8, created_at: forged })
        .select('id, created_at')
        .single();
      expect(added.error).toBeNull();
      cell = { id: String(added.data!.id), ...key };
      createdAt = String(added.data!.created_at);
    }, 60_000);
    afterAll(() => stack?.stop());

    const stored = async () => (await manager.from('daily_inputs').select('id, entry_date, value, created_at').eq('store_id', demo.storeA).eq('entry_date', cell.entry_date).eq('row_identifier', 'CP').eq('metric_type', 'hours').single()).data;
    const historyOfValue = async () =>
      (await manager.from('change_history').select('field, old_value, new_value, changed_by, changed_by_name').eq('table_name', 'daily_inputs').eq('field', 'value').contains('row_key', { entry_date: cell.entry_date, row_identifier: 'CP', metric_type: 'hours' }).order('id')).data ?? [];

    it('stamps created_at when the row reaches the server, not as the client sent it', () => {
      expect(createdAt).not.toBe(forged);
      expect(Date.parse(createdAt)).toBeGreaterThan(Date.now() - 120_000);
    });

    it('refuses a PATCH that gives a figure a new id, and changes nothing', async () => {
      const before = await historyOfValue();
      const answer = await manager.from('daily_inputs').update({ id: randomUUID(), value: 999 }).eq('id', cell.id).select();
      expect(answer.status).toBe(400);
      expect(answer.error).toMatchObject({ code: '23I01' });
      expect(answer.error?.message).toMatch(/^id of a daily_inputs row cannot change/);
      expect(await stored()).toMatchObject({ id: cell.id, value: 8 });
      expect(await historyOfValue()).toEqual(before);
    });

    it('refuses a PATCH that moves a figure to another day, and changes nothing', async () => {
      const answer = await manager.from('daily_inputs').update({ entry_date: '2031-03-11', ...dailyCalendarColumns('2031-03-11') }).eq('id', cell.id).select();
      expect(answer.error).toMatchObject({ code: '23I01' });
      expect(answer.error?.message).toMatch(/^entry_date of a daily_inputs row cannot change/);
      expect(await stored()).toMatchObject({ id: cell.id, entry_date: '2031-03-10' });
    });

    it('keeps the id of a figure a push names with another id, records the new value, and keeps created_at', async () => {
      const before = await stored();
      const pushed = await manager.rpc('push_changes_reported', {
        p_table: 'daily_inputs',
        p_rows: [{ ...cell, id: randomUUID(), value: 7.5, created_at: forged }],
        p_typed_at: [new Date().toISOString()],
        p_device: 'tablet-http',
      });
      expect(pushed.error).toBeNull();
      expect(pushed.data.rows).toMatchObject([{ id: cell.id, value: 7.5 }]);
      expect(await stored()).toMatchObject({ id: cell.id, value: 7.5, created_at: before!.created_at });
      expect((await historyOfValue()).at(-1)).toMatchObject({ old_value: 8, new_value: 7.5, changed_by: demo.managerId });
    });

    it("names the person in the history from their account as an admin keeps it, not from what they set about themselves", async () => {
      const renamed = await manager.auth.updateUser({ data: { display_name: 'Forged Name', displayName: 'Forged Name', first_name: 'Forged', last_name: 'Name' } });
      expect(renamed.error).toBeNull();
      await manager.auth.refreshSession();
      const written = await manager.from('daily_inputs').update({ value: 6 }).match({ store_id: demo.storeA, entry_date: cell.entry_date, row_identifier: 'CP', metric_type: 'hours' }).select('value');
      expect(written.error).toBeNull();
      const last = (await historyOfValue()).at(-1);
      expect(last).toMatchObject({ new_value: 6, changed_by: demo.managerId });
      expect(last?.changed_by_name).not.toMatch(/Forged/);
      // The one function that names a person (on closures too) gave it.
      const { rows } = await stack.database.query<{ name: string }>('select private.person_name($1) as name', [demo.managerId]);
      expect(last?.changed_by_name).toBe(rows[0]!.name);
    });
  });
}
