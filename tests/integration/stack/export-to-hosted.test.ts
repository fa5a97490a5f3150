import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { createClient } from '@supabase/supabase-js';
import bcrypt from 'bcryptjs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { advanceTransactionIds } from '../../../supabase/local/backup/restore-backup.ts';
import type { Database } from '../../../supabase/local/db/database.ts';
import { openDatabase } from '../../../supabase/local/db/open.ts';
import { startLocalStack } from '../../../supabase/local/server.ts';
import { runScript } from '../../support/run-script.ts';
import type { BackendProcess } from '../../support/backend-process.ts';
import { startBackendProcess } from '../../support/backend-process.ts';
import { demo } from '../../support/demo.ts';
import type { HostedProject } from '../../support/hosted-project.ts';
import { createHostedProject, gotrueNotNullUserColumns } from '../../support/hosted-project.ts';
import { pgliteDataFolder } from '../../support/database-templates.ts';
import { enrol, enrolAndVerify } from '../../support/mfa.ts';
import { SoftwareAuthenticator } from '../../support/software-authenticator.ts';
import { registerKey, relyingParty } from '../../support/webauthn.ts';

// The way up from one machine to hosted Supabase: a backend with the demo data, a few
// accounts made through its Auth (known passwords, user metadata, one unconfirmed, one
// admin), edits in the change history and a closed month. `npm run export --
// --for-supabase` is refused while the backend runs, then written; psql loads it, as the
// project's non-superuser `postgres`-like role, into a database prepared like a hosted
// project after `supabase db push` (tests/support/hosted-project.ts). Every row arrives
// (counts and digests computed by both databases), every password verifies against the
// hash in auth.users, identities are GoTrue's, row-level security gives each person the
// rows they had, the product's triggers work again afterwards, devices' sync positions
// stay valid, and a second load is refused without changing anything.

const adminUrl = process.env.TEST_DATABASE_URL;
const slow = 300_000;
const trickyText = "O'Neil $rows$ \\restrict x\n-- ; drop table stores; 🚗";

type Person = { email: string; password: string; confirm: boolean; app: Record<string, unknown>; user?: Record<string, unknown> };

const people: Person[] = [
  {
    email: 'dana.meta@example.com',
    password: 'meta-password-51',
    confirm: true,
    app: { store_id: demo.storeA, is_admin: false },
    user: { display_name: trickyText, first_name: 'Dana', shift: { starts: '07:30', days: [1, 2, 3] } },
  },
  { email: 'una.unconfirmed@example.com', password: 'unconfirmed-pass-52', confirm: false, app: { store_id: demo.storeB, is_admin: false } },
  { email: 'ada.admin@example.com', password: 'admin-password-53', confirm: true, app: { store_id: demo.storeB, is_admin: true } },
];
const demoPeople = ['admin@example.com', 'manager@example.com', 'other@example.com'].map((email) => ({ email, password: demo.password }));

/** psql as an operator runs it against the project's connection string. */
function runPsql(url: string, file: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('psql', [url, '-X', '-q', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

type Query = (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

async function withClient<T>(url: string, work: (query: Query) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(async (sql, params) => (await client.query(sql, params)).rows);
  } finally {
    await client.end();
  }
}

const fromDatabase = (db: Database): Query => async (sql, params) => (await db.query(sql, params)).rows;

/** Row count and digest of each of the product's tables, computed by the database. */
async function productFingerprints(query: Query): Promise<Record<string, { rows: number; digest: string }>> {
  await query("set timezone to 'UTC'");
  const tables = await query(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables
     where schemaname in ('public', 'audit', 'private') order by 1`,
  );
  const result: Record<string, { rows: number; digest: string }> = {};
  for (const { name } of tables) {
    const [row] = await query(`select count(*)::integer as n, coalesce(md5(string_agg(md5(t::text), '' order by md5(t::text))), '') as digest from ${String(name)} t`);
    result[String(name)] = { rows: Number(row?.n), digest: String(row?.digest) };
  }
  return result;
}

/** The accounts as both sides must agree on them, in hosted Auth's column names (times in UTC). */
async function accounts(query: Query): Promise<Array<Record<string, unknown>>> {
  await query("set timezone to 'UTC'");
  return query(accountsSql);
}

const accountsSql = `
  select u.id::text, u.email, u.encrypted_password, u.aud, u.role, u.instance_id::text,
         u.email_confirmed_at::text, u.invited_at::text, u.last_sign_in_at::text, u.created_at::text, u.updated_at::text,
         u.banned_until::text, u.raw_app_meta_data, u.raw_user_meta_data, u.is_anonymous,
         (select jsonb_agg(jsonb_build_object('id', i.id, 'provider', i.provider, 'provider_id', i.provider_id,
            'identity_data', i.identity_data, 'email', i.email, 'created_at', i.created_at::text, 'updated_at', i.updated_at::text,
            'last_sign_in_at', i.last_sign_in_at::text) order by i.provider, i.id)
          from auth.identities i where i.user_id = u.id) as identities
  from auth.users u order by u.email`;

/** The claims PostgREST sets for a signed-in person (request.jwt.claims), from their account. */
function claimsOf(account: Record<string, unknown>): string {
  return JSON.stringify({
    sub: account.id,
    role: 'authenticated',
    aud: 'authenticated',
    email: account.email,
    app_metadata: account.raw_app_meta_data,
    user_metadata: account.raw_user_meta_data,
    aal: 'aal1',
    session_id: randomUUID(),
    is_anonymous: false,
  });
}

/** What each person reads of every table and view of the API, under row-level security, as a count and digest. */
async function readsUnderRls(query: Query, accounts: Array<Record<string, unknown>>): Promise<Record<string, Record<string, string>>> {
  const relations = (
    await query(`select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
                 where n.nspname = 'public' and c.relkind in ('r', 'v') order by 1`)
  ).map((row) => String(row.name));
  const result: Record<string, Record<string, string>> = {};
  for (const account of accounts) {
    const seen: Record<string, string> = {};
    for (const relation of relations) {
      await query('begin');
      try {
        await query("set local timezone to 'UTC'");
        await query('set local role authenticated');
        await query("select set_config('request.jwt.claims', $1, true)", [claimsOf(account)]);
        const [row] = await query(`select count(*)::integer as n, coalesce(md5(string_agg(md5(t::text), '' order by md5(t::text))), '') as d from ${relation} t`);
        seen[relation] = `${String(row?.n)} ${String(row?.d)}`;
      } finally {
        await query('rollback');
      }
    }
    result[String(account.email)] = seen;
  }
  return result;
}

/** Runs `sql` as a signed-in person, as PostgREST would (role and claims), in a transaction that commits; `url` may become `authenticated`. */
async function asPerson(url: string, account: Record<string, unknown>, sql: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  return withClient(url, async (query) => {
    await query('begin');
    try {
      await query('set local role authenticated');
      await query("select set_config('request.jwt.claims', $1, true)", [claimsOf(account)]);
      const rows = await query(sql, params);
      await query('commit');
      return rows;
    } catch (error) {
      await query('rollback');
      throw error;
    }
  });
}

const client = (url: string, key: string): SupabaseClient =>
  createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });

async function signIn(backend: BackendProcess, email: string, password: string): Promise<SupabaseClient> {
  const signed = client(backend.url, backend.anonKey);
  const { error } = await signed.auth.signInWithPassword({ email, password });
  if (error) throw new Error(`${email}: ${error.message}`);
  return signed;
}

/** A month of demo figures two months back, closed by the manager. */
function closedMonth(): { start: string; year: number; day: string } {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1));
  const start = first.toISOString().slice(0, 10);
  return { start, year: first.getUTCFullYear(), day: `${start.slice(0, 8)}10` };
}

const factorsSql = `select f.id::text, u.email, f.friendly_name, f.factor_type::text, f.status::text, f.secret, f.created_at::text, f.updated_at::text
  from auth.mfa_factors f join auth.users u on u.id = f.user_id where f.status::text = 'verified' order by u.email`;

describe.skipIf(!adminUrl)('npm run export -- --for-supabase, loaded into a database prepared as a hosted project (needs TEST_DATABASE_URL)', () => {
  const cleanup: Array<() => Promise<void>> = [];
  let sourceDir = '';
  let exportFile = '';
  let hosted: HostedProject;
  let cursor: unknown;
  let sourceNextXid = 0n;
  let totpSecret = '';
  const source = {} as {
    fingerprints: Record<string, { rows: number; digest: string }>;
    accounts: Array<Record<string, unknown>>;
    reads: Record<string, Record<string, string>>;
    historyMaxId: number;
    factors: Array<Record<string, unknown>>;
  };

  beforeAll(async () => {
    sourceDir = await pgliteDataFolder('seeded', 'export-source-');
    cleanup.push(() => rm(sourceDir, { recursive: true, force: true }));
    exportFile = path.join(await mkdtemp(path.join(tmpdir(), 'export-file-')), 'to-hosted.sql');
    cleanup.push(() => rm(path.dirname(exportFile), { recursive: true, force: true }));

    // A data folder whose transaction counter is well beyond the PostgreSQL server's, so
    // the load must move the hosted database's counter on for devices' positions to hold.
    const serverXid = await withClient(adminUrl!, async (query) => BigInt(String((await query('select pg_current_xact_id()::text as x'))[0]?.x)));
    const db = await openDatabase({ dataDir: sourceDir });
    await advanceTransactionIds(db, serverXid + 20_000n);
    await db.close();

    // Security keys on, for the relying party the software key answers as (the app at http://localhost:4173).
    const backend = await startBackendProcess({
      dataDir: sourceDir,
      env: { LOCAL_SUPABASE_MFA_WEBAUTHN: 'true', LOCAL_SUPABASE_WEBAUTHN_RP_ID: relyingParty.id, LOCAL_SUPABASE_WEBAUTHN_RP_ORIGINS: relyingParty.origins.join(',') },
    });
    try {
      const service = backend.client(backend.serviceRoleKey);
      for (const person of people) {
        const created = await service.auth.admin.createUser({
          email: person.email,
          password: person.password,
          email_confirm: person.confirm,
          app_metadata: person.app,
          user_metadata: person.user,
        });
        expect(created.error).toBeNull();
      }
      // Dana's authenticator app moves with her; Ada's setup, never finished, does not, nor
      // her security key (a key belongs to the address it was added at: added again there).
      totpSecret = (await enrolAndVerify(await signIn(backend, 'dana.meta@example.com', 'meta-password-51'), "Dana's phone")).secret;
      const ada = await signIn(backend, 'ada.admin@example.com', 'admin-password-53');
      await enrol(ada, 'Unfinished');
      await registerKey(ada, new SoftwareAuthenticator(), "Ada's key");
      expect((await service.rpc('set_admins_need_mfa', { p_on: true, p_by: demo.adminId })).error).toBeNull();
      const manager = await signIn(backend, 'manager@example.com', demo.password);
      const month = closedMonth();
      const writes = await Promise.all([
        manager.from('front_end_team_advisors').insert({ store_id: demo.storeA, advisor_name: trickyText }),
        manager.rpc('push_changes', { p_table: 'monthly_targets', p_rows: [{ store_id: demo.storeA, year: 2045, month: 1, metric_key: 'cpElr', target_value: 123.45 }] }),
        manager.from('user_dashboard_preferences').insert({ user_id: demo.managerId, store_id: demo.storeA, selected_kpis: ['cpElr', 'totalElr'] }),
      ]);
      expect(writes.map((write) => write.error)).toEqual([null, null, null]);
      expect((await manager.from('month_closures').insert({ store_id: demo.storeA, month_start: month.start, year: month.year })).error).toBeNull();
      // The position a device keeps after reading a table to its end.
      cursor = null;
      for (;;) {
        const { data, error } = await manager.rpc('pull_changes', { p_table: 'monthly_targets', p_cursor: cursor });
        expect(error).toBeNull();
        cursor = (data as { cursor: unknown }).cursor;
        if (!(data as { has_more: boolean }).has_more) break;
      }

      const refused = await runScript('export', ['--for-supabase', exportFile], { LOCAL_SUPABASE_DIR: sourceDir });
      expect(refused.output).toContain(`The backend (pid ${backend.pid()}) has ${sourceDir} open`);
      expect(refused.code).toBe(1);
      await expect(stat(exportFile)).rejects.toThrow();
    } finally {
      await backend.stop();
    }

    const made = await runScript('export', ['--for-supabase', exportFile], { LOCAL_SUPABASE_DIR: sourceDir });
    expect(made.output).toMatch(/Exported 6 accounts, 1 authenticators and \d+ rows in \d+ tables from PGlite/);
    expect(made.output).toContain('1 account(s) have not confirmed their e-mail address');
    expect(made.output).toContain('1 authenticator(s) whose setup was never finished are left out');
    expect(made.output).toContain('1 security key(s) or passkey(s) are left out: their owners add them again in the app once it points at the project');
    expect(made.code).toBe(0);
    // Rows written before the export have smaller transaction ids than this.
    sourceNextXid = BigInt(/^-- next-transaction-id: (\d+)$/m.exec(await readFile(exportFile, 'utf8'))?.[1] ?? 'x');

    const check = await openDatabase({ dataDir: sourceDir });
    try {
      const query = fromDatabase(check);
      source.fingerprints = await productFingerprints(query);
      source.accounts = await accounts(query);
      source.reads = await readsUnderRls(query, source.accounts);
      source.factors = await query(factorsSql);
      source.historyMaxId = Number((await query('select max(id)::integer as m from audit.change_history'))[0]?.m);
    } finally {
      await check.close();
    }

    hosted = await createHostedProject(adminUrl!);
    cleanup.push(() => hosted.drop());
    expect((await hosted.pushMigrations()).length).toBeGreaterThan(40);
  }, slow);

  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('writes a file only its owner reads, and psql loads it as the project\'s postgres role', async () => {
    expect((await stat(exportFile)).mode & 0o777).toBe(0o600);
    const loaded = await runPsql(hosted.url, exportFile);
    expect(loaded.output).toContain('Loaded 6 accounts and');
    expect(loaded.code).toBe(0);
  }, slow);

  it('brings every row of every product table, in the same counts and contents', async () => {
    const target = await withClient(hosted.adminUrl, productFingerprints);
    expect(Object.keys(target)).toEqual(Object.keys(source.fingerprints));
    expect(target).toEqual(source.fingerprints);
    expect(source.fingerprints['public.daily_inputs']?.rows).toBeGreaterThan(1000);
    expect(source.fingerprints['audit.change_history']?.rows).toBeGreaterThan(0);
    expect(source.fingerprints['public.month_closures']?.rows).toBe(1);
    expect(source.fingerprints['public.user_dashboard_preferences']?.rows).toBe(1);
    expect(source.fingerprints['private.security_settings']?.rows).toBe(1);
  });

  it('brings every account with its password, metadata and times, in Supabase Auth\'s shape', async () => {
    const loaded = await withClient(hosted.adminUrl, accounts);
    expect(loaded).toEqual(source.accounts);
    expect(loaded.map((account) => account.email)).toEqual([...people, ...demoPeople].map((p) => p.email).sort());
    const byEmail = new Map(loaded.map((account) => [account.email, account]));
    for (const { email, password } of [...people, ...demoPeople]) {
      const hash = String(byEmail.get(email)?.encrypted_password);
      expect(hash).toMatch(/^\$2[ab]\$10\$/);
      expect(await bcrypt.compare(password, hash), email).toBe(true);
      expect(await bcrypt.compare(`${password}!`, hash)).toBe(false);
    }
    expect(byEmail.get('dana.meta@example.com')?.raw_user_meta_data).toEqual(people[0]?.user);
    expect(byEmail.get('ada.admin@example.com')?.raw_app_meta_data).toMatchObject({ is_admin: true, store_id: demo.storeB, provider: 'email' });
    expect(byEmail.get('una.unconfirmed@example.com')?.email_confirmed_at).toBeNull();
    expect(byEmail.get('dana.meta@example.com')?.last_sign_in_at).not.toBeNull();
  });

  it('gives GoTrue what it reads: no NULL where it expects a string, confirmed_at computed, one e-mail identity each', async () => {
    await withClient(hosted.adminUrl, async (query) => {
      for (const column of gotrueNotNullUserColumns) {
        const [row] = await query(`select count(*)::integer as n from auth.users where ${column} is null`);
        expect(row?.n, column).toBe(0);
      }
      const users = await query(`select u.id::text, u.email, u.email_confirmed_at, u.confirmed_at, u.confirmation_token, u.recovery_token,
        (select jsonb_agg(to_jsonb(i) - 'created_at' - 'updated_at' - 'last_sign_in_at' - 'id') from auth.identities i where i.user_id = u.id) as identities
        from auth.users u order by u.email`);
      for (const user of users) {
        expect(user.confirmed_at).toEqual(user.email_confirmed_at);
        expect([user.confirmation_token, user.recovery_token]).toEqual(['', '']);
        expect(user.identities).toEqual([
          {
            provider: 'email',
            provider_id: user.id,
            user_id: user.id,
            email: String(user.email).toLowerCase(),
            identity_data: expect.objectContaining({ sub: user.id, email: user.email, email_verified: user.email_confirmed_at !== null }),
          },
        ]);
      }
    });
  });

  it('brings verified authenticators with their secrets (the same app keeps working), and leaves out a setup never finished and a security key', async () => {
    const factors = await withClient(hosted.adminUrl, async (query) => {
      await query("set timezone to 'UTC'");
      return query('select count(*)::integer as n from auth.mfa_factors').then(async ([all]) => ({ all: all?.n, verified: await query(factorsSql) }));
    });
    expect(source.factors.map((factor) => [factor.email, factor.factor_type])).toEqual([
      ['ada.admin@example.com', 'webauthn'],
      ['dana.meta@example.com', 'totp'],
    ]);
    expect(factors).toEqual({ all: 1, verified: source.factors.filter((factor) => factor.factor_type === 'totp') });
    expect(factors.verified[0]).toMatchObject({ email: 'dana.meta@example.com', friendly_name: "Dana's phone", factor_type: 'totp', secret: totpSecret });
  });

  it('lets each person read exactly the rows they read before, under the migrations\' row-level security', async () => {
    const target = await withClient(hosted.adminUrl, (query) => readsUnderRls(query, source.accounts));
    expect(target).toEqual(source.reads);
    const storesSeen = (email: string) => Number(source.reads[email]?.['public.stores']?.split(' ')[0]);
    expect(storesSeen('ada.admin@example.com')).toBe(2);
    expect(storesSeen('manager@example.com')).toBe(1);
    expect(source.reads['manager@example.com']?.['public.daily_inputs']).not.toEqual(source.reads['other@example.com']?.['public.daily_inputs']);
  });

  it('turns the product\'s triggers back on: edits are stamped, recorded and refused in a closed month, and a device\'s position holds', async () => {
    const manager = source.accounts.find((account) => account.email === 'manager@example.com')!;
    const before = await withClient(hosted.adminUrl, async (query) => Number((await query('select count(*)::integer as n from audit.change_history'))[0]?.n));
    const targetRow = (query: Query) =>
      query("select updated_at, sync_xid::text as sync_xid from public.monthly_targets where store_id = $1 and year = 2045 and month = 1 and metric_key = 'cpElr'", [demo.storeA]);
    const [loadedRow] = await withClient(hosted.adminUrl, targetRow);
    // A plain update, as a REST PATCH makes it: stamped, and recorded under a new history id.
    await asPerson(
      hosted.adminUrl,
      manager,
      "update public.monthly_targets set target_value = 150 where store_id = $1 and year = 2045 and month = 1 and metric_key = 'cpElr'",
      [demo.storeA],
    );
    const [editedRow] = await withClient(hosted.adminUrl, targetRow);
    expect((editedRow?.updated_at as Date).getTime()).toBeGreaterThan((loadedRow?.updated_at as Date).getTime());
    expect(BigInt(String(editedRow?.sync_xid))).toBeGreaterThanOrEqual(sourceNextXid);
    const history = await withClient(hosted.adminUrl, (query) =>
      query('select id::integer, changed_by::text, new_value from audit.change_history order by id desc limit 1'),
    );
    expect(history).toEqual([{ id: source.historyMaxId + 1, changed_by: demo.managerId, new_value: 150 }]);
    expect(await withClient(hosted.adminUrl, async (query) => Number((await query('select count(*)::integer as n from audit.change_history'))[0]?.n))).toBe(before + 1);

    const [pulled] = await asPerson(hosted.adminUrl, manager, "select public.pull_changes('monthly_targets', $1::jsonb) as r", [JSON.stringify(cursor)]);
    expect((pulled?.r as { rows: Array<Record<string, unknown>> }).rows.map((row) => row.target_value)).toContain(150);
    const nextXid = await withClient(hosted.adminUrl, async (query) => BigInt(String((await query('select pg_current_xact_id()::text as x'))[0]?.x)));
    expect(nextXid).toBeGreaterThan(sourceNextXid);

    const month = closedMonth();
    await expect(
      asPerson(hosted.adminUrl, manager, `update public.daily_inputs set value = value + 1 where store_id = $1 and entry_date = $2`, [demo.storeA, month.day]),
    ).rejects.toMatchObject({ code: '23M01' });
  });

  it('refuses a second load, changing nothing', async () => {
    const before = await withClient(hosted.adminUrl, productFingerprints);
    const again = await runPsql(hosted.url, exportFile);
    expect(again.output).toContain('This file has been loaded into this database already (6 of its 6 accounts are there). Nothing was changed.');
    expect(again.code).toBe(3);
    expect(await withClient(hosted.adminUrl, productFingerprints)).toEqual(before);
  });
});

describe.skipIf(!adminUrl)('npm run export -- --for-supabase from DATABASE_URL (needs TEST_DATABASE_URL)', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('exports a PostgreSQL backend, and the load refuses a project that already has one of its e-mail addresses', async () => {
    const name = `export_source_${randomUUID().replaceAll('-', '')}`;
    await withClient(adminUrl!, (query) => query(`create database ${name}`));
    cleanup.push(() => withClient(adminUrl!, (query) => query(`drop database if exists ${name} with (force)`)).then(() => undefined));
    const sourceUrl = new URL(adminUrl!);
    sourceUrl.pathname = `/${name}`;
    const db = await openDatabase({ databaseUrl: sourceUrl.toString() });
    const stack = await startLocalStack({ db, port: 0 });
    try {
      const created = await client(stack.url, stack.keys.serviceRoleKey).auth.admin.createUser({
        email: 'pat.postgres@example.com',
        password: 'postgres-source-54',
        email_confirm: true,
        app_metadata: { store_id: demo.storeA },
      });
      expect(created.error).toBeNull();
    } finally {
      await stack.close();
      await db.close();
    }
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'export-pg-')), 'to-hosted.sql');
    cleanup.push(() => rm(path.dirname(file), { recursive: true, force: true }));
    const made = await runScript('export', ['--for-supabase', file], { DATABASE_URL: sourceUrl.toString() });
    expect(made.output).toMatch(/Exported 4 accounts, 0 authenticators and \d+ rows in \d+ tables from PostgreSQL \(DATABASE_URL\)/);
    expect(made.code).toBe(0);
    const expected = await withClient(sourceUrl.toString(), productFingerprints);

    const project = await createHostedProject(adminUrl!);
    cleanup.push(() => project.drop());
    const notPushed = await runPsql(project.url, file);
    expect(notPushed.output).toContain('This database has not been set up with `supabase db push`');
    expect(notPushed.code).toBe(3);
    await project.pushMigrations();
    // Someone made the first admin in the dashboard, as a project without this file would.
    await withClient(project.adminUrl, (query) => query("insert into auth.users (id, email, aud, role) values (gen_random_uuid(), 'manager@example.com', 'authenticated', 'authenticated')"));
    const clash = await runPsql(project.url, file);
    expect(clash.output).toContain('The project already has accounts with e-mail addresses of this file (manager@example.com). Nothing was changed.');
    expect(clash.code).toBe(3);
    expect((await withClient(project.adminUrl, productFingerprints))['public.stores']?.rows).toBe(0);

    await withClient(project.adminUrl, (query) => query("delete from auth.users where email = 'manager@example.com'"));
    const loaded = await runPsql(project.url, file);
    expect(loaded.code).toBe(0);
    expect(await withClient(project.adminUrl, productFingerprints)).toEqual(expected);
    const [pat] = await withClient(project.adminUrl, (query) => query("select encrypted_password from auth.users where email = 'pat.postgres@example.com'"));
    expect(await bcrypt.compare('postgres-source-54', String(pat?.encrypted_password))).toBe(true);
  }, slow);
});
