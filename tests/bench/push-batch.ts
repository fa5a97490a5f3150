/**
 * Pushing a device's queued edits through the device's sync engine and the embedded
 * stack: 10,000 edits in batches (push_changes takes serviceLimits.pushBatchRows rows a
 * call) against a sample of 1,000 sent one request per row, on PGlite and on PostgreSQL
 * when a server is named (BENCH_DATABASE_URL, else TEST_DATABASE_URL). Twice each: rows
 * the server does not have yet (inserted) and edits of rows it has (one field updated).
 * Each line gives rows per second, the batched lines their ratio to per-row, how much of
 * the time went to the push requests (the rest is the device's own bookkeeping), and this
 * process's CPU time: on PGlite that is all the work (device, backend and database share
 * the process), so it shows what an idle machine would take when other work shares this
 * one; on PostgreSQL the database server's own CPU is not in it. Every figure is checked
 * against the server's rows before it is reported.
 */
import type { RowWrite } from '../../src/data/local-writes.ts';
import { serviceLimits } from '../../src/domain/limits.ts';
import type { SyncTransport } from '../../src/sync/transport.ts';
import { createDevice, dailyWrite } from '../integration/sync/device.ts';
import { demo } from '../support/demo.ts';
import type { TestStack } from '../support/local-stack.ts';
import { startTestStack } from '../support/local-stack.ts';
import type { EngineName } from '../support/test-databases.ts';
import type { BenchLine } from './realtime-flood.ts';

const batchedEdits = 10_000;
const perRowEdits = 1_000;
const labourRows = ['CP', 'W', 'I'] as const;

/** `count` hours edits of store A from `firstDay` days after 2031-01-01 on, three a day (CP, W, I). */
function hoursEdits(firstDay: number, count: number, value: (n: number) => number): RowWrite[] {
  return Array.from({ length: count }, (_, n) => dailyWrite(firstDay + Math.floor(n / 3), value(n), labourRows[n % 3]));
}

/** cpuMs: this process's CPU time (user and system) over the timed cycle. */
type Measured = { rows: number; requests: number; ms: number; requestMs: number; cpuMs: number };
type Round = { writes: RowWrite[]; batchSize: number };

/**
 * On one signed-in, synced device, queues each round's edits and times the sync cycle
 * that pushes them. Before each round the device catches up with the server untimed, so
 * the timed cycle's pull (of the tables it is about to push) finds nothing new.
 */
async function pushThroughDevice(stack: TestStack, rounds: Round[]): Promise<Measured[]> {
  const device = await createDevice(stack, 'manager@example.com');
  let requestMs = 0;
  const transport: SyncTransport = {
    ...device.transport,
    // With each row's typed time, as the app sends it: the server's change history reads them.
    async push(table, rows, typedAt) {
      const started = performance.now();
      try {
        return await device.transport.push(table, rows, typedAt);
      } finally {
        requestMs += performance.now() - started;
      }
    },
  };
  try {
    const measured: Measured[] = [];
    for (const { writes, batchSize } of rounds) {
      const engine = device.engine({ batchSize, transport });
      await engine.runOnce('manual');
      await device.save(writes);
      const requestsBefore = device.network.requests;
      requestMs = 0;
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const result = await engine.runOnce('local-write');
      const ms = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      if (!result.ok || result.pushed !== writes.length || result.refused !== 0) {
        throw new Error(`push bench: expected ${writes.length} rows pushed, got ${JSON.stringify(result)}`);
      }
      if ((await device.db.outbox.count()) !== 0) throw new Error('push bench: the outbox is not empty after the push');
      measured.push({ rows: writes.length, requests: device.network.requests - requestsBefore, ms, requestMs, cpuMs: (cpu.user + cpu.system) / 1000 });
    }
    return measured;
  } finally {
    device.close();
  }
}

/** The server holds exactly `writes`' values (checked by SQL, not through the code measured). */
async function expectStored(stack: TestStack, writes: RowWrite[]): Promise<void> {
  const dates = writes.map((w) => String(w.row.entry_date));
  const { rows } = await stack.database.query<{ n: number; total: string }>(
    `select count(*)::int as n, coalesce(sum(value), 0)::text as total from public.daily_inputs
     where store_id = $1 and metric_type = 'hours' and entry_date between $2 and $3`,
    [demo.storeA, dates.reduce((a, b) => (a < b ? a : b)), dates.reduce((a, b) => (a > b ? a : b))],
  );
  const expectedTotal = writes.reduce((sum, w) => sum + Math.round(Number(w.row.value) * 100), 0) / 100;
  if (rows[0]?.n !== writes.length || Number(rows[0]?.total) !== expectedTotal) {
    throw new Error(`push bench: the server holds ${rows[0]?.n} rows totalling ${rows[0]?.total}, expected ${writes.length} totalling ${expectedTotal}`);
  }
}

const rate = (m: Measured) => (m.rows * 1000) / m.ms;
const cpuPerRow = (m: Measured) => m.cpuMs / m.rows;
const whole = (n: number) => Math.round(n).toLocaleString('en-US');

async function benchEngine(engine: EngineName, label: string, serverUrl: string | undefined): Promise<BenchLine[]> {
  const stack = await startTestStack({ engine, serverUrl });
  try {
    // Batched: 10,000 new rows (2031 on), then one field of each changed.
    const newRows = hoursEdits(0, batchedEdits, (n) => (n % 40) + 0.25);
    const changed = hoursEdits(0, batchedEdits, (n) => (n % 40) + 0.5);
    // One request per row: a sample of 1,000 (from 2042 on), inserted, then changed.
    const sampleNew = hoursEdits(4_000, perRowEdits, (n) => (n % 40) + 0.25);
    const sampleChanged = hoursEdits(4_000, perRowEdits, (n) => (n % 40) + 0.75);
    const batch = serviceLimits.pushBatchRows;
    const [batchedNew, batchedChanged, perRowNew, perRowChanged] = await pushThroughDevice(stack, [
      { writes: newRows, batchSize: batch },
      { writes: changed, batchSize: batch },
      { writes: sampleNew, batchSize: 1 },
      { writes: sampleChanged, batchSize: 1 },
    ]);
    await expectStored(stack, changed);
    await expectStored(stack, sampleChanged);

    const lines: BenchLine[] = [];
    for (const [what, batched, perRow] of [
      ['new rows', batchedNew, perRowNew],
      ['changed rows', batchedChanged, perRowChanged],
    ] as const) {
      if (!batched || !perRow) throw new Error('push bench: a round was not measured');
      const share = (m: Measured) => `${Math.round((100 * m.requestMs) / m.ms)}% in requests, ${(m.cpuMs / 1000).toFixed(1)} s CPU here`;
      lines.push({
        case: `push ${whole(batched.rows)} ${what}, ${label}, batches of ${serviceLimits.pushBatchRows}: ${whole(rate(batched))} rows/s, ${(rate(batched) / rate(perRow)).toFixed(1)}x per-row (${(cpuPerRow(perRow) / cpuPerRow(batched)).toFixed(1)}x on CPU), ${share(batched)}`,
        requests: batched.requests,
        ms: batched.ms,
      });
      lines.push({
        case: `push ${whole(perRow.rows)} ${what}, ${label}, one request per row: ${whole(rate(perRow))} rows/s, ${share(perRow)}`,
        requests: perRow.requests,
        ms: perRow.ms,
      });
    }
    return lines;
  } finally {
    await stack.stop();
  }
}

/** The push figures on PGlite, and on PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL names a server. */
export async function pushBatchBench(): Promise<BenchLine[]> {
  const lines = await benchEngine('pglite', 'PGlite', undefined);
  const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    lines.push(...(await benchEngine('postgres', 'PostgreSQL', serverUrl)));
  } else {
    lines.push({ case: 'push on PostgreSQL: not measured (set BENCH_DATABASE_URL or TEST_DATABASE_URL)', requests: 0, ms: 0 });
  }
  return lines;
}
