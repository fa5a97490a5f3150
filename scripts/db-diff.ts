/**
 * npm run db:diff -- NAME [--version YYYYMMDDHHMMSS] [--dry-run]
 *
 * Writes the next migration from the difference between the declared schema
 * (supabase/schemas) and what the migrations build (supabase/migrations), as
 * `supabase db diff -f NAME` does with a shadow database, here on PGlite: new tables,
 * columns, constraints, indexes, policies, triggers, views, functions and changed bodies,
 * grants, comments, the realtime publication and the synced-table registry's rows. What it
 * cannot write safely (dropping data, changing a column's type) it lists, to be written by
 * hand into the new file. It then applies the migrations with the new file and compares
 * again, and says what still differs. docs/schema.md walks through it.
 */
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { applyMigrations, migrationsDir } from '../supabase/local/db/migrate.ts';
import type { Catalog } from './db/catalog.ts';
import { readCatalog } from './db/catalog.ts';
import { compareCatalogs, describeDifferences } from './db/compare.ts';
import { applyDeclaredSchema } from './db/declared-schema.ts';
import { planMigration } from './db/migration-writer.ts';
import { openScratchDatabase } from './db/scratch-database.ts';
import type { Database } from '../supabase/local/db/database.ts';

export type DiffOptions = { name: string; version?: string; dryRun?: boolean; migrations?: string; supabase?: string; log?: (line: string) => void };
export type DiffResult = { file: string | null; sql: string; byHand: string[]; remaining: string };

async function catalogOf(build: (db: Database) => Promise<unknown>): Promise<Catalog> {
  const db = await openScratchDatabase();
  try {
    await build(db);
    return await readCatalog(db);
  } finally {
    await db.close();
  }
}

function nextVersion(latest: string | undefined, asked: string | undefined): string {
  const now = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const version = asked ?? now;
  if (!/^\d{14}$/.test(version)) throw new Error(`--version takes 14 digits (YYYYMMDDHHMMSS), not "${version}"`);
  if (latest && version <= latest) throw new Error(`version ${version} is not after the latest migration's (${latest}); pass a later --version`);
  return version;
}

export async function diffSchema(options: DiffOptions): Promise<DiffResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const dir = options.migrations ?? migrationsDir;
  if (!/^[a-z0-9_]+$/.test(options.name)) throw new Error(`the migration's name is snake_case words (a-z, 0-9, _), not "${options.name}"`);
  const [deployed, declared] = await Promise.all([
    catalogOf((db) => applyMigrations(db, dir)),
    catalogOf((db) => applyDeclaredSchema(db, options.supabase)),
  ]);
  const differences = compareCatalogs(deployed, declared);
  if (differences.length === 0) {
    log('supabase/schemas and supabase/migrations build the same database: no migration to write.');
    return { file: null, sql: '', byHand: [], remaining: '' };
  }
  const plan = planMigration(deployed, declared, differences);
  const latest = (await readdir(dir)).filter((f) => /^\d{14}_.+\.sql$/.test(f)).sort().at(-1)?.slice(0, 14);
  const version = nextVersion(latest, options.version);
  const file = path.join(dir, `${version}_${options.name}.sql`);
  const header = [
    `-- ${options.name.replaceAll('_', ' ')}: written by npm run db:diff from supabase/schemas.`,
    '-- Say here why the change is made (docs/schema.md).',
    ...(plan.byHand.length ? ['--', '-- To write by hand before this migration is done:', ...plan.byHand.map((line) => `--  * ${line}`)] : []),
  ];
  // A statement of several lines stands apart; one-line statements of a kind stay together.
  const body = plan.sections.map((group) => group.join(group.some((statement) => statement.includes('\n')) ? '\n\n' : '\n')).join('\n\n');
  const sql = `${header.join('\n')}\n\n${body}\n`;
  log(`Differences found:\n${describeDifferences(differences)}\n`);
  if (options.dryRun) {
    log(sql);
    return { file: null, sql, byHand: plan.byHand, remaining: '' };
  }
  await writeFile(file, sql);
  log(`Wrote ${path.relative(process.cwd(), file)} (${plan.statements.length} statements).`);
  const after = await catalogOf((db) => applyMigrations(db, dir)).catch((error: unknown) => {
    throw new Error(`${path.relative(process.cwd(), file)} does not apply: ${error instanceof Error ? error.message : String(error)}; correct it by hand`);
  });
  const remaining = describeDifferences(compareCatalogs(after, declared));
  if (plan.byHand.length) log(`Write by hand (listed at the top of the file):\n${plan.byHand.map((line) => `- ${line}`).join('\n')}`);
  if (remaining) log(`Still different after it:\n${remaining}`);
  else log('With it, the migrations build the declared schema.');
  return { file, sql, byHand: plan.byHand, remaining };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const index = args.indexOf(name);
    if (index < 0) return undefined;
    const [value] = args.splice(index, 2).slice(1);
    return value;
  };
  const dryRun = args.includes('--dry-run');
  const version = flag('--version');
  const name = args.filter((arg) => arg !== '--dry-run')[0];
  if (!name) {
    console.error('Usage: npm run db:diff -- NAME [--version YYYYMMDDHHMMSS] [--dry-run]');
    process.exit(2);
  }
  diffSchema({ name, version, dryRun })
    .then((result) => process.exit(result.byHand.length || result.remaining ? 1 : 0))
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
