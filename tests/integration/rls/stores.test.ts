import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../supabase/local/db/database.ts';
import type { Actor, Outcome } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TableAccess } from './access.ts';
import { provisionRlsFixtures, rlsFixtures } from './fixtures.ts';
import { rlsBackends } from './store-scoped-suite.ts';

const admin: Actor = { role: 'authenticated', userId: demo.adminId };
const manager: Actor = { role: 'authenticated', userId: demo.managerId };
const otherStoreUser: Actor = { role: 'authenticated', userId: demo.otherId };
const anonymous: Actor = { role: 'anon' };
const selfPromoted: Actor = { role: 'authenticated', userId: rlsFixtures.selfPromotedUserId };

function names(outcome: Outcome): string[] {
  if ('error' in outcome) throw new Error(`unexpected ${outcome.error}: ${outcome.message}`);
  return outcome.rows.map((row) => String(row.name));
}

for (const backend of rlsBackends) {
  describe(`stores row-level security through ${backend.name}`, () => {
    let db: Database;
    let access: TableAccess;
    let close: () => Promise<void>;
    let spareStore: string;
    const listStores = (actor: Actor) => access.selectColumn(actor, 'stores', 'name');
    const addStore = (actor: Actor) => access.insert(actor, 'stores', { name: 'Westside Motors', subdomain: 'westside' });
    const rename = (actor: Actor, id: string) => access.update(actor, 'stores', id, { name: 'Renamed' });
    const remove = (actor: Actor, id: string) => access.remove(actor, 'stores', id);

    beforeAll(async () => {
      ({ db, access, close } = await backend.open());
      await provisionRlsFixtures(db);
      const { rows } = await db.query<{ id: string }>(`insert into public.stores (name) values ('Spare Store') returning id`);
      spareStore = rows[0]?.id as string;
    });
    afterAll(() => close?.());

    describe('as an admin', () => {
      it('reads every store', async () => {
        expect(names(await listStores(admin))).toEqual(['Demo Motors', 'Northside Auto Service', 'Spare Store']);
      });
      it('adds, renames and deletes stores', async () => {
        expect(await addStore(admin)).toMatchObject({ affected: 1 });
        expect(await rename(admin, spareStore)).toMatchObject({ affected: 1 });
        expect(await remove(admin, spareStore)).toMatchObject({ affected: 1 });
      });
    });

    describe('as a member of a store', () => {
      it('reads only the own store', async () => {
        expect(names(await listStores(manager))).toEqual(['Demo Motors']);
      });
      it('cannot add, rename or delete stores', async () => {
        expect(await access.insert(manager, 'stores', { name: 'Eastside' })).toMatchObject({ error: '42501' });
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
        expect(await listStores(anonymous)).toMatchObject({ error: '42501' });
        expect(await access.insert(anonymous, 'stores', { name: 'Eastside' })).toMatchObject({ error: '42501' });
      });
    });

    describe('as a user who wrote is_admin and store_id into their own user_metadata', () => {
      it('gains nothing', async () => {
        expect(names(await listStores(selfPromoted))).toEqual([]);
        expect(await access.insert(selfPromoted, 'stores', { name: 'Eastside' })).toMatchObject({ error: '42501' });
        expect(await remove(selfPromoted, demo.storeA)).toMatchObject({ affected: 0 });
      });
    });

    describe('the access helpers', () => {
      it('report store and admin flag from app_metadata only', async () => {
        expect(await access.rpc(admin, 'get_user_store_id')).toMatchObject({ rows: [{ value: demo.storeA }] });
        expect(await access.rpc(admin, 'is_user_admin')).toMatchObject({ rows: [{ value: true }] });
        expect(await access.rpc(manager, 'is_user_admin')).toMatchObject({ rows: [{ value: false }] });
        expect(await access.rpc(selfPromoted, 'get_user_store_id')).toMatchObject({ rows: [{ value: null }] });
        expect(await access.rpc(selfPromoted, 'is_user_admin')).toMatchObject({ rows: [{ value: false }] });
        expect(await access.rpc(anonymous, 'is_user_admin')).toMatchObject({ error: '42501' });
      });
      it('accept the admin flag written as the string "true"', async () => {
        const setFlag = (flag: unknown) =>
          db.query(`update auth.users set raw_app_meta_data = raw_app_meta_data || jsonb_build_object('is_admin', $2::jsonb) where id = $1`, [
            demo.managerId,
            JSON.stringify(flag),
          ]);
        await setFlag('true');
        const outcome = await access.rpc(manager, 'is_user_admin');
        await setFlag(false);
        expect(outcome).toMatchObject({ rows: [{ value: true }] });
      });
    });
  });
}
