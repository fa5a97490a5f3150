/**
 * The closed-month migration on a database that already has accounts and closed months:
 * the names an admin wrote (into user_metadata, before the admin function kept them in
 * app_metadata too) become the admin-managed names, an admin-given name already there is
 * kept, and months closed before it keep the store's settings of the day, marked as
 * changed so that devices pull them again.
 */
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, migrationsDir, seed } from '../../../supabase/local/db/migrate.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

const version = '20260702000000';
const ids = { admin: 'aaaaaaaa-0000-4000-8000-0000000000a1', named: 'aaaaaaaa-0000-4000-8000-0000000000a2', self: 'aaaaaaaa-0000-4000-8000-0000000000a3' };

async function migrationsBefore(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
  for (const file of await readdir(migrationsDir)) {
    if (file.endsWith('.sql') && file < version) await cp(path.join(migrationsDir, file), path.join(dir, file));
  }
  return dir;
}

for (const engine of engines) {
  describe(`the closed-month migration on a database in use, on ${engine}`, () => {
    let db: TestDatabase;
    let before: string;
    let closedXid = '';

    beforeAll(async () => {
      before = await migrationsBefore();
      db = await createTestDatabase(engine, { migrate: false });
      await applyMigrations(db, before);
      await seed(db);
      await db.query(
        `insert into auth.users (id, aud, role, email, raw_app_meta_data, raw_user_meta_data) values
           ($1, 'authenticated', 'authenticated', 'made.by.admin@example.com', '{"provider": "email", "store_id": "${demo.storeA}"}',
            '{"firstName": " Nia ", "lastName": "Lopez", "displayName": null, "store_id": "${demo.storeA}"}'),
           ($2, 'authenticated', 'authenticated', 'named@example.com', '{"provider": "email", "displayName": "Kept Name"}', '{"displayName": "Other Name"}'),
           ($3, 'authenticated', 'authenticated', 'self.signed.up@example.com', '{"provider": "email"}', '{"display_name": "Chosen"}')`,
        [ids.admin, ids.named, ids.self],
      );
      await db.query(`update public.store_settings set work_week = '1111100', mix_target_cp = 50, mix_target_w = 30, mix_target_i = 20 where store_id = $1`, [demo.storeA]);
      await db.query(
        `insert into public.month_closures (store_id, month_start, year, closed, closed_by, closed_by_name, closed_at) values
           ($1, '2031-03-01', 2031, true, $2, 'manager@example.com', '2031-04-02'), ($1, '2031-04-01', 2031, false, null, null, null),
           ($3, '2031-03-01', 2031, true, $4, 'other@example.com', '2031-04-02')`,
        [demo.storeA, demo.managerId, demo.storeB, demo.otherId],
      );
      closedXid = (await db.query<{ xid: string }>(`select max(sync_xid::text::bigint)::text as xid from public.month_closures`)).rows[0]?.xid ?? '';
      expect(await applyMigrations(db)).toContain(`${version}_closed_month_inputs.sql`);
    });
    afterAll(async () => {
      await db?.dispose();
      if (before) await rm(before, { recursive: true, force: true });
    });

    it('copies the names an admin wrote into app_metadata once, keeping names already there', async () => {
      const { rows } = await db.query<{ email: string; names: unknown; name: string }>(
        `select email, jsonb_strip_nulls(jsonb_build_object('displayName', raw_app_meta_data -> 'displayName', 'firstName', raw_app_meta_data -> 'firstName', 'lastName', raw_app_meta_data -> 'lastName')) as names,
                private.person_name(id) as name
         from auth.users where id = any ($1::uuid[]) order by email`,
        [[ids.admin, ids.named, ids.self]],
      );
      expect(rows).toEqual([
        { email: 'made.by.admin@example.com', names: { firstName: 'Nia', lastName: 'Lopez' }, name: 'Nia Lopez' },
        { email: 'named@example.com', names: { displayName: 'Kept Name' }, name: 'Kept Name' },
        { email: 'self.signed.up@example.com', names: {}, name: 'self.signed.up@example.com' },
      ]);
    });

    it("gives months closed before it the store's settings of the day, and devices pull them again", async () => {
      const { rows } = await db.query(
        `select store_id::text, month_start::text, work_week, mix_target_cp::int as cp, mix_target_w::int as w, mix_target_i::int as i,
                closed_by_name, sync_xid::text::bigint > $1::bigint as pulled_again
         from public.month_closures order by store_id, month_start`,
        [closedXid],
      );
      expect(rows).toEqual([
        { store_id: demo.storeA, month_start: '2031-03-01', work_week: '1111100', cp: 50, w: 30, i: 20, closed_by_name: 'manager@example.com', pulled_again: true },
        { store_id: demo.storeA, month_start: '2031-04-01', work_week: null, cp: null, w: null, i: null, closed_by_name: null, pulled_again: false },
        { store_id: demo.storeB, month_start: '2031-03-01', work_week: '1111110', cp: 40, w: 30, i: 30, closed_by_name: 'other@example.com', pulled_again: true },
      ]);
    });
  });
}
