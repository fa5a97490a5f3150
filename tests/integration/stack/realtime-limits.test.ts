import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { serviceLimits } from '../../../src/domain/limits.ts';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';

type Frame = [string | null, string | null, string, string, Record<string, unknown>];

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function openSocket(stack: TestStack, from = '127.0.0.1'): { socket: WebSocket; frames: Frame[]; closed: Promise<number> } {
  const socket = new WebSocket(`${stack.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${stack.keys.anonKey}&vsn=2.0.0`, {
    localAddress: from,
  });
  const frames: Frame[] = [];
  socket.on('message', (data) => frames.push(JSON.parse(data.toString()) as Frame));
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  return { socket, frames, closed };
}

const opened = (socket: WebSocket) => new Promise((resolve, reject) => {
  socket.once('open', resolve);
  socket.once('error', reject);
});

describe('Realtime caps what one client may cost', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.stop());

  it('refuses 1,000 anonymous channel joins past the cap, and anonymous channels cost writes no row reads', async () => {
    const { socket, frames } = openSocket(stack, '127.0.0.9');
    await opened(socket);
    const binding = { event: '*', schema: 'public', table: 'daily_inputs' };
    for (let i = 0; i < 1000; i += 1) {
      socket.send(JSON.stringify([String(i), String(i), `realtime:flood-${i}`, 'phx_join', { config: { postgres_changes: [binding] } }]));
    }
    await until(() => frames.filter((f) => f[3] === 'phx_reply').length === 1000);
    const replies = frames.filter((f) => f[3] === 'phx_reply').map((f) => f[4] as { status: string; response: { reason?: string } });
    expect(replies.filter((r) => r.status === 'ok')).toHaveLength(serviceLimits.realtimeChannelsPerConnection);
    const refused = replies.filter((r) => r.status === 'error');
    expect(refused).toHaveLength(1000 - serviceLimits.realtimeChannelsPerConnection);
    expect(refused[0]?.response.reason).toMatch(/^ChannelRateLimitReached: Too many channels/);

    // A signed-in manager listens through two channels with one token, as two screens of one tab would.
    const manager = await stack.signIn('manager@example.com');
    const heard: unknown[] = [];
    for (const name of ['one', 'two']) {
      await new Promise<void>((resolve) => {
        manager
          .channel(name)
          .on('postgres_changes', { event: '*', schema: 'public', table: 'daily_inputs' }, (payload) => heard.push(payload))
          .subscribe((status) => status === 'SUBSCRIBED' && resolve());
      });
    }
    const before = stack.realtimeStats();
    const service = stack.service();
    for (let day = 1; day <= 10; day += 1) {
      const { error } = await service.from('daily_inputs').insert({
        store_id: demo.storeA,
        entry_date: `2033-01-${String(day).padStart(2, '0')}`,
        row_identifier: 'CP',
        metric_type: 'hours',
        year: 2033,
        month: 1,
        day_of_week_iso: new Date(Date.UTC(2033, 0, day)).getUTCDay() || 7,
        value: day,
      });
      expect(error).toBeNull();
    }
    await until(() => heard.length === 20); // 10 inserts, each on both channels
    const after = stack.realtimeStats();
    // One read-back per insert: the manager's two channels share one, the 20 anonymous channels need none.
    expect(after.rowReads - before.rowReads).toBe(10);
    expect(frames.filter((f) => f[3] === 'postgres_changes')).toEqual([]);
    socket.close();
  });

  it('refuses connections past the cap of one address with close code 1013, and only that address', async () => {
    const cap = serviceLimits.realtimeConnectionsPerAddress;
    const held = Array.from({ length: cap }, () => openSocket(stack, '127.0.0.10'));
    await Promise.all(held.map((h) => opened(h.socket)));
    const extra = openSocket(stack, '127.0.0.10');
    expect(await extra.closed).toBe(1013);
    const elsewhere = openSocket(stack, '127.0.0.11');
    await opened(elsewhere.socket);
    elsewhere.socket.send(JSON.stringify([null, '1', 'phoenix', 'heartbeat', {}]));
    await until(() => elsewhere.frames.length === 1);
    expect(elsewhere.frames[0]?.[4]).toMatchObject({ status: 'ok' });
    for (const h of [...held, elsewhere]) h.socket.close();
  });
});

describe('realtime-js at the connection cap', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.stop());

  it('reconnects by itself and subscribes once the address has room again', async () => {
    const held = Array.from({ length: serviceLimits.realtimeConnectionsPerAddress }, () => openSocket(stack));
    await Promise.all(held.map((h) => opened(h.socket)));
    const manager = await stack.signIn('manager@example.com');
    const statuses: string[] = [];
    manager.channel('pokes').on('postgres_changes', { event: '*', schema: 'public', table: 'stores' }, () => undefined).subscribe((status) => {
      statuses.push(status);
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(statuses).not.toContain('SUBSCRIBED');
    for (const h of held) h.socket.close();
    await until(() => statuses.includes('SUBSCRIBED'), 15_000);
  });
});
