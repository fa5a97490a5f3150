import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TableAccess } from './access.ts';
import { provisionRlsFixtures, rlsFixtures } from './fixtures.ts';
import { rlsBackends } from './store-scoped-suite.ts';

const admin: Actor = { role: 'authenticated', userId: demo.adminId };
const manager: Actor = { role: 'authenticated', userId: demo.managerId };
const otherStoreUser: Actor = { role: 'authenticated', userId: demo.otherId };
const anonymous: Actor = { role: 'anon' };
const selfPromoted: Actor = { role: 'authenticated', userId: rlsFixtures.selfPromotedUserId };

const table = 'user_dashboard_preferences';
const key = ['user_id', 'store_id'];
const prefs = (userId: string, storeId: string, kpis: string[]) => ({
  user_id: userId,
  store_id: storeId,
  selected_kpis: kpis,
  kpi_order: kpis,
});

for (const backend of rlsBackends) {
  describe(`user_dashboard_preferences row-level security through ${backend.name}`, () => {
    let access: TableAccess;
    let close: () => Promise<void>;
    const readAll = (actor: Actor) => access.selectColumn(actor, table, 'user_id');

    beforeAll(async () => {
      const opened = await backend.open();
      ({ access, close } = opened);
      await provisionRlsFixtures(opened.db);
      for (const [userId, storeId] of [
        [demo.adminId, demo.storeA],
        [demo.managerId, demo.storeA],
        [demo.otherId, demo.storeB],
      ] as const) {
        await opened.db.query(
          `insert into public.user_dashboard_preferences (user_id, store_id, selected_kpis) values ($1, $2, $3)`,
          [userId, storeId, ['cpElr', 'totalElr']],
        );
      }
    });
    afterAll(() => close?.());

    describe('as the owner', () => {
      it("reads only the user's own preferences, not a colleague's in the same store", async () => {
        expect(await readAll(manager)).toMatchObject({ rows: [{ user_id: demo.managerId }] });
      });
      it('saves preferences for the own store', async () => {
        expect(await access.upsert(manager, table, prefs(demo.managerId, demo.storeA, ['hoursPerDay']), key)).toMatchObject({ affected: 1 });
      });
      it('cannot file preferences under another store', async () => {
        expect(await access.upsert(manager, table, prefs(demo.managerId, demo.storeB, ['hoursPerDay']), key)).toMatchObject({ error: '42501' });
      });
      it('cannot write unknown KPI ids', async () => {
        expect(await access.upsert(manager, table, prefs(demo.managerId, demo.storeA, ['bogusKpi']), key)).toMatchObject({ error: '23514' });
      });
    });

    describe('as an admin', () => {
      it("cannot read or overwrite another user's preferences", async () => {
        expect(await readAll(admin)).toMatchObject({ rows: [{ user_id: demo.adminId }] });
        expect(await access.upsert(admin, table, prefs(demo.managerId, demo.storeA, ['cpElr']), key)).toMatchObject({ error: '42501' });
      });
    });

    describe('as a member of another store', () => {
      it('reads only the own preferences', async () => {
        expect(await readAll(otherStoreUser)).toMatchObject({ rows: [{ user_id: demo.otherId }] });
      });
    });

    describe('as an anonymous caller', () => {
      it('reads nothing and writes nothing', async () => {
        expect(await readAll(anonymous)).toMatchObject({ error: '42501' });
        expect(await access.upsert(anonymous, table, prefs(demo.managerId, demo.storeA, ['cpElr']), key)).toMatchObject({ error: '42501' });
      });
    });

    describe('as a user who wrote store_id into their own user_metadata', () => {
      it('cannot save preferences for that store', async () => {
        expect(
          await access.upsert(selfPromoted, table, prefs(rlsFixtures.selfPromotedUserId, demo.storeA, ['cpElr']), key),
        ).toMatchObject({ error: '42501' });
        expect(await readAll(selfPromoted)).toMatchObject({ rows: [] });
      });
    });
  });
}
