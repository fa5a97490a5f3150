/**
 * Writes while anonymous clients flood Realtime with channel joins: 50 inserts, timed
 * until a signed-in subscriber heard them all, with no flood and after 1,000 anonymous
 * join attempts spread over 10 connections. The channel cap refuses most joins and the
 * accepted anonymous channels cost no row reads, so the two figures should be close.
 */
import WebSocket from 'ws';
import { demo } from '../support/demo.ts';
import type { TestStack } from '../support/local-stack.ts';

export type BenchLine = { case: string; requests: number; ms: number };

async function flood(stack: TestStack, attempts: number, connections: number): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  for (let c = 0; c < connections; c += 1) {
    const socket = new WebSocket(`${stack.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${stack.keys.anonKey}&vsn=2.0.0`);
    await new Promise((resolve) => socket.once('open', resolve));
    let replies = 0;
    const answered = new Promise<void>((resolve) => {
      socket.on('message', () => {
        replies += 1;
        if (replies >= attempts / connections) resolve();
      });
    });
    for (let i = 0; i < attempts / connections; i += 1) {
      const binding = { event: '*', schema: 'public', table: 'daily_inputs' };
      socket.send(JSON.stringify([String(i), String(i), `realtime:flood-${c}-${i}`, 'phx_join', { config: { postgres_changes: [binding] } }]));
    }
    await answered;
    sockets.push(socket);
  }
  return sockets;
}

async function timedWrites(stack: TestStack, yearOffset: number, heard: () => number): Promise<number> {
  const service = stack.service();
  const start = heard();
  const started = performance.now();
  for (let day = 1; day <= 50; day += 1) {
    const date = new Date(Date.UTC(2040 + yearOffset, 0, day));
    await service.from('daily_inputs').insert({
      store_id: demo.storeA,
      entry_date: date.toISOString().slice(0, 10),
      row_identifier: 'CP',
      metric_type: 'hours',
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day_of_week_iso: date.getUTCDay() || 7,
      value: day,
    });
  }
  while (heard() < start + 50) await new Promise((resolve) => setTimeout(resolve, 5));
  return performance.now() - started;
}

export async function realtimeFloodBench(stack: TestStack): Promise<BenchLine[]> {
  const manager = await stack.signIn('manager@example.com');
  let heard = 0;
  await new Promise<void>((resolve) => {
    manager
      .channel('bench')
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'daily_inputs' }, () => (heard += 1))
      .subscribe((status) => status === 'SUBSCRIBED' && resolve());
  });
  const quiet = await timedWrites(stack, 0, () => heard);
  const sockets = await flood(stack, 1000, 10);
  const flooded = await timedWrites(stack, 1, () => heard);
  for (const socket of sockets) socket.close();
  await manager.removeAllChannels();
  return [
    { case: '50 writes heard by one subscriber, no flood', requests: 50, ms: quiet },
    { case: '50 writes after 1,000 anonymous channel joins', requests: 50, ms: flooded },
  ];
}
