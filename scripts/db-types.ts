/**
 * npm run db:types [-- --check]
 *
 * Writes src/data/database.types.ts from a database built by the migrations (on PGlite),
 * as `supabase gen types typescript --local` would from a migrated local database. With
 * --check it writes nothing and fails when the file is not what the migrations give.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPgliteDatabase } from '../supabase/local/db/pglite-database.ts';
import { applyMigrations, bootstrap } from '../supabase/local/db/migrate.ts';
import { generateTypes } from './db/typescript-types.ts';

export const typesFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/data/database.types.ts');

/** The types the migrations give, as the file's text. */
export async function migratedTypes(): Promise<string> {
  const db = await openPgliteDatabase();
  try {
    await bootstrap(db);
    await applyMigrations(db);
    return await generateTypes(db);
  } finally {
    await db.close();
  }
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const check = process.argv.includes('--check');
  migratedTypes()
    .then(async (text) => {
      const current = await readFile(typesFile, 'utf8').catch(() => '');
      const relative = path.relative(process.cwd(), typesFile);
      if (check) {
        if (current !== text) throw new Error(`${relative} is not what the migrations give: run npm run db:types`);
        console.log(`${relative} matches the migrations.`);
      } else if (current === text) console.log(`${relative} is up to date.`);
      else {
        await writeFile(typesFile, text);
        console.log(`Wrote ${relative}.`);
      }
    })
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
