import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../support/as-role.ts';
import { attempt } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';
import { provisionRlsFixtures, rlsFixtures } from './fixtures.ts';

const admin: Actor = { role: 'authenticated', userId: demo.adminId };
const manager: Actor = { role: 'authenticated', userId: demo.managerId };
const otherStoreUser: Actor = { role: 'authenticated', userId: demo.otherId };
const selfPromoted: Actor = { role: 'authenticated', userId: rlsFixtures.selfPromotedUserId };

const upsert = `insert into public.user_dashboard_preferences (user_id, store_id, selected_kpis, kpi_order)
                values ($1, $2, $3, $3)
                on conflict (user_id, store_id) do update set selected_kpis = excluded.selected_kpis,
                  kpi_order = excluded.kpi_order`;

for (const engine of engines) {
  describe(`user_dashboard_preferences row-level security on ${engine}`, () => {
    let db: TestDatabase;
    const readAll = (actor: Actor) =>
      attempt(db, actor, 'select user_id::text from public.user_dashboard_preferences order by user_id');

    beforeAll(async () => {
      db = await createTestDatabase(engine);
      await provisionRlsFixtures(db);
      for (const [userId, storeId] of [
        [demo.adminId, demo.storeA],
        [demo.managerId, demo.storeA],
        [demo.otherId, demo.storeB],
      ]) {
        await db.query(upsert, [userId, storeId, ['cpElr', 'totalElr']]);
      }
    });
    afterAll(() => db?.dispose());

    describe('as the owner', () => {
      it("reads only the user's own preferences, not a colleague's in the same store", async () => {
        expect(await readAll(manager)).toMatchObject({ rows: [{ user_id: demo.managerId }] });
      });
      it('saves preferences for the own store', async () => {
        expect(await attempt(db, manager, upsert, [demo.managerId, demo.storeA, ['hoursPerDay']])).toMatchObject({
          affected: 1,
        });
      });
      it('cannot file preferences under another store', async () => {
        expect(await attempt(db, manager, upsert, [demo.managerId, demo.storeB, ['hoursPerDay']])).toMatchObject({
          error: '42501',
        });
      });
      it('cannot write unknown KPI ids', async () => {
        expect(await attempt(db, manager, upsert, [demo.managerId, demo.storeA, ['bogusKpi']])).toMatchObject({
          error: '23514',
        });
      });
    });

    describe('as an admin', () => {
      it("cannot read or overwrite another user's preferences", async () => {
        expect(await readAll(admin)).toMatchObject({ rows: [{ user_id: demo.adminId }] });
        expect(await attempt(db, admin, upsert, [demo.managerId, demo.storeA, ['cpElr']])).toMatchObject({
          error: '42501',
        });
      });
    });

    describe('as a member of another store', () => {
      it('reads only the own preferences', async () => {
        expect(await readAll(otherStoreUser)).toMatchObject({ rows: [{ user_id: demo.otherId }] });
      });
    });

    describe('as an anonymous caller', () => {
      it('reads nothing and writes nothing', async () => {
        expect(await readAll({ role: 'anon' })).toMatchObject({ error: '42501' });
        expect(await attempt(db, { role: 'anon' }, upsert, [demo.managerId, demo.storeA, ['cpElr']])).toMatchObject({
          error: '42501',
        });
      });
    });

    describe('as a user who wrote store_id into their own user_metadata', () => {
      it('cannot save preferences for that store', async () => {
        expect(
          await attempt(db, selfPromoted, upsert, [rlsFixtures.selfPromotedUserId, demo.storeA, ['cpElr']]),
        ).toMatchObject({ error: '42501' });
        expect(await readAll(selfPromoted)).toMatchObject({ rows: [] });
      });
    });
  });
}
