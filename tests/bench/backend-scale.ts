/**
 * How much one back-office machine serves: the embedded backend as its own process, as
 * `npm start` runs it (PGlite in a data folder, or PostgreSQL given a server through
 * BENCH_DATABASE_URL or TEST_DATABASE_URL), loaded by 1, 10 and 50 tablets' worth of
 * clients, each signed in as its own user of the demo store. Three kinds of work, each
 * repeated by every client as soon as it is answered (see load-driver.ts):
 *  - a screen's reads from the REST API: the month's daily inputs, its weeks, its targets
 *    (three GETs at once);
 *  - a sync cycle with nothing new, as one multi-table pull_changes_many (what the app
 *    sends) and, for comparison, as it was before: pull_changes for each of the 18 synced tables from an
 *    up-to-date cursor, one after the other, as a device does every minute and after
 *    every Realtime poke;
 *  - a push of a week of edited figures (42 rows: 7 days, CP/W/I, hours and sales).
 * Each line: answered requests per second, p50/p95 latency of the good answers, busy
 * answers (503, which the clients honour) and failures. The pushed figures are checked
 * against the server's rows afterwards. Then Realtime's share: one such push while 1, 10
 * and 50 tablets listen as the app does (one channel, every synced table), timed until
 * every tablet has heard every changed row; the backend reads each changed row back once
 * per listening session, under its row-level security.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { syncedTableNames } from '../../src/data/synced-tables.ts';
import type { BackendProcess } from '../support/backend-process.ts';
import { startBackendProcess } from '../support/backend-process.ts';
import { demo } from '../support/demo.ts';
import type { LoadResult, Sample } from './load-driver.ts';
import { runLoad, timedFetch } from './load-driver.ts';
import { realtimeFanOut } from './realtime-fan-out.ts';
import type { BenchLine } from './realtime-flood.ts';

const tabletCounts = [1, 10, 50] as const;
const windows = { warmupMs: 1_000, windowMs: 5_000 };
const weekRows = 42;

type Tablet = { index: number; token: string; lastPushed: number | null };

type Workload = { name: string; unit: (tablet: Tablet, round: number) => Promise<Sample[]> };

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

async function signInTablets(backend: BackendProcess, count: number): Promise<Tablet[]> {
  const service = backend.client(backend.serviceRoleKey);
  const tablets: Tablet[] = [];
  for (let index = 0; index < count; index += 1) {
    const email = `tablet-${index}-${randomUUID().slice(0, 8)}@bench.example.com`;
    const password = `Bench-${randomUUID()}`;
    const created = await service.auth.admin.createUser({ email, password, email_confirm: true, app_metadata: { store_id: demo.storeA } });
    if (created.error) throw new Error(`scale bench: creating ${email} failed: ${created.error.message}`);
    const client = backend.client();
    const { data, error } = await client.auth.signInWithPassword({ email, password });
    if (error || !data.session) throw new Error(`scale bench: signing in ${email} failed: ${error?.message}`);
    tablets.push({ index, token: data.session.access_token, lastPushed: null });
  }
  return tablets;
}

function workloads(backend: BackendProcess, cursors: Map<string, unknown>, minYear: number): Workload[] {
  const headers = (tablet: Tablet, write = false): Record<string, string> => ({
    apikey: backend.anonKey,
    Authorization: `Bearer ${tablet.token}`,
    'X-Client-Info': 'supabase-js-node/2.109.0',
    ...(write ? { 'Content-Type': 'application/json', 'Content-Profile': 'public' } : { 'Accept-Profile': 'public' }),
  });
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0));
  const weeksFrom = new Date(first.getTime() - 6 * 86_400_000);
  const rest = `${backend.url}/rest/v1`;
  const isArray = (body: unknown) => Array.isArray(body);
  const pages = [
    `${rest}/daily_inputs?select=*&store_id=eq.${demo.storeA}&entry_date=gte.${isoDate(first)}&entry_date=lte.${isoDate(last)}`,
    `${rest}/weekly_store_performance?select=*&store_id=eq.${demo.storeA}&week_start_date=gte.${isoDate(weeksFrom)}&week_start_date=lte.${isoDate(last)}`,
    `${rest}/monthly_targets?select=*&store_id=eq.${demo.storeA}&year=eq.${first.getUTCFullYear()}&month=eq.${first.getUTCMonth() + 1}`,
  ];
  return [
    {
      name: "a screen's reads (3 GETs at once)",
      unit: (tablet) => Promise.all(pages.map((url) => timedFetch(url, { headers: headers(tablet) }, isArray))),
    },
    {
      name: 'a sync cycle, nothing new (18 pulls in turn)',
      async unit(tablet) {
        const samples: Sample[] = [];
        for (const table of syncedTableNames) {
          const body = JSON.stringify({ p_table: table, p_cursor: cursors.get(table) ?? null, p_limit: 1000, p_min_year: minYear });
          const sample = await timedFetch(`${rest}/rpc/pull_changes`, { method: 'POST', headers: headers(tablet, true), body }, (page) =>
            typeof page === 'object' && page !== null && (page as { has_more?: unknown }).has_more === false,
          );
          samples.push(sample);
          if (!sample.ok) break;
        }
        return samples;
      },
    },
    {
      // What the app sends since pull_changes_many: every table's cursor in one request.
      name: 'a sync cycle, nothing new (1 multi-table pull)',
      async unit(tablet) {
        const requests = syncedTableNames.map((table) => ({ table, cursor: cursors.get(table) ?? null, min_year: minYear }));
        const body = JSON.stringify({ p_requests: requests, p_limit: 5000 });
        const sample = await timedFetch(`${rest}/rpc/pull_changes_many`, { method: 'POST', headers: headers(tablet, true), body }, (answer) => {
          const pages = (answer as { pages?: Array<{ has_more?: unknown; rows?: unknown[] }> } | null)?.pages;
          return Array.isArray(pages) && pages.length === syncedTableNames.length && pages.every((page) => page.has_more === false && page.rows?.length === 0);
        });
        return [sample];
      },
    },
    {
      name: `a push of a week's figures (${weekRows} rows)`,
      async unit(tablet, round) {
        const value = (round % 50) + 1;
        const body = JSON.stringify({ p_table: 'daily_inputs', p_rows: weekOf(tablet.index).map((row) => ({ ...keyOf(row), value })) });
        const sample = await timedFetch(`${rest}/rpc/push_changes`, { method: 'POST', headers: headers(tablet, true), body }, (rows) =>
          Array.isArray(rows) && rows.length === weekRows,
        );
        if (sample.ok) tablet.lastPushed = value;
        return [sample];
      },
    },
  ];
}

/** Tablet `index`'s own week (from 2050 on): 7 days of CP, W and I hours and sales. */
function weekOf(index: number) {
  return Array.from({ length: weekRows }, (_, n) => {
    const date = new Date(Date.UTC(2050, 0, 1 + index * 7 + Math.floor(n / 6)));
    return {
      store_id: demo.storeA,
      entry_date: isoDate(date),
      row_identifier: ['CP', 'W', 'I'][n % 3] as string,
      metric_type: n % 6 < 3 ? 'hours' : 'sales',
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day_of_week_iso: date.getUTCDay() || 7,
      value: 0,
    };
  });
}

const keyOf = (row: ReturnType<typeof weekOf>[number]) => ({
  store_id: row.store_id,
  entry_date: row.entry_date,
  row_identifier: row.row_identifier,
  metric_type: row.metric_type,
});

/** Each table's cursor after a full pull, so that a sync cycle finds nothing new. */
async function currentCursors(backend: BackendProcess, tablet: Tablet, minYear: number): Promise<Map<string, unknown>> {
  const cursors = new Map<string, unknown>();
  for (const table of syncedTableNames) {
    let cursor: unknown = null;
    for (;;) {
      const response = await fetch(`${backend.url}/rest/v1/rpc/pull_changes`, {
        method: 'POST',
        headers: { apikey: backend.anonKey, Authorization: `Bearer ${tablet.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ p_table: table, p_cursor: cursor, p_limit: 1000, p_min_year: minYear }),
      });
      const page = (await response.json()) as { cursor: unknown; has_more: boolean };
      if (!response.ok) throw new Error(`scale bench: pulling ${table} failed: ${JSON.stringify(page)}`);
      cursor = page.cursor;
      if (!page.has_more) break;
    }
    cursors.set(table, cursor);
  }
  return cursors;
}

/** Every tablet's week holds the values of its last acknowledged push (read back with the service key). */
async function checkPushedWeeks(backend: BackendProcess, tablets: Tablet[]): Promise<void> {
  const service = backend.client(backend.serviceRoleKey);
  const totals = new Map<string, number>();
  for (let from = 0; ; from += 1000) {
    const { data, error } = await service
      .from('daily_inputs')
      .select('entry_date, value')
      .eq('store_id', demo.storeA)
      .gte('entry_date', '2050-01-01')
      .order('entry_date')
      .order('row_identifier')
      .order('metric_type')
      .range(from, from + 999);
    if (error) throw new Error(`scale bench: reading the pushed weeks failed: ${error.message}`);
    for (const row of data) totals.set(row.entry_date, (totals.get(row.entry_date) ?? 0) + Number(row.value));
    if (data.length < 1000) break;
  }
  for (const tablet of tablets) {
    const expected = (tablet.lastPushed ?? 0) * 6;
    for (const day of new Set(weekOf(tablet.index).map((row) => row.entry_date))) {
      if (totals.get(day) !== expected) throw new Error(`scale bench: ${day} holds ${totals.get(day)}, expected ${expected}`);
    }
  }
}

const whole = (n: number) => Math.round(n).toLocaleString('en-US');

function line(engine: string, workload: string, tablets: number, result: LoadResult): BenchLine {
  const latency = result.ok > 0 ? `p50 ${whole(result.p50Ms)} ms, p95 ${whole(result.p95Ms)} ms` : 'no good answer';
  return {
    case: `backend on ${engine}, ${tablets} tablet${tablets === 1 ? '' : 's'}, ${workload}: ${whole(result.okPerSecond)} req/s, ${latency}, ${result.busy} busy (503), ${result.failed} failed`,
    requests: result.requests,
    ms: result.windowMs,
  };
}

async function scaleOn(engine: string, env: Record<string, string>): Promise<BenchLine[]> {
  const backend = await startBackendProcess({ env: { LOCAL_SUPABASE_LOG: 'warn', ...env } });
  try {
    const tablets = await signInTablets(backend, Math.max(...tabletCounts));
    const minYear = new Date().getUTCFullYear() - 1;
    // Every tablet's week exists before the pushes are timed: those are edits, as most pushes are.
    for (const tablet of tablets) {
      const created = await timedFetch(`${backend.url}/rest/v1/rpc/push_changes`, {
        method: 'POST',
        headers: { apikey: backend.anonKey, Authorization: `Bearer ${tablet.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ p_table: 'daily_inputs', p_rows: weekOf(tablet.index) }),
      });
      if (!created.ok) throw new Error(`scale bench: creating tablet ${tablet.index}'s week failed with ${created.status}`);
    }
    const cursors = await currentCursors(backend, tablets[0] as Tablet, minYear);
    const lines: BenchLine[] = [];
    for (const workload of workloads(backend, cursors, minYear)) {
      for (const count of tabletCounts) {
        lines.push(line(engine, workload.name, count, await runLoad(tablets.slice(0, count), workload.unit, windows)));
      }
    }
    // Realtime: tablet 0 pushes an edit of its week while the first 1, 10, 50 tablets listen.
    const pusher = tablets[0] as Tablet;
    const pushWeek = async (value: number) => {
      const pushed = await timedFetch(`${backend.url}/rest/v1/rpc/push_changes`, {
        method: 'POST',
        headers: { apikey: backend.anonKey, Authorization: `Bearer ${pusher.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ p_table: 'daily_inputs', p_rows: weekOf(pusher.index).map((row) => ({ ...keyOf(row), value })) }),
      });
      if (!pushed.ok) throw new Error(`scale bench: the listened-to push failed with ${pushed.status}`);
      pusher.lastPushed = value;
    };
    for (const count of tabletCounts) {
      lines.push(await realtimeFanOut(backend, engine, tablets.slice(0, count).map((tablet) => tablet.token), { rows: weekRows, push: pushWeek }));
    }
    await checkPushedWeeks(backend, tablets);
    return lines;
  } finally {
    await backend.stop();
  }
}

/** A fresh database on the PostgreSQL server at `serverUrl` for one run; dropped afterwards. */
async function withPostgresDatabase<T>(serverUrl: string, work: (url: string) => Promise<T>): Promise<T> {
  const name = `bench_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    return await work(url.toString());
  } finally {
    const cleanup = new pg.Client({ connectionString: serverUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  }
}

/** The scale figures on PGlite, and on PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL names a server. */
export async function backendScaleBench(): Promise<BenchLine[]> {
  const lines = await scaleOn('PGlite', {});
  const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    lines.push(...(await withPostgresDatabase(serverUrl, (url) => scaleOn('PostgreSQL', { DATABASE_URL: url }))));
  } else {
    lines.push({ case: 'backend on PostgreSQL: not measured (set BENCH_DATABASE_URL or TEST_DATABASE_URL)', requests: 0, ms: 0 });
  }
  return lines;
}
