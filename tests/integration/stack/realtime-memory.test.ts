/**
 * Realtime's memory ceiling, measured: the backend runs in a process of its own and
 * every connection it allows (realtimeConnections, from as many addresses as that
 * takes) joins every channel it may, holding every binding it may, each spelled as long
 * as the limits let it, in two-byte characters (what costs the most). The heap the
 * backend holds for them, after a full collection, must stay under the figure
 * docs/security.md gives; the next connection is refused.
 */
import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { serviceLimits } from '../../../src/domain/limits.ts';
import { demo } from '../../support/demo.ts';
import { until } from '../../support/poll.ts';

type Memory = { heapUsed: number; external: number; arrayBuffers: number; rss: number };
const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
/** The ceiling docs/security.md states for the worst allowed case, in MiB of heap and buffers. */
const ceilingMib = 128;

describe('Realtime memory at every cap at once', () => {
  let child: ChildProcess;
  let url = '';
  let anonKey = '';
  const replies: unknown[] = [];

  const ask = (): Promise<Memory> =>
    new Promise((resolve) => {
      child.once('message', (message) => resolve(message as Memory));
      child.send('heap');
    });

  beforeAll(async () => {
    child = fork(path.resolve('tests/support/memory-probe-stack.ts'), [], { execArgv: ['--expose-gc', '--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const ready = await new Promise<{ url: string; anonKey: string }>((resolve, reject) => {
      child.once('message', (message) => resolve(message as { url: string; anonKey: string }));
      child.once('exit', (code) => reject(new Error(`the stack process ended (${String(code)})`)));
    });
    ({ url, anonKey } = ready);
  }, 60_000);
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const ended = new Promise((resolve) => child.once('exit', resolve));
      child.send('stop');
      await ended;
    }
  });

  it('holds every allowed connection, channel and binding within the documented ceiling, and refuses one connection more', async () => {
    const before = await ask();
    const perChannel = Math.floor(serviceLimits.realtimeBindingsPerConnection / serviceLimits.realtimeChannelsPerConnection);
    const long = (length: number, prefix = '') => prefix + '€'.repeat(length - prefix.length);
    const binding = (i: number) => ({
      event: 'insert',
      schema: long(serviceLimits.realtimeTopicLength, `s${i}`),
      table: long(serviceLimits.realtimeTopicLength, `t${i}`),
      filter: long(serviceLimits.realtimeFilterLength, `c${i}=eq.`),
    });
    const sockets: WebSocket[] = [];
    let ok = 0;
    let refused = 0;
    const addresses = Math.ceil(serviceLimits.realtimeConnections / serviceLimits.realtimeConnectionsPerAddress);
    for (let c = 0; c < serviceLimits.realtimeConnections; c += 1) {
      const address = `127.0.1.${10 + Math.floor(c / serviceLimits.realtimeConnectionsPerAddress)}`;
      const socket = new WebSocket(`${url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${anonKey}&vsn=2.0.0`, { localAddress: address });
      socket.on('message', (data) => {
        const reply = JSON.parse(data.toString()) as [unknown, unknown, string, string, { status?: string }];
        if (reply[3] !== 'phx_reply') return;
        if (reply[4].status === 'ok') ok += 1;
        else replies.push(reply[4]);
        if (reply[4].status !== 'ok') refused += 1;
      });
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      for (let ch = 0; ch < serviceLimits.realtimeChannelsPerConnection; ch += 1) {
        const topic = long(serviceLimits.realtimeTopicLength, `realtime:${c}-${ch}-`);
        const bindings = Array.from({ length: perChannel }, (_, i) => binding(ch * perChannel + i));
        socket.send(JSON.stringify([String(ch), String(ch), topic, 'phx_join', { config: { postgres_changes: bindings } }]));
      }
      sockets.push(socket);
      // Let the backend keep up, as the connection pauses reading anyway.
      if (c % 20 === 19) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const joins = serviceLimits.realtimeConnections * serviceLimits.realtimeChannelsPerConnection;
    await until(() => ok + refused, (answered) => answered >= joins, 120_000, 'every join answered', 50);
    expect(replies.slice(0, 3)).toEqual([]);
    expect(ok).toBe(joins);

    const extra = new WebSocket(`${url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${anonKey}&vsn=2.0.0`, { localAddress: `127.0.1.${10 + addresses}` });
    const code = await new Promise<number>((resolve) => extra.once('close', resolve));
    expect(code).toBe(1013);

    const after = await ask();
    const held = after.heapUsed + after.external - (before.heapUsed + before.external);
    const figures = {
      connections: serviceLimits.realtimeConnections,
      channels: joins,
      bindings: joins * perChannel,
      heldMib: mib(held),
      perConnectionKib: Math.round(held / serviceLimits.realtimeConnections / 1024),
      rssMib: mib(after.rss - before.rss),
    };
    console.log(`realtime memory at every cap: ${JSON.stringify(figures)}`);
    expect(mib(held)).toBeLessThan(ceilingMib);
    for (const socket of sockets) socket.terminate();
  }, 300_000);
});

describe('Realtime memory when every channel brings a token of its own', () => {
  let child: ChildProcess;
  let url = '';
  let anonKey = '';

  const ask = (): Promise<Memory> =>
    new Promise((resolve) => {
      child.once('message', (message) => resolve(message as Memory));
      child.send('heap');
    });

  beforeAll(async () => {
    child = fork(path.resolve('tests/support/memory-probe-stack.ts'), [], { execArgv: ['--expose-gc', '--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    ({ url, anonKey } = await new Promise<{ url: string; anonKey: string }>((resolve, reject) => {
      child.once('message', (message) => resolve(message as { url: string; anonKey: string }));
      child.once('exit', (code) => reject(new Error(`the stack process ended (${String(code)})`)));
    }));
  }, 60_000);
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const ended = new Promise((resolve) => child.once('exit', resolve));
      child.send('stop');
      await ended;
    }
  });

  /** A member's access tokens, each signed in afresh, each carrying the most user metadata allowed in many small keys. */
  async function memberTokens(count: number): Promise<string[]> {
    const auth = (pathAndQuery: string, init: { method: string; body: unknown; token?: string }) =>
      fetch(`${url}/auth/v1${pathAndQuery}`, {
        method: init.method,
        headers: { apikey: anonKey, 'Content-Type': 'application/json', ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}) },
        body: JSON.stringify(init.body),
      }).then((res) => res.json() as Promise<{ access_token: string }>);
    const signIn = () => auth('/token?grant_type=password', { method: 'POST', body: { email: 'manager@example.com', password: demo.password } });
    const data: Record<string, number> = {};
    for (let i = 0; JSON.stringify(data).length < 3_900; i += 1) data[`k${i}`] = i;
    await auth('/user', { method: 'PUT', body: { data }, token: (await signIn()).access_token });
    const tokens: string[] = [];
    for (let i = 0; i < count; i += 1) tokens.push((await signIn()).access_token);
    return tokens;
  }

  it('keeps one claims object per person and connection, within the same ceiling', async () => {
    const tokens = await memberTokens(serviceLimits.realtimeChannelsPerConnection);
    expect(new Set(tokens).size).toBe(tokens.length);
    const before = await ask();
    const sockets: WebSocket[] = [];
    let ok = 0;
    const replies: unknown[] = [];
    for (let c = 0; c < serviceLimits.realtimeConnections; c += 1) {
      const address = `127.0.2.${10 + Math.floor(c / serviceLimits.realtimeConnectionsPerAddress)}`;
      const socket = new WebSocket(`${url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${anonKey}&vsn=2.0.0`, { localAddress: address });
      socket.on('message', (raw) => {
        const reply = JSON.parse(raw.toString()) as [unknown, unknown, string, string, { status?: string }];
        if (reply[3] !== 'phx_reply') return;
        if (reply[4].status === 'ok') ok += 1;
        else replies.push(reply[4]);
      });
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      tokens.forEach((token, ch) => {
        const bindings = [{ event: '*', schema: 'public', table: 'daily_inputs' }];
        socket.send(JSON.stringify([String(ch), String(ch), `realtime:${c}-${ch}`, 'phx_join', { access_token: token, config: { postgres_changes: bindings } }]));
      });
      sockets.push(socket);
      if (c % 20 === 19) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const joins = serviceLimits.realtimeConnections * tokens.length;
    await until(() => ok + replies.length, (answered) => answered >= joins, 120_000, 'every join answered', 50);
    expect(replies.slice(0, 3)).toEqual([]);
    expect(ok).toBe(joins);
    const after = await ask();
    const held = after.heapUsed + after.external - (before.heapUsed + before.external);
    console.log(`realtime memory with a token per channel: ${JSON.stringify({ channels: joins, tokenBytes: tokens[0]?.length, heldMib: mib(held) })}`);
    // One claims object per connection costs about 20 KiB here; one per channel cost about 20 times that.
    expect(mib(held)).toBeLessThan(ceilingMib / 2);
    for (const socket of sockets) socket.terminate();
  }, 300_000);
});
