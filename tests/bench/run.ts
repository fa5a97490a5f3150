/**
 * `npm run bench`: figures side by side in one run, never a pass/fail test.
 *  1. Pushing queued edits in batches vs one request per row, against the embedded stack.
 *  2. Reading a month of daily inputs from the device database vs from the REST API.
 *  3. Writes heard through Realtime, quiet vs after 1,000 anonymous channel joins.
 *  4. A device in Chromium (device-chromium.ts): first sync, keystroke, month switch
 *     against the REST path at a 100 ms round trip, first load, offline reload.
 *  5. 10,000 queued edits pushed (push-batch.ts) and one back-office machine under
 *     1, 10 and 50 tablets (backend-scale.ts).
 * Everything runs on this machine over loopback; absolute numbers depend on the machine,
 * the ratios are the point. `npm run bench -- --only device` runs the device in Chromium
 * alone (4 above, unthrottled and with its CPU slowed 4x).
 */
import { dailyInputsBetween } from '../../src/data/repositories/daily-inputs.ts';
import { startTestStack } from '../support/local-stack.ts';
import { demo } from '../support/demo.ts';
import { createDevice, dailyWrite } from '../integration/sync/device.ts';
import { realtimeFloodBench } from './realtime-flood.ts';
import { pushBatchBench } from './push-batch.ts';
import { backendScaleBench } from './backend-scale.ts';
import { deviceChromiumBench, deviceTable } from './device-chromium.ts';
import type { DeviceLine } from './device-chromium.ts';

process.env.LOCAL_SUPABASE_LOG ??= 'warn';

type Line = { case: string; requests: number; ms: number };

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
if (only !== undefined && only !== 'device') throw new Error(`--only takes "device", not "${only}"`);

async function main() {
  const lines: Line[] = [];
  if (only === 'device') {
    printTable(await deviceChromiumBench());
    return;
  }
  const stack = await startTestStack();
  try {
    const edits = 300;
    for (const [label, batchSize, offset] of [
      ['push 300 edits, batches of 400', 400, 0],
      ['push 300 edits, one request per row', 1, 1000],
    ] as const) {
      const device = await createDevice(stack, 'manager@example.com');
      const engine = device.engine({ batchSize });
      await engine.runOnce('start');
      await device.save(Array.from({ length: edits }, (_, n) => dailyWrite(offset + n, n + 0.5)));
      const before = device.network.requests;
      const { ms } = await timed(() => engine.runOnce('local-write'));
      lines.push({ case: label, requests: device.network.requests - before, ms });
      device.close();
    }

    const device = await createDevice(stack, 'manager@example.com');
    await device.engine().runOnce('start');
    const today = new Date();
    const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
    const last = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 0)).toISOString().slice(0, 10);
    const rounds = 20;
    const local = await timed(async () => {
      for (let i = 0; i < rounds; i += 1) await dailyInputsBetween(device, demo.storeA, first, last);
    });
    lines.push({ case: `read last month's daily inputs x${rounds}, device database`, requests: 0, ms: local.ms });
    const remote = await timed(async () => {
      for (let i = 0; i < rounds; i += 1) {
        await device.client.from('daily_inputs').select('*').eq('store_id', demo.storeA).gte('entry_date', first).lte('entry_date', last);
      }
    });
    lines.push({ case: `read last month's daily inputs x${rounds}, REST over loopback`, requests: rounds, ms: remote.ms });
    device.close();
    lines.push(...(await realtimeFloodBench(stack)));
    lines.push(...(await deviceChromiumBench()));
    lines.push(...(await pushBatchBench()));
    lines.push(...(await backendScaleBench()));
  } finally {
    await stack.stop();
  }
  printTable(lines);
}

function printTable(lines: Array<Line | DeviceLine>) {
  const width = Math.max(...lines.map((l) => l.case.length));
  process.stdout.write(`\n${'case'.padEnd(width)}  requests        ms\n`);
  for (const line of lines) {
    process.stdout.write(`${line.case.padEnd(width)}  ${String(line.requests).padStart(8)}  ${line.ms.toFixed(0).padStart(8)}\n`);
  }
  const device = deviceTable(lines.filter((line): line is DeviceLine => 'key' in line));
  if (device) process.stdout.write(`\n${device}`);
}

void main();
