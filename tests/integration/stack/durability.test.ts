import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import type { BackendProcess } from '../../support/backend-process.ts';
import { startBackendProcess } from '../../support/backend-process.ts';
import { demo } from '../../support/demo.ts';
import { pgliteDataFolder } from '../../support/database-templates.ts';
import { untilTrue } from '../../support/poll.ts';

// The backend process killed hard (SIGKILL, no shutdown) while writes are in flight, then
// started again on the same PGlite folder: every write that was answered 2xx must be
// there, through the REST API and through push_changes alike.

type Ack = { kind: 'rest' | 'push'; month: number; year: number; value: number };

// Each test starts backend processes (Node, TypeScript, PGlite): slow on a busy machine.
const processTestTimeoutMs = 180_000;

describe('acknowledged writes across a hard kill of the backend process', () => {
  let backend: BackendProcess | undefined;
  let dataDir = '';
  afterAll(async () => {
    await backend?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('finds every row answered 2xx after kill -9 and a restart on the same data', async () => {
    // The first start on a folder (migrating, seeding) is backend-process.test.ts's; this one starts on a folder in use.
    dataDir = await pgliteDataFolder('seeded', 'durability-');
    backend = await startBackendProcess({ dataDir });
    const manager = backend.client();
    const signedIn = await manager.auth.signInWithPassword({ email: 'manager@example.com', password: demo.password });
    expect(signedIn.error).toBeNull();

    const acknowledged: Ack[] = [];
    let failed = 0;
    let stopWriting = false;
    // Each write has its own (year, month) so a later one never overwrites an earlier one.
    const write = async (n: number) => {
      const year = 2040 + Math.floor(n / 12);
      const month = (n % 12) + 1;
      const value = 1000 + n + 0.25;
      const kind = n % 2 === 0 ? 'rest' : 'push';
      const { error } =
        kind === 'rest'
          ? await manager
              .from('monthly_targets')
              .upsert({ store_id: demo.storeA, year, month, metric_key: 'cpElr', target_value: value }, { onConflict: 'store_id,year,month,metric_key' })
          : await manager.rpc('push_changes', { p_table: 'yearly_financial_inputs', p_rows: [{ store_id: demo.storeA, year, month, sales: value }] });
      if (error) failed += 1;
      else acknowledged.push({ kind, year, month, value });
    };
    // Four writers in parallel; the kill lands while several requests are in flight.
    let next = 0;
    const writer = async () => {
      while (!stopWriting && next < 600) await write(next++).catch(() => (failed += 1));
    };
    const writers = Promise.all([writer(), writer(), writer(), writer()]);
    await untilTrue(() => acknowledged.length >= 80, 60_000, '80 writes acknowledged', 5);
    const killed = await backend.kill('SIGKILL');
    stopWriting = true;
    await writers;
    expect(killed.signal).toBe('SIGKILL');
    expect(failed).toBeGreaterThan(0); // requests were cut by the kill, so it really landed mid-stream

    await backend.restart();
    const service = backend.client(backend.serviceRoleKey);
    const targets = await service.from('monthly_targets').select('year, month, target_value').eq('store_id', demo.storeA).gte('year', 2040);
    const yearly = await service.from('yearly_financial_inputs').select('year, month, sales').eq('store_id', demo.storeA).gte('year', 2040);
    expect(targets.error).toBeNull();
    expect(yearly.error).toBeNull();
    const found = new Map<string, number>();
    for (const row of targets.data ?? []) found.set(`rest ${row.year}-${row.month}`, Number(row.target_value));
    for (const row of yearly.data ?? []) found.set(`push ${row.year}-${row.month}`, Number(row.sales));
    const missing = acknowledged.filter((ack) => found.get(`${ack.kind} ${ack.year}-${ack.month}`) !== ack.value);
    expect(missing).toEqual([]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(80);

    // The restarted backend still takes writes and sessions signed before the kill.
    const after = await manager.from('monthly_targets').select('id').eq('year', 2040).limit(1);
    expect(after.error).toBeNull();
  }, processTestTimeoutMs);
});
