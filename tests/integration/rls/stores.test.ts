import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, Outcome } from '../../support/as-role.ts';
import { attempt } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';
import { provisionRlsFixtures, rlsFixtures } from './fixtures.ts';

const admin: Actor = { role: 'authenticated', userId: demo.adminId };
const manager: Actor = { role: 'authenticated', userId: demo.managerId };
const otherStoreUser: Actor = { role: 'authenticated', userId: demo.otherId };
const selfPromoted: Actor = { role: 'authenticated', userId: rlsFixtures.selfPromotedUserId };

function names(outcome: Outcome): string[] {
  if ('error' in outcome) throw new Error(`unexpected ${outcome.error}: ${outcome.message}`);
  return outcome.rows.map((row) => String(row.name)).sort();
}

for (const engine of engines) {
  describe(`stores row-level security on ${engine}`, () => {
    let db: TestDatabase;
    const listStores = (actor: Actor) => attempt(db, actor, 'select name from public.stores order by name');
    const addStore = (actor: Actor) =>
      attempt(db, actor, `insert into public.stores (name, subdomain) values ('Westside Motors', 'westside') returning id`);
    const rename = (actor: Actor, id: string) =>
      attempt(db, actor, `update public.stores set name = 'Renamed' where id = $1`, [id]);
    const remove = (actor: Actor, id: string) => attempt(db, actor, 'delete from public.stores where id = $1', [id]);

    beforeAll(async () => {
      db = await createTestDatabase(engine);
      await provisionRlsFixtures(db);
    });
    afterAll(() => db?.dispose());

    describe('as an admin', () => {
      it('reads every store', async () => {
        expect(names(await listStores(admin))).toEqual(['Demo Motors', 'Northside Auto Service']);
      });
      it('adds, renames and deletes stores', async () => {
        expect(await addStore(admin)).toMatchObject({ affected: 1 });
        expect(await rename(admin, demo.storeB)).toMatchObject({ affected: 1 });
        expect(await remove(admin, demo.storeB)).toMatchObject({ affected: 1 });
      });
    });

    describe('as a member of a store', () => {
      it('reads only the own store', async () => {
        expect(names(await listStores(manager))).toEqual(['Demo Motors']);
      });
      it('cannot add, rename or delete stores', async () => {
        expect(await addStore(manager)).toMatchObject({ error: '42501' });
        expect(await rename(manager, demo.storeA)).toMatchObject({ affected: 0 });
        expect(await remove(manager, demo.storeA)).toMatchObject({ affected: 0 });
      });
    });

    describe('as a member of another store', () => {
      it('reads only that store', async () => {
        expect(names(await listStores(otherStoreUser))).toEqual(['Northside Auto Service']);
      });
    });

    describe('as an anonymous caller', () => {
      it('reads nothing and writes nothing', async () => {
        expect(await listStores({ role: 'anon' })).toMatchObject({ error: '42501' });
        expect(await addStore({ role: 'anon' })).toMatchObject({ error: '42501' });
      });
    });

    describe('as a user who wrote is_admin and store_id into their own user_metadata', () => {
      it('gains nothing', async () => {
        expect(names(await listStores(selfPromoted))).toEqual([]);
        expect(await addStore(selfPromoted)).toMatchObject({ error: '42501' });
        expect(await remove(selfPromoted, demo.storeA)).toMatchObject({ affected: 0 });
      });
    });

    describe('the access helpers', () => {
      it('report store and admin flag from app_metadata only', async () => {
        const helpers = 'select public.get_user_store_id()::text as store, public.is_user_admin() as admin';
        expect(await attempt(db, admin, helpers)).toMatchObject({ rows: [{ store: demo.storeA, admin: true }] });
        expect(await attempt(db, manager, helpers)).toMatchObject({ rows: [{ store: demo.storeA, admin: false }] });
        expect(await attempt(db, selfPromoted, helpers)).toMatchObject({ rows: [{ store: null, admin: false }] });
        expect(await attempt(db, { role: 'anon' }, helpers)).toMatchObject({ error: '42501' });
      });
      it('accept the admin flag written as the string "true"', async () => {
        await db.query(
          `update auth.users set raw_app_meta_data = raw_app_meta_data || '{"is_admin":"true"}' where id = $1`,
          [demo.managerId],
        );
        const outcome = await attempt(db, manager, 'select public.is_user_admin() as admin');
        await db.query(
          `update auth.users set raw_app_meta_data = raw_app_meta_data || '{"is_admin":false}' where id = $1`,
          [demo.managerId],
        );
        expect(outcome).toMatchObject({ rows: [{ admin: true }] });
      });
    });
  });
}
