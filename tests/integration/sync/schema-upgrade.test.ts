import { IDBFactory } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestSchemaVersion } from '../../../src/data/app-database.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { createDevice, dailyWrite } from './device.ts';

describe('a device database upgraded with edits still queued', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.stop());

  it('pushes all 200 edits queued under the previous schema version', async () => {
    expect(latestSchemaVersion).toBeGreaterThan(1);
    const browser = new IDBFactory();
    const old = await createDevice(stack, 'manager@example.com', { indexedDB: browser, schemaUpTo: latestSchemaVersion - 1 });
    old.network.online = false;
    await old.save(Array.from({ length: 200 }, (_, n) => dailyWrite(n, n + 0.25)));
    expect(old.db.verno).toBe(latestSchemaVersion - 1);
    old.close();

    const upgraded = await createDevice(stack, 'manager@example.com', { indexedDB: browser, signIn: false });
    expect(await upgraded.db.outbox.count()).toBe(200);
    expect(upgraded.db.verno).toBe(latestSchemaVersion);
    expect(await upgraded.engine().runOnce('online')).toMatchObject({ ok: true, pushed: 200 });
    const { rows } = await stack.database.query<{ n: number; total: string }>(
      `select count(*)::int as n, sum(value)::text as total from daily_inputs where entry_date >= '2031-01-01'`,
    );
    // 0.25 + 1.25 + ... + 199.25
    expect(rows[0]).toEqual({ n: 200, total: String(200 * 0.25 + (199 * 200) / 2) + '.00' });
    upgraded.close();
  });
});
