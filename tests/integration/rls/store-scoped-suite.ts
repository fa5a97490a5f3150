/**
 * The row-level security contract every store data table shares, written once and
 * declared by one file per table: members of a store read and write only that store's
 * rows, nobody deletes through the API, anonymous callers get nothing, and metadata a
 * user set on themselves (user_metadata) grants nothing. Runs as SQL on every test
 * engine, and through supabase-js against the embedded stack.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../supabase/local/db/database.ts';
import type { Actor, Outcome } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';
import type { TableAccess } from './access.ts';
import { httpAccess, sqlAccess } from './access.ts';
import { insertRow, provisionRlsFixtures, rlsFixtures } from './fixtures.ts';

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

/** A database with the fixtures, the access to test through, and how to shut it down. */
export type RlsBackend = { name: string; open(): Promise<{ db: Database; access: TableAccess; close(): Promise<void> }> };

export const rlsBackends: RlsBackend[] = [
  ...engines.map((engine) => ({
    name: `${engine} as SQL`,
    async open() {
      const db = await createTestDatabase(engine);
      return { db, access: sqlAccess(db), close: () => db.dispose() };
    },
  })),
  {
    name: 'the REST API (supabase-js)',
    async open() {
      const stack = await startTestStack();
      return { db: stack.database, access: httpAccess(stack), close: () => stack.stop() };
    },
  },
];

/** The database (with the fixtures) and access one backend's table suites share. */
type OpenedBackend = { db: Database; access: TableAccess };

/**
 * Declares the contract for every table in `specs`, on one database per backend: each
 * table's rows are its own (their natural keys use far-off dates or ids), so the tables
 * need no database each.
 */
export function describeStoreScopedTables(specs: StoreScopedTableSpec[]): void {
  for (const backend of rlsBackends) {
    describe(`store data tables through ${backend.name}`, () => {
      let opened: OpenedBackend;
      let close: (() => Promise<void>) | undefined;
      beforeAll(async () => {
        const backendOpened = await backend.open();
        close = backendOpened.close;
        await provisionRlsFixtures(backendOpened.db);
        opened = backendOpened;
      });
      afterAll(() => close?.());
      for (const spec of specs) describeTable(spec, backend.name, () => opened);
    });
  }
}

function describeTable(spec: StoreScopedTableSpec, backendName: string, backend: () => OpenedBackend): void {
  const { table } = spec;
  const ctxA = (n: number): RowContext => ({ storeId: demo.storeA, advisorId: rlsFixtures.advisorA, n });
  const ctxB = (n: number): RowContext => ({ storeId: demo.storeB, advisorId: rlsFixtures.advisorB, n });
  const [column, value] = spec.change;

  describe(`${table} row-level security through ${backendName}`, () => {
    let access: TableAccess;
    let rowA: string;
    let rowB: string;

    const insertAs = (actor: Actor, row: Record<string, unknown>) => access.upsert(actor, table, row, spec.naturalKey);
    const selectBoth = (actor: Actor) => access.selectIds(actor, table, [rowA, rowB]);
    const update = (actor: Actor, id: string) => access.update(actor, table, id, { [column]: value });

    beforeAll(async () => {
      const { db } = backend();
      access = backend().access;
      rowA = await insertRow(db, table, spec.row(ctxA(1)), spec.naturalKey);
      rowB = await insertRow(db, table, spec.row(ctxB(1)), spec.naturalKey);
    });

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
        expectRefused(await access.update(manager, table, rowA, { store_id: demo.storeB }));
      });
      it('cannot delete rows (removal goes through deleted_at so pulls see it)', async () => {
        expectRefused(await access.remove(manager, table, rowA));
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
