import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../support/as-role.ts';
import { attempt } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

const manager: Actor = { role: 'authenticated', userId: demo.managerId };
const admin: Actor = { role: 'authenticated', userId: demo.adminId };
const other: Actor = { role: 'authenticated', userId: demo.otherId };
const row = (value: number) => ({
  store_id: demo.storeA, entry_date: '2033-05-04', year: 2033, month: 5, day_of_week_iso: 3, row_identifier: 'CP', metric_type: 'hours', value,
});
const json = (value: unknown) => `'${JSON.stringify(value).replaceAll("'", "''")}'::jsonb`;

type HistoryRow = { field: string; old_value: unknown; new_value: unknown; changed_by: string; device_id: string | null; typed_at: string | null };

for (const engine of engines) {
  describe(`change history on ${engine}`, () => {
    let db: TestDatabase;

    /** As a signed-in person, committed, optionally with a request's headers as the REST service sets them. */
    async function commitAs(userId: string, sql: string, headers: Record<string, string> = {}) {
      await db.transaction(async (tx) => {
        await tx.query(
          "select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true), set_config('request.headers', $2, true)",
          [JSON.stringify({ sub: userId, role: 'authenticated' }), JSON.stringify(headers)],
        );
        await tx.query(sql);
      });
    }
    const history = async () =>
      (
        await db.query<HistoryRow>(
          `select field, old_value, new_value, changed_by::text as changed_by, device_id, to_char(typed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as typed_at
           from change_history where table_name = 'daily_inputs' and row_key ->> 'entry_date' = '2033-05-04' order by id`,
        )
      ).rows;

    beforeAll(async () => {
      db = await createTestDatabase(engine);
    });
    afterAll(() => db?.dispose());

    it('records a push with who, the device and when each row was typed', async () => {
      await commitAs(demo.managerId, `select public.push_changes_reported('daily_inputs', ${json([row(5)])}, ${json(['2033-05-04T08:15:00Z'])}, 'tablet-7')`);
      expect(await history()).toEqual([
        { field: 'value', old_value: null, new_value: 5, changed_by: demo.managerId, device_id: 'tablet-7', typed_at: '2033-05-04T08:15:00' },
      ]);
    });

    it('records a plain REST update with the device header, and a delete', async () => {
      await commitAs(demo.managerId, `update daily_inputs set value = 7 where entry_date = '2033-05-04'`, { 'x-device-id': 'desk-1' });
      await db.transaction(async (tx) => {
        await tx.query("select set_config('role', 'service_role', true), set_config('request.jwt.claims', '{\"role\":\"service_role\"}', true)");
        await tx.query(`delete from daily_inputs where entry_date = '2033-05-04'`);
      });
      const rows = await history();
      expect(rows.slice(1).map((r) => [r.field, r.old_value, r.new_value, r.device_id])).toEqual([
        ['value', 5, 7, 'desk-1'],
        ['value', 7, null, null],
      ]);
      expect(rows.some((r) => ['updated_at', 'sync_xid', 'id'].includes(r.field))).toBe(false);
    });

    it('cannot be written, changed or deleted by any user', async () => {
      for (const actor of [manager, admin]) {
        expect(await attempt(db, actor, `insert into change_history (store_id, table_name, row_key, field) values ('${demo.storeA}', 'x', '{}', 'y')`)).toMatchObject({ error: '42501' });
        expect(await attempt(db, actor, `update change_history set new_value = '1'`)).toMatchObject({ error: '42501' });
        expect(await attempt(db, actor, `delete from change_history`)).toMatchObject({ error: '42501' });
      }
      expect(await attempt(db, { role: 'anon' }, 'select * from change_history')).toMatchObject({ error: '42501' });
    });

    it("is read by the store's own users and by admins, not by other stores", async () => {
      const count = async (actor: Actor) => (await attempt<{ n: string }>(db, actor, 'select count(*)::text as n from change_history')) as { rows: Array<{ n: string }> };
      expect((await count(manager)).rows[0]?.n).toBe('3');
      expect((await count(admin)).rows[0]?.n).toBe('3');
      expect((await count(other)).rows[0]?.n).toBe('0');
    });
  });
}
