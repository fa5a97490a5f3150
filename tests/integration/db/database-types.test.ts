/**
 * src/data/database.types.ts is what the migrations give (npm run db:types writes it in the
 * format of `supabase gen types typescript`): regenerated from a migrated database, it must
 * come out the same, so a migration without regenerated types fails here. And the generator
 * follows the database: a new column shows in Row, Insert and Update with its comment.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedTypes, typesFile } from '../../../scripts/db-types.ts';
import { generateTypes } from '../../../scripts/db/typescript-types.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase } from '../../support/test-databases.ts';

describe('the generated database types', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('pglite', { seed: false });
  });
  afterAll(() => db?.dispose());

  it('are what the migrations give (run npm run db:types after a migration)', async () => {
    expect(await readFile(typesFile, 'utf8'), 'src/data/database.types.ts is not what the migrations give: run npm run db:types').toBe(await migratedTypes());
  });

  it('follow the database: a new column, its comment, a function', async () => {
    await db.exec(`
      alter table public.yearly_financial_inputs add column other_exp numeric(14, 2) not null default 0;
      comment on column public.yearly_financial_inputs.other_exp is 'Other expenses, in dollars.';
      create function public.planted_count(p_store uuid, p_year integer default null) returns integer language sql as $$ select 1 $$;`);
    const text = await generateTypes(db);
    const table = text.slice(text.indexOf('      yearly_financial_inputs: {'));
    const row = table.slice(table.indexOf('Row: {'), table.indexOf('Insert: {'));
    const insert = table.slice(table.indexOf('Insert: {'), table.indexOf('Update: {'));
    const update = table.slice(table.indexOf('Update: {'), table.indexOf('Relationships:'));
    expect(row).toContain('/** Other expenses, in dollars. */\n          other_exp: number\n');
    expect(insert).toContain('other_exp?: number\n');
    expect(update).toContain('other_exp?: number\n');
    expect(text).toContain('planted_count: {\n        Args: { p_store: string; p_year?: number }\n        Returns: number\n      }');
  });
});
