import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { serviceLimits } from '../../../src/domain/limits.ts';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { untilTrue } from '../../support/poll.ts';
/** Until `check` holds (5000 ms unless told). */
const until = (check: () => boolean | Promise<boolean>, ms = 5000) => untilTrue(check, ms);


type Frame = [string | null, string | null, string, string, Record<string, unknown>];

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
        // January 2033 starts on a Saturday: Sunday-to-Saturday weeks of the month, and ISO weeks.
        week_of_month_display: day === 1 ? 1 : day <= 8 ? 2 : 3,
        year_week_actual: day <= 2 ? '2032-53' : day <= 9 ? '2033-01' : '2033-02',
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

describe('Realtime caps what one join and one connection may hold', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.stop());

  const binding = (i: number) => ({ event: '*', schema: 'public', table: 'daily_inputs', filter: `id=eq.${i}` });
  const join = (topic: string, ref: string, bindings: unknown[]) => JSON.stringify([ref, ref, topic, 'phx_join', { config: { postgres_changes: bindings } }]);
  const replyTo = (frames: Frame[], ref: string) => frames.find((f) => f[3] === 'phx_reply' && f[1] === ref)?.[4] as { status: string; response: { reason?: string } } | undefined;

  it('answers a join with more bindings than a channel may hold with an error reply, and keeps nothing of it', async () => {
    const { socket, frames } = openSocket(stack, '127.0.0.20');
    await opened(socket);
    const cap = serviceLimits.realtimeBindingsPerChannel;
    socket.send(join('realtime:too-many', '1', Array.from({ length: cap + 1 }, (_, i) => binding(i))));
    socket.send(join('realtime:just-right', '2', Array.from({ length: cap }, (_, i) => binding(i))));
    await until(() => replyTo(frames, '1') !== undefined && replyTo(frames, '2') !== undefined);
    expect(replyTo(frames, '1')).toEqual({ status: 'error', response: { reason: `PostgresChangesLimitReached: Too many postgres_changes bindings on one channel (at most ${cap})` } });
    expect(replyTo(frames, '2')?.status).toBe('ok');
    // The refused channel was not kept: a message to it is answered as to no channel.
    socket.send(JSON.stringify(['1', '3', 'realtime:too-many', 'access_token', { access_token: stack.keys.anonKey }]));
    await until(() => replyTo(frames, '3') !== undefined);
    expect(replyTo(frames, '3')).toEqual({ status: 'error', response: { reason: 'unmatched topic' } });
    socket.close();
  });

  it('refuses the join that would take a connection past its bindings, however they are spread over channels', async () => {
    const { socket, frames } = openSocket(stack, '127.0.0.21');
    await opened(socket);
    const perChannel = serviceLimits.realtimeBindingsPerChannel;
    const perConnection = serviceLimits.realtimeBindingsPerConnection;
    const full = Math.floor(perConnection / perChannel);
    for (let i = 0; i < full; i += 1) socket.send(join(`realtime:part-${i}`, String(i), Array.from({ length: perChannel }, (_, b) => binding(b))));
    const left = perConnection - full * perChannel;
    socket.send(join('realtime:one-too-many', 'over', Array.from({ length: left + 1 }, (_, b) => binding(b))));
    await until(() => replyTo(frames, 'over') !== undefined);
    for (let i = 0; i < full; i += 1) expect(replyTo(frames, String(i))?.status).toBe('ok');
    expect(replyTo(frames, 'over')).toEqual({
      status: 'error',
      response: { reason: `PostgresChangesLimitReached: Too many postgres_changes bindings on one connection (at most ${perConnection})` },
    });
    // Leaving a channel gives its bindings back.
    socket.send(JSON.stringify(['0', 'leave', 'realtime:part-0', 'phx_leave', {}]));
    socket.send(join('realtime:one-too-many', 'again', Array.from({ length: left + 1 }, (_, b) => binding(b))));
    await until(() => replyTo(frames, 'again') !== undefined);
    expect(replyTo(frames, 'again')?.status).toBe('ok');
    socket.close();
  });

  it('refuses a filter or a topic longer than the limits, and a frame larger than one join may need closes only that socket', async () => {
    const { socket, frames } = openSocket(stack, '127.0.0.22');
    await opened(socket);
    const longFilter = `id=eq.${'9'.repeat(serviceLimits.realtimeFilterLength)}`;
    socket.send(join('realtime:long-filter', 'f', [{ event: '*', schema: 'public', table: 'daily_inputs', filter: longFilter }]));
    socket.send(join(`realtime:${'t'.repeat(serviceLimits.realtimeTopicLength)}`, 't', [binding(1)]));
    socket.send(join('realtime:long-table', 'n', [{ event: '*', schema: 'public', table: 'x'.repeat(serviceLimits.realtimeTopicLength + 1) }]));
    await until(() => ['f', 't', 'n'].every((ref) => replyTo(frames, ref) !== undefined));
    expect(replyTo(frames, 'f')).toEqual({ status: 'error', response: { reason: `InvalidJoinPayload: a filter may be at most ${serviceLimits.realtimeFilterLength} characters` } });
    expect(replyTo(frames, 't')).toEqual({ status: 'error', response: { reason: `InvalidJoinPayload: a topic may be at most ${serviceLimits.realtimeTopicLength} characters` } });
    expect(replyTo(frames, 'n')?.status).toBe('error');

    // The join seen in the wild: 10,000 bindings in a 1 MiB frame.
    const flood = openSocket(stack, '127.0.0.23');
    await opened(flood.socket);
    const huge = join('realtime:flood', '1', Array.from({ length: 10_000 }, (_, i) => ({ event: '*', schema: 'public', table: 'daily_inputs', filter: `id=eq.${String(i).padStart(80, '0')}` })));
    expect(Buffer.byteLength(huge)).toBeGreaterThan(serviceLimits.realtimeFrameBytes);
    flood.socket.send(huge);
    expect(await flood.closed).toBe(1009);
    socket.send(JSON.stringify([null, 'hb', 'phoenix', 'heartbeat', {}]));
    await until(() => replyTo(frames, 'hb') !== undefined);
    expect(replyTo(frames, 'hb')?.status).toBe('ok');
    socket.close();
  });

  it('drops a connection that does not read its replies before they pile up past the send buffer cap', async () => {
    // Every frame is answered, echoing its ref: a client that sends and never reads would
    // otherwise make the backend hold every reply (here 400 x 60 KiB) in its own memory.
    const { socket, frames, closed } = openSocket(stack, '127.0.0.24');
    await opened(socket);
    const raw = (socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause();
    const ref = 'r'.repeat(60 * 1024);
    const sent = 400;
    for (let i = 0; i < sent; i += 1) socket.send(JSON.stringify([null, `${i}${ref}`, 'phoenix', 'heartbeat', {}]));
    let isClosed = false;
    void closed.then(() => { isClosed = true; });
    // The backend reads on while the client does not: it must drop the client, not hold its replies.
    const dropsBefore = stack.realtimeStats().droppedSlowConnections;
    await until(() => stack.realtimeStats().droppedSlowConnections > dropsBefore, 15_000);
    raw.resume();
    await until(() => isClosed || frames.length === sent, 10_000);
    expect(isClosed).toBe(true);
    expect(frames.length).toBeLessThan(sent);
    expect(frames.length * ref.length).toBeLessThan(20 * 1024 * 1024);
    // Another connection of the same address still gets its answer.
    const other = openSocket(stack, '127.0.0.24');
    await opened(other.socket);
    other.socket.send(JSON.stringify([null, 'hb', 'phoenix', 'heartbeat', {}]));
    await until(() => replyTo(other.frames, 'hb') !== undefined);
    other.socket.close();
  });

  it('reports a channel over the bindings cap to realtime-js as a channel error naming the limit', async () => {
    const manager = await stack.signIn('manager@example.com');
    const channel = manager.channel('greedy');
    for (let i = 0; i <= serviceLimits.realtimeBindingsPerChannel; i += 1) {
      channel.on('postgres_changes', { event: '*', schema: 'public', table: 'daily_inputs', filter: `id=eq.${i}` }, () => undefined);
    }
    const failure = await new Promise<Error | undefined>((resolve) => {
      channel.subscribe((status, error) => {
        if (status === 'CHANNEL_ERROR') resolve(error);
        if (status === 'SUBSCRIBED') resolve(undefined);
      });
    });
    expect(failure?.message).toMatch(/^PostgresChangesLimitReached: Too many postgres_changes bindings on one channel/);
    await manager.removeChannel(channel);
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
