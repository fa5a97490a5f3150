/**
 * Websocket sessions for the hostile-request suite: upgrades with bad paths, parameters
 * and tokens, and, once connected, frames the Realtime service must survive (bad JSON,
 * wrong shapes, bad joins and filters, binary and invalid UTF-8 frames, oversized ones).
 * After its frames, a session that is still open must answer a heartbeat.
 */
import WebSocket from 'ws';
import type { Random } from '../../../support/random.ts';
import type { Tokens } from './tokens.ts';

export type Frame = { text: string } | { binary: Buffer } | { rawText: Buffer };
export type SocketCase = { query: string; path: string; vsn: string; frames: Frame[] };

export function socketCases(pick: Random, tokens: Tokens, count: number): SocketCase[] {
  const { one, int, chance } = pick;
  const join = (payload: unknown) => JSON.stringify(['1', '1', `realtime:${one(['t', '', 'x'.repeat(200)])}`, 'phx_join', payload]);
  const texts = [
    '{', '[]', 'null', '"x"', '[1,2,3,4,5]', '[null,null,null,null,null]', '{"topic": 1, "event": []}',
    join({ config: { postgres_changes: [null] } }),
    join({ config: { postgres_changes: [1, 'x', []] } }),
    join({ config: { postgres_changes: 'x' } }),
    join({ config: null, access_token: tokens.forged }),
    join({ access_token: one([tokens.expired, tokens.algNone, tokens.postgresRole, tokens.garbage, 5, null]) }),
    join({ access_token: tokens.manager, config: { postgres_changes: [{ event: 'bogus', schema: 5, table: [], filter: 'id=in.(' }] } }),
    join({ access_token: tokens.manager, config: { postgres_changes: [{ event: '*', schema: 'public', table: 'daily_inputs', filter: one(['bogus', 'value=gt.x', 'id=eq.', `id=in.(${'1,'.repeat(2000)}1)`, 'x=like.*']) }] } }),
    join({ access_token: tokens.manager, config: { postgres_changes: [{ event: '*', schema: 'auth', table: 'users' }] } }),
    JSON.stringify(['1', '2', 'realtime:t', 'access_token', { access_token: one([tokens.forged, 5, null]) }]),
    JSON.stringify(['1', '3', 'realtime:nope', 'phx_leave', {}]),
    JSON.stringify(['1', '4', 'realtime:t', 'broadcast', { event: 'x', payload: { a: 1 } }]),
    JSON.stringify([null, '5', 'phoenix', 'heartbeat', 'not-an-object']),
    JSON.stringify({ topic: 'realtime:t', event: 'phx_join', payload: { config: { postgres_changes: [null] } }, ref: '1' }),
    // Past Realtime's caps: bindings on one channel, a filter's length, an unknown event, and
    // (closing the socket for its size) a join of 10,000 bindings.
    join({ config: { postgres_changes: Array.from({ length: 51 }, (_, i) => ({ event: '*', schema: 'public', table: 'stores', filter: `id=eq.${i}` })) } }),
    join({ config: { postgres_changes: [{ event: '*', schema: 'public', table: 'stores', filter: `name=eq.${'€'.repeat(300)}` }] } }),
    join({ config: { postgres_changes: [{ event: 'TRUNCATE', schema: 'public', table: 'stores' }] } }),
    join({ config: { postgres_changes: Array.from({ length: 10_000 }, (_, i) => ({ event: '*', schema: 'public', table: 'daily_inputs', filter: `id=eq.${i}` })) } }),
    '['.repeat(10_000),
    JSON.stringify(['1', '1', `realtime:${'t'.repeat(100_000)}`, 'phx_join', {}]),
  ];
  const frame = (): Frame => {
    const r = pick.next();
    if (r < 0.8) return { text: one(texts) };
    if (r < 0.88) return { binary: Buffer.from([0, 1, 2, 255, 254]) };
    if (r < 0.96) return { rawText: Buffer.from([0x5b, 0x22, 0xff, 0xfe, 0x22, 0x5d]) };
    return { text: 'x'.repeat(1024 * 1024 + 10) };
  };
  return Array.from({ length: count }, () => {
    const goodPath = chance(0.85);
    return {
      path: goodPath ? '/realtime/v1/websocket' : one(['/realtime/v1/websocket/x', '/realtime/v1', '/rest/v1/stores', '/', '/realtime/v1/%ZZ', '//realtime/v1/websocket']),
      query: `apikey=${encodeURIComponent(one([tokens.anon, tokens.anon, tokens.forged, tokens.garbage, '', '%ZZ']))}${chance(0.8) ? `&vsn=${one(['1.0.0', '2.0.0', '2.0.0', 'x', ''])}` : ''}${chance(0.1) ? '&x=%ZZ' : ''}`,
      vsn: '',
      frames: Array.from({ length: int(1, 5) }, frame),
    };
  }).map((c) => ({ ...c, vsn: /vsn=2\.0\.0/.test(c.query) ? '2.0.0' : '1.0.0' }));
}

export type SocketOutcome =
  | { kind: 'refused'; status: number }
  | { kind: 'closed'; code: number; framesSent: number }
  | { kind: 'answered-heartbeat'; framesSent: number }
  | { kind: 'silent'; framesSent: number };

const heartbeat = (vsn: string) =>
  vsn === '2.0.0'
    ? JSON.stringify([null, 'hb', 'phoenix', 'heartbeat', {}])
    : JSON.stringify({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: 'hb' });

/** Opens the session, sends its frames, then a heartbeat, and reports how it ended. */
export function runSocket(baseUrl: string, testCase: SocketCase, ms = 4_000): Promise<SocketOutcome> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${baseUrl.replace('http', 'ws')}${testCase.path}?${testCase.query}`);
    let framesSent = 0;
    let settled = false;
    const finish = (outcome: SocketOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ws.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: 'silent', framesSent }), ms);
    ws.on('unexpected-response', (_req, res) => finish({ kind: 'refused', status: res.statusCode ?? 0 }));
    ws.on('error', () => undefined);
    ws.on('close', (code) => finish({ kind: 'closed', code, framesSent }));
    ws.on('message', (data) => {
      const text = String(data);
      if (text.includes('"hb"')) finish({ kind: 'answered-heartbeat', framesSent });
    });
    ws.on('open', () => {
      for (const frame of testCase.frames) {
        if ('text' in frame) ws.send(frame.text);
        else if ('binary' in frame) ws.send(frame.binary, { binary: true });
        else ws.send(frame.rawText, { binary: false });
        framesSent += 1;
      }
      ws.send(heartbeat(testCase.vsn));
    });
  });
}
