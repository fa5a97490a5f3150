/**
 * Runs the unmodified test suite of @supabase/postgrest-js against the embedded backend
 * and prints how many of its cases pass.
 *
 *   POSTGREST_JS_SUITE=/path/to/supabase-js npx tsx tests/conformance/postgrest-js/run.ts [file filters...]
 *
 * POSTGREST_JS_SUITE is a checkout of supabase-js (the monorepo) or of its
 * packages/core/postgrest-js folder (with the monorepo's tsconfig.base.json two levels up),
 * at the version the app depends on, for example
 *   git --git-dir=<clone>/.git archive v2.109.0 tsconfig.base.json packages/core/postgrest-js | tar -x -C /tmp/supabase-js
 * Nothing of it is copied into this repository or changed: this script loads the suite's
 * own schema and seed (test/supabase/migrations, test/supabase/seed.sql) into a fresh
 * PostgreSQL database (on the server of TEST_DATABASE_URL, default
 * postgres://postgres:postgres@127.0.0.1:5432/postgres; PGlite lacks the PostGIS the
 * schema needs), starts the embedded backend on it with the schemas the suite's
 * supabase/config.toml exposes and the PostgREST settings its schema gives the
 * `authenticator` role (aggregates, plans, tx end), and runs the suite's test files (all
 * but test/v12, as the suite's own CI does) with Vitest, one file at a time in name order
 * as its Jest sequencer does. fetch-shim.ts sends the suite's requests to the backend.
 * The suite expects PostGIS for one table, so the extension must be installed on the
 * server (Debian: postgresql-15-postgis-3). Exits 1 when any case fails.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestModule } from 'vitest/node';
import { startVitest } from 'vitest/node';
import type { Database } from '../../../supabase/local/db/database.ts';
import type { RestSettings, TxEnd } from '../../../supabase/local/rest/rest-settings.ts';
import { startLocalStack } from '../../../supabase/local/server.ts';
import type { TestDatabase } from '../../support/test-databases.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

async function isDirectory(p: string): Promise<boolean> {
  return stat(p).then((s) => s.isDirectory(), () => false);
}

/** The postgrest-js package folder inside the checkout POSTGREST_JS_SUITE names. */
async function suiteFolder(): Promise<string> {
  const given = process.env.POSTGREST_JS_SUITE;
  if (!given) throw new Error('Set POSTGREST_JS_SUITE to a checkout of supabase-js (or of its packages/core/postgrest-js).');
  for (const candidate of [path.join(given, 'packages/core/postgrest-js'), given]) {
    if (await isDirectory(path.join(candidate, 'test/supabase'))) return path.resolve(candidate);
  }
  throw new Error(`${given} holds no postgrest-js test suite (test/supabase/ not found).`);
}

/** The schemas `[api] schemas = [...]` of the suite's Supabase config exposes. */
function exposedSchemas(configToml: string): string[] {
  const api = /\[api\]([\s\S]*?)\n\[/.exec(configToml)?.[1] ?? '';
  const list = /^\s*schemas\s*=\s*\[([^\]]*)\]/m.exec(api)?.[1] ?? '"public"';
  return [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string);
}

/** PostgREST's in-database settings (`alter role authenticator set pgrst.x`) as the backend's REST settings. */
async function pgrstSettings(db: Database): Promise<Partial<RestSettings>> {
  const { rows } = await db.query<{ setting: string }>(
    `select unnest(setconfig) as setting from pg_db_role_setting s join pg_roles r on r.oid = s.setrole where r.rolname = 'authenticator'`,
  );
  const settings: Partial<RestSettings> = {};
  for (const { setting } of rows) {
    const [name, value = ''] = setting.split(/=(.*)/s);
    if (name === 'pgrst.db_aggregates_enabled') settings.aggregatesEnabled = value === 'true';
    if (name === 'pgrst.db_plan_enabled') settings.planEnabled = value === 'true';
    if (name === 'pgrst.db_tx_end') settings.txEnd = value as TxEnd;
  }
  return settings;
}

async function sqlFiles(folder: string): Promise<string[]> {
  const names = (await readdir(folder)).filter((n) => n.endsWith('.sql')).sort();
  return names.map((n) => path.join(folder, n));
}

async function openDatabase(): Promise<TestDatabase> {
  process.env.TEST_DATABASE_URL ??= 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
  // Imported once the server is known: the module reads TEST_DATABASE_URL when it loads.
  const { createTestDatabase } = await import('../../support/test-databases.ts');
  return createTestDatabase('postgres', { migrate: false });
}

/** What a Supabase CLI database has before the suite's migrations, beyond the backend's bootstrap. */
const supabaseRoles = `
do $$ begin
  if not exists (select 1 from pg_roles where rolname = 'authenticator') then
    create role authenticator nologin noinherit;
  end if;
end $$;`;

async function loadSuiteDatabase(db: Database, suite: string): Promise<void> {
  await db.exec(supabaseRoles);
  for (const file of await sqlFiles(path.join(suite, 'test/supabase/migrations'))) await db.exec(await readFile(file, 'utf8'));
  await db.exec(await readFile(path.join(suite, 'test/supabase/seed.sql'), 'utf8'));
}

/** Per file: every case, and (reaching) the cases that sent the backend at least one request. */
type FileCount = { file: string; passed: number; failed: number; skipped: number; reaching: number; reachingPassed: number; failures: string[] };

function countModule(suite: string, module: TestModule): FileCount {
  const file = path.relative(path.join(suite, 'test'), module.moduleId);
  const count: FileCount = { file, passed: 0, failed: 0, skipped: 0, reaching: 0, reachingPassed: 0, failures: [] };
  for (const test of module.children.allTests()) {
    const state = test.result().state;
    if (((test.meta() as { backendRequests?: number }).backendRequests ?? 0) > 0) {
      count.reaching += 1;
      if (state === 'passed') count.reachingPassed += 1;
    }
    if (state === 'passed') count.passed += 1;
    else if (state === 'failed') {
      count.failed += 1;
      count.failures.push(test.fullName);
    } else count.skipped += 1;
  }
  // A file that failed to load counts as one failure, so it is never silently missing.
  if (module.state() === 'failed' && count.passed + count.failed === 0) {
    count.failed = 1;
    count.failures.push(`(the file did not run: ${module.errors().map((e) => e.message.split('\n').find((l) => l.trim()) ?? '').join('; ').slice(0, 200)})`);
  }
  return count;
}

function report(counts: FileCount[], suite: string): boolean {
  const width = Math.max(...counts.map((c) => c.file.length));
  console.log(`\npostgrest-js suite ${suite} on PostgreSQL:`);
  console.log(`  ${'file'.padEnd(width)}  passed/cases  (of the cases that reached the backend)`);
  for (const c of counts) {
    console.log(`  ${c.file.padEnd(width)}  ${`${c.passed}/${c.passed + c.failed}`.padEnd(12)}  (${c.reachingPassed}/${c.reaching})${c.skipped ? `, ${c.skipped} skipped` : ''}`);
  }
  const failing = counts.filter((c) => c.failures.length);
  if (failing.length) {
    console.log('\nfailing:');
    for (const c of failing) for (const name of c.failures) console.log(`  ${c.file} > ${name}`);
  }
  const passed = counts.reduce((n, c) => n + c.passed, 0);
  const failed = counts.reduce((n, c) => n + c.failed, 0);
  const skipped = counts.reduce((n, c) => n + c.skipped, 0);
  const total = passed + failed;
  const reaching = counts.reduce((n, c) => n + c.reaching, 0);
  const reachingPassed = counts.reduce((n, c) => n + c.reachingPassed, 0);
  const share = (n: number, of: number) => (of ? ((100 * n) / of).toFixed(1) : '0.0');
  console.log(`\npassed ${passed} of ${total} (${share(passed, total)}%), failed ${failed}, skipped ${skipped}`);
  console.log(`cases that reached the backend: passed ${reachingPassed} of ${reaching} (${share(reachingPassed, reaching)}%)`);
  return failed === 0;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const suite = await suiteFolder();
  const schemas = exposedSchemas(await readFile(path.join(suite, 'test/supabase/config.toml'), 'utf8'));
  const db = await openDatabase();
  let stack: Awaited<ReturnType<typeof startLocalStack>> | undefined;
  try {
    await loadSuiteDatabase(db, suite);
    const settings = await pgrstSettings(db);
    stack = await startLocalStack({ db, port: 0, migrate: false, rest: { schemas, ...settings } });
    console.log(`embedded backend at ${stack.url}, schemas ${schemas.join(', ')}, settings ${JSON.stringify(settings)}`);
    process.env.POSTGREST_JS_SUITE_BACKEND_URL = stack.url;
    process.env.POSTGREST_JS_SUITE_ANON_KEY = stack.keys.anonKey;
    // CI mode: snapshots are compared, never written into the suite's files.
    process.env.CI = 'true';
    let counts: FileCount[] = [];
    const vitest = await startVitest('test', args, {
      root: suite,
      config: false,
      include: ['test/**/*.test.ts'],
      exclude: ['test/v12/**', '**/node_modules/**'],
      globals: true,
      environment: 'node',
      setupFiles: [path.join(here, 'fetch-shim.ts')],
      fileParallelism: false,
      sequence: { shuffle: false, sequencer: (await import('./name-order.ts')).NameOrder },
      testTimeout: 30_000,
      update: false,
      watch: false,
      reporters: ['dot', { onTestRunEnd: (modules: ReadonlyArray<TestModule>) => void (counts = modules.map((m) => countModule(suite, m))) }],
    }, {
      resolve: { alias: { zod: path.dirname(require.resolve('zod/package.json')) } },
      server: { fs: { strict: false } },
    });
    await vitest?.close();
    counts.sort((a, b) => a.file.localeCompare(b.file));
    process.exitCode = report(counts, suite) ? 0 : 1;
  } finally {
    await stack?.close();
    await db.dispose();
  }
}

main().then(
  () => process.exit(),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
