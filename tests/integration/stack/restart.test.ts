import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@supabase/supabase-js';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openDatabase } from '../../../supabase/local/db/open.ts';
import { startLocalStack } from '../../../supabase/local/server.ts';
import { demo } from '../../support/demo.ts';

describe('the embedded stack across a restart on the same data folder', () => {
  let dataDir = '';
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps the data written before the stop and applies no migration twice', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'local-supabase-'));
    const first = await startLocalStack({ db: await openDatabase({ dataDir }), port: 0 });
    expect(first.appliedMigrations.length).toBeGreaterThan(0);
    expect(first.seeded).toBe(true);
    const client = createClient(first.url, first.keys.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    });
    await client.auth.signInWithPassword({ email: 'manager@example.com', password: demo.password });
    const written = await client
      .from('monthly_targets')
      .upsert({ store_id: demo.storeA, year: 2031, month: 7, metric_key: 'cpElr', target_value: 212.5 }, { onConflict: 'store_id,year,month,metric_key' });
    expect(written.error).toBeNull();
    await first.close();
    await first.db.close();

    const second = await startLocalStack({ db: await openDatabase({ dataDir }), port: 0 });
    try {
      expect(second.appliedMigrations).toEqual([]);
      expect(second.seeded).toBe(false);
      const { rows } = await second.db.query<{ target: string; stores: number }>(
        `select (select target_value::text from monthly_targets where year = 2031 and month = 7) as target,
                (select count(*)::int from stores) as stores`,
      );
      expect(rows[0]).toEqual({ target: '212.50', stores: 2 });
    } finally {
      await second.close();
      await second.db.close();
    }
  }, 120_000); // Two starts on a PGlite folder, the first migrating and loading the demo data.
});
