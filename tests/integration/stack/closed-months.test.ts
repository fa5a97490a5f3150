/**
 * Closed months seen from outside, through supabase-js against the embedded stack on
 * each engine: a closed month's calendar refuses a new holiday; what a member sends
 * about who closed or reopened a month is not what is stored; and the name on a closure
 * is the one an admin gave through the admin function, not one the person chose.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { engines } from '../../support/test-databases.ts';

const forged = {
  closed_by: demo.otherId,
  closed_by_name: 'Forged Closer',
  closed_at: '2001-01-01T00:00:00+00:00',
  reopened_by: demo.otherId,
  reopened_by_name: 'Forged Reopener',
  reopened_at: '2001-01-01T00:00:00+00:00',
};
const today = new Date().toISOString().slice(0, 10);

for (const engine of engines) {
  describe(`closed months through the API, on ${engine}`, () => {
    let stack: TestStack;
    let manager: SupabaseClient;

    beforeAll(async () => {
      stack = await startTestStack({ engine });
      manager = await stack.signIn('manager@example.com');
      // Anyone may write their own user_metadata; it must not name them on a record.
      expect((await manager.auth.updateUser({ data: { displayName: 'Forged Self', display_name: 'Forged Self', firstName: 'Forged' } })).error).toBeNull();
      const closed = await manager.from('month_closures').insert({ store_id: demo.storeA, month_start: '2031-06-01', year: 2031, ...forged });
      expect(closed.error).toBeNull();
    });
    afterAll(() => stack?.stop());

    it("refuses a holiday added to a closed month's calendar, storing nothing", async () => {
      const { error, status } = await manager.from('store_calendar_days').insert({ store_id: demo.storeA, calendar_date: '2031-06-10', year: 2031, is_work_day: false });
      expect(error).toMatchObject({ code: '23M01', message: expect.stringMatching(/^month closed by Morgan Manager on \d{4}-\d{2}-\d{2}$/) });
      expect(status).toBe(400);
      const { data } = await manager.from('store_calendar_days').select('calendar_date').eq('calendar_date', '2031-06-10');
      expect(data).toEqual([]);
    });

    it('stamps who closed the month from the session, whatever the insert and a later patch say', async () => {
      const patched = await manager.from('month_closures').update(forged).eq('month_start', '2031-06-01').select('closed_by');
      expect(patched.error).toBeNull();
      const { data } = await manager.from('month_closures').select('closed_by, closed_by_name, closed_at, reopened_by, reopened_by_name, reopened_at').eq('month_start', '2031-06-01');
      expect(data).toEqual([
        { closed_by: demo.managerId, closed_by_name: 'Morgan Manager', closed_at: expect.stringMatching(new RegExp(`^${today}`)), reopened_by: null, reopened_by_name: null, reopened_at: null },
      ]);
    });

    it('names a person the admin created by the names the admin gave, even after they rename themselves', async () => {
      const admin = await stack.signIn('admin@example.com');
      const created = await admin.functions.invoke('admin-api', {
        body: {
          action: 'createUser',
          payload: { email: 'nia@example.com', password: 'secret12', user_metadata: { firstName: 'Nia', lastName: 'Lopez', store_id: demo.storeA, is_admin: false } },
        },
      });
      expect(created.error).toBeNull();
      const nia = await stack.signIn('nia@example.com', 'secret12');
      expect((await nia.auth.updateUser({ data: { firstName: 'The', lastName: 'Boss', displayName: 'The Boss' } })).error).toBeNull();
      expect((await nia.from('month_closures').insert({ store_id: demo.storeA, month_start: '2031-07-01', year: 2031 })).error).toBeNull();
      const { data } = await nia.from('month_closures').select('closed_by_name').eq('month_start', '2031-07-01');
      expect(data).toEqual([{ closed_by_name: 'Nia Lopez' }]);
    });
  });
}
