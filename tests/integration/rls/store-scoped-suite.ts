/**
 * The row-level security contract every store data table shares, written once and
 * declared by one file per table: members of a store read and write only that store's
 * rows, nobody deletes through the API, anonymous callers get nothing, and metadata a
 * user set on themselves (user_metadata) grants nothing. Runs on every test engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, Outcome } from '../../support/as-role.ts';
import { attempt } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';
import { insertRow, provisionRlsFixtures, rlsFixtures, upsertSql } from './fixtures.ts';

export type RowContext = { storeId: string; advisorId: string; n: number };

export type StoreScopedTableSpec = {
  table: string;
  /** A valid row for the store; `n` varies the natural key so rows never collide. */
  row: (ctx: RowContext) => Record<string, unknown>;
  /** The unique key clients upsert on (the push uses exactly this conflict target). */
  naturalKey: string[];
  /** A column and a new value an update may set. */
  change: [column: string, value: unknown];
};

const manager: Actor = { role: 'authenticated', userId: demo.managerId };
const admin: Actor = { role: 'authenticated', userId: demo.adminId };
const otherStoreUser: Actor = { role: 'authenticated', userId: demo.otherId };
const anonymous: Actor = { role: 'anon' };
const selfPromoted: Actor = { role: 'authenticated', userId: rlsFixtures.selfPromotedUserId };
const serviceRole: Actor = { role: 'service_role' };

function expectRefused(outcome: Outcome) {
  expect(outcome).toMatchObject({ error: '42501' });
}

function affected(outcome: Outcome): number {
  if ('error' in outcome) throw new Error(`unexpected ${outcome.error}: ${outcome.message}`);
  return outcome.affected;
}

function ids(outcome: Outcome): string[] {
  if ('error' in outcome) throw new Error(`unexpected ${outcome.error}: ${outcome.message}`);
  return outcome.rows.map((row) => String(row.id)).sort();
}

export function describeStoreScopedTable(spec: StoreScopedTableSpec): void {
  const { table } = spec;
  const ctxA = (n: number): RowContext => ({ storeId: demo.storeA, advisorId: rlsFixtures.advisorA, n });
  const ctxB = (n: number): RowContext => ({ storeId: demo.storeB, advisorId: rlsFixtures.advisorB, n });

  for (const engine of engines) {
    describe(`${table} row-level security on ${engine}`, () => {
      let db: TestDatabase;
      let rowA: string;
      let rowB: string;

      const insertAs = (actor: Actor, row: Record<string, unknown>) =>
        attempt(db, actor, upsertSql(table, Object.keys(row), spec.naturalKey), Object.values(row));
      const selectBoth = (actor: Actor) =>
        attempt(db, actor, `select id from public.${table} where id = any($1::uuid[])`, [[rowA, rowB]]);
      const update = (actor: Actor, id: string) =>
        attempt(db, actor, `update public.${table} set ${spec.change[0]} = $1 where id = $2`, [spec.change[1], id]);

      beforeAll(async () => {
        db = await createTestDatabase(engine);
        await provisionRlsFixtures(db);
        rowA = await insertRow(db, table, spec.row(ctxA(1)), spec.naturalKey);
        rowB = await insertRow(db, table, spec.row(ctxB(1)), spec.naturalKey);
      });
      afterAll(() => db?.dispose());

      describe('as a member of the store', () => {
        it("reads the store's rows and none of another store's", async () => {
          expect(ids(await selectBoth(manager))).toEqual([rowA]);
        });
        it('adds (upserts) a row in the store', async () => {
          expect(affected(await insertAs(manager, spec.row(ctxA(2))))).toBe(1);
        });
        it('cannot add a row to another store', async () => {
          expectRefused(await insertAs(manager, spec.row(ctxB(2))));
        });
        it("changes the store's rows but not another store's", async () => {
          expect(affected(await update(manager, rowA))).toBe(1);
          expect(affected(await update(manager, rowB))).toBe(0);
        });
        it('cannot move a row to another store', async () => {
          expectRefused(
            await attempt(db, manager, `update public.${table} set store_id = $1 where id = $2`, [demo.storeB, rowA]),
          );
        });
        it('cannot delete rows (removal goes through deleted_at so pulls see it)', async () => {
          expectRefused(await attempt(db, manager, `delete from public.${table} where id = $1`, [rowA]));
        });
      });

      describe('as an admin', () => {
        it("reads only the admin's own store's rows", async () => {
          expect(ids(await selectBoth(admin))).toEqual([rowA]);
        });
        it('cannot add a row to another store', async () => {
          expectRefused(await insertAs(admin, spec.row(ctxB(3))));
        });
      });

      describe('as a member of another store', () => {
        it("reads that store's rows only", async () => {
          expect(ids(await selectBoth(otherStoreUser))).toEqual([rowB]);
        });
        it('cannot change or add rows of the first store', async () => {
          expect(affected(await update(otherStoreUser, rowA))).toBe(0);
          expectRefused(await insertAs(otherStoreUser, spec.row(ctxA(4))));
        });
      });

      describe('as an anonymous caller', () => {
        it('reads nothing and writes nothing', async () => {
          expectRefused(await selectBoth(anonymous));
          expectRefused(await insertAs(anonymous, spec.row(ctxA(5))));
        });
      });

      describe('as a user who wrote store_id and is_admin into their own user_metadata', () => {
        it('gains nothing', async () => {
          expect(ids(await selectBoth(selfPromoted))).toEqual([]);
          expectRefused(await insertAs(selfPromoted, spec.row(ctxA(6))));
          expect(affected(await update(selfPromoted, rowA))).toBe(0);
        });
      });

      describe('as the service role', () => {
        it('reads every store', async () => {
          expect(ids(await selectBoth(serviceRole))).toEqual([rowA, rowB].sort());
        });
      });
    });
  }
}
