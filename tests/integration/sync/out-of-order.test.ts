import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { engines } from '../../support/test-databases.ts';
import type { Device } from './device.ts';
import { createDevice } from './device.ts';

// Needs two server transactions open at once: a real PostgreSQL (PGlite serialises them).
describe.runIf(engines.includes('postgres'))('a device pulling between transactions that commit out of order', () => {
  let stack: TestStack;
  let device: Device;
  const writers: pg.Client[] = [];
  beforeAll(async () => {
    stack = await startTestStack({ engine: 'postgres' });
    device = await createDevice(stack, 'manager@example.com');
    const { rows } = await stack.database.query<{ db: string }>('select current_database() as db');
    const url = new URL(process.env.TEST_DATABASE_URL ?? '');
    url.pathname = `/${rows[0]?.db}`;
    for (let i = 0; i < 2; i += 1) {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      writers.push(client);
    }
  });
  afterAll(async () => {
    await Promise.all(writers.map((w) => w.end()));
    device?.close();
    await stack?.stop();
  });

  it('gets both rows on its next pull', async () => {
    const engine = device.engine();
    await engine.runOnce('start');
    const [early, late] = writers as [pg.Client, pg.Client];
    const insert = 'insert into monthly_targets (store_id, year, month, metric_key, target_value) values ($1, 2031, $2, $3, 1)';
    await early.query('begin');
    await early.query(insert, [demo.storeA, 1, 'hoursPerDay']);
    await late.query('begin');
    await late.query(insert, [demo.storeA, 2, 'salesPerDay']);
    await late.query('commit');
    await engine.runOnce('manual');
    const targets = () => device.db.mirror('monthly_targets').where('[store_id+year+month]').between([demo.storeA, 2031, 0], [demo.storeA, 2031, 13]).toArray();
    expect((await targets()).map((row) => row.metric_key)).toEqual(['salesPerDay']);
    await early.query('commit');
    await engine.runOnce('manual');
    expect((await targets()).map((row) => row.metric_key).sort()).toEqual(['hoursPerDay', 'salesPerDay']);
  });
});
