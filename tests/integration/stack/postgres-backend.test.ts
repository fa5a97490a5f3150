import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { engines } from '../../support/test-databases.ts';
import { untilTrue } from '../../support/poll.ts';

// The same stack on a real PostgreSQL server (DATABASE_URL in production use): sessions,
// RLS-scoped REST and realtime through LISTEN on a pooled connection.
describe.runIf(engines.includes('postgres'))('the embedded stack on a real PostgreSQL server', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ engine: 'postgres' });
  });
  afterAll(() => stack?.stop());

  it('signs in, reads only the own store, writes, and delivers the change over realtime', async () => {
    const manager = await stack.signIn('manager@example.com');
    expect((await manager.from('stores').select('name')).data).toEqual([{ name: 'Demo Motors' }]);
    const events: unknown[] = [];
    await new Promise<void>((resolve, reject) => {
      manager
        .channel('pg')
        .on('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'store_settings' }, (payload) => events.push(payload.new))
        .subscribe((status) => (status === 'SUBSCRIBED' ? resolve() : status === 'CHANNEL_ERROR' ? reject(new Error(status)) : undefined));
    });
    const written = await manager.from('store_settings').update({ stalls: 31 }).eq('store_id', demo.storeA).select('stalls');
    expect(written).toMatchObject({ error: null, data: [{ stalls: 31 }] });
    await untilTrue(() => events.length > 0, 10_000, 'the update heard over Realtime');
    expect(events).toMatchObject([{ store_id: demo.storeA, stalls: 31 }]);
  });
});
