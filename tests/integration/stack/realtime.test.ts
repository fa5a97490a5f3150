import type { RealtimePostgresChangesPayload, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { untilTrue } from '../../support/poll.ts';

type Change = RealtimePostgresChangesPayload<Record<string, unknown>>;

/** Subscribes and resolves once the server confirmed the subscription. */
async function subscribe(client: SupabaseClient, name: string, table: string, filter?: string) {
  const events: Change[] = [];
  await new Promise<void>((resolve, reject) => {
    client
      .channel(name)
      .on('postgres_changes', { event: '*', schema: 'public', table, ...(filter ? { filter } : {}) }, (payload) => {
        events.push(payload as Change);
      })
      .subscribe((status, error) => {
        if (status === 'SUBSCRIBED') resolve();
        if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(error ?? new Error(status));
      });
  });
  return events;
}

/** Events and replies arrive within moments; a busy machine gets ten seconds. */
const heardWithin = 10_000;

describe('Realtime postgres_changes on the embedded stack', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.stop());

  it('delivers INSERT, UPDATE and DELETE to an allowed subscriber within 1 s, and nothing to another store', async () => {
    const manager = await stack.signIn('manager@example.com');
    const other = await stack.signIn('other@example.com');
    const mine = await subscribe(manager, 'targets', 'monthly_targets', `store_id=eq.${demo.storeA}`);
    const theirs = await subscribe(other, 'targets-other', 'monthly_targets');

    const service = stack.service();
    const inserted = await service
      .from('monthly_targets')
      .insert({ store_id: demo.storeA, year: 2031, month: 1, metric_key: 'cpElr', target_value: 190 })
      .select('id')
      .single();
    const id = (inserted.data as { id: string }).id;
    await untilTrue(() => mine.length === 1, heardWithin);
    expect(mine[0]).toMatchObject({ eventType: 'INSERT', table: 'monthly_targets', new: { id, target_value: 190, store_id: demo.storeA } });

    await service.from('monthly_targets').update({ target_value: 195 }).eq('id', id);
    await untilTrue(() => mine.length === 2, heardWithin);
    expect(mine[1]).toMatchObject({ eventType: 'UPDATE', new: { id, target_value: 195 }, old: { id } });

    await service.from('monthly_targets').delete().eq('id', id);
    await untilTrue(() => mine.length === 3, heardWithin);
    expect(mine[2]).toMatchObject({ eventType: 'DELETE', old: { id } });

    // The other store's user is subscribed to the whole table: the rows, and their deletion, were never theirs.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(theirs).toEqual([]);
  });

  it('honours eq filters: a change in another store does not match', async () => {
    const admin = await stack.signIn('admin@example.com');
    const filtered = await subscribe(admin, 'filtered', 'stores', `id=eq.${demo.storeB}`);
    await stack.service().from('stores').update({ name: 'Demo Motors' }).eq('id', demo.storeA);
    await stack.service().from('stores').update({ name: 'Northside Auto' }).eq('id', demo.storeB);
    await untilTrue(() => filtered.length === 1, heardWithin);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(filtered.map((e) => (e.new as { name: string }).name)).toEqual(['Northside Auto']);
  });

  it('speaks the 1.0.0 object framing and answers heartbeats', async () => {
    const socket = new WebSocket(`${stack.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${stack.keys.anonKey}&vsn=1.0.0`);
    const replies: Array<Record<string, unknown>> = [];
    socket.on('message', (data) => replies.push(JSON.parse(data.toString()) as Record<string, unknown>));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: '1' }));
    socket.send(JSON.stringify({ topic: 'realtime:x', event: 'phx_join', payload: { config: { postgres_changes: [{ event: '*', schema: 'public', table: 'stores', filter: 'bad filter' }] } }, ref: '2', join_ref: '2' }));
    await untilTrue(() => replies.length >= 2, heardWithin);
    socket.close();
    expect(replies[0]).toMatchObject({ topic: 'phoenix', event: 'phx_reply', ref: '1', payload: { status: 'ok' } });
    expect(replies[1]).toMatchObject({ topic: 'realtime:x', event: 'phx_reply', ref: '2', payload: { status: 'error' } });
  });

  it('switches a channel to the identity of an access_token update (vsn 2.0.0 framing)', async () => {
    const socket = new WebSocket(`${stack.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${stack.keys.anonKey}&vsn=2.0.0`);
    const frames: unknown[][] = [];
    socket.on('message', (data) => frames.push(JSON.parse(data.toString()) as unknown[]));
    await new Promise((resolve) => socket.once('open', resolve));
    const topic = 'realtime:settings';
    const binding = { event: '*', schema: 'public', table: 'store_settings' };
    socket.send(JSON.stringify(['1', '1', topic, 'phx_join', { config: { postgres_changes: [binding] } }]));
    await untilTrue(() => frames.some((f) => f[3] === 'phx_reply'), heardWithin);
    expect(frames[0]).toEqual(['1', '1', topic, 'phx_reply', { status: 'ok', response: { postgres_changes: [{ ...binding, id: 1000 }] } }]);

    const changes = () => frames.filter((f) => f[3] === 'postgres_changes');
    const service = stack.service();
    await service.from('store_settings').update({ stalls: 25 }).eq('store_id', demo.storeA);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(changes()).toEqual([]); // anonymous: may not read store settings

    const manager = await stack.signIn('manager@example.com');
    const token = (await manager.auth.getSession()).data.session?.access_token;
    socket.send(JSON.stringify(['1', '2', topic, 'access_token', { access_token: token }]));
    await untilTrue(() => frames.some((f) => f[1] === '2'), heardWithin);
    await service.from('store_settings').update({ stalls: 26 }).eq('store_id', demo.storeA);
    await untilTrue(() => changes().length === 1, heardWithin);
    socket.close();
    const payload = changes()[0]?.[4] as { ids: number[]; data: { record: { stalls: number } } };
    expect(payload.ids).toEqual([1000]);
    expect(payload.data.record.stalls).toBe(26);
  });
});
