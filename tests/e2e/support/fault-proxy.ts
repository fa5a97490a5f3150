/**
 * A fault proxy between the browser and the embedded backend, for outage drills. It
 * forwards HTTP and websocket traffic to the backend and, on the test's word, behaves
 * like bad shop-floor Wi-Fi: it cuts the network (connections refused and reset), delays
 * requests, or drops replies AFTER the backend acted (the request is forwarded and
 * answered, then the browser's connection is destroyed), for a share of the requests
 * whose path matches a pattern. Randomness is seeded, so a failing drill replays.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import net from 'node:net';
import { seeded } from '../../support/random.ts';

export type DropRule = { path: RegExp; share: number };

export type FaultProxy = {
  url: string;
  /** Refuse and reset every connection until restore(); open websockets are cut too. */
  cut(): void;
  /** Normal service again (no cut, no delay, no drops). */
  restore(): void;
  /** Every request waits this long before it is forwarded. */
  delay(ms: number): void;
  /** Drop the replies of this share of matching requests, after the backend answered them. */
  dropReplies(rules: DropRule[]): void;
  /**
   * Requests forwarded and replies dropped so far, by path (query left out); requests
   * forwarded and not yet answered; when the last one was forwarded (Date.now()).
   */
  stats(): { forwarded: number; dropped: number; inFlight: number; lastForwardedAt: number; forwardedByPath: Record<string, number>; droppedByPath: Record<string, number> };
  close(): Promise<void>;
};

export async function startFaultProxy(target: string, options: { seed?: number } = {}): Promise<FaultProxy> {
  const backend = new URL(target);
  // The same seed drops the same requests.
  const random = seeded(options.seed ?? 12).next;
  const sockets = new Set<Socket>();
  let isCut = false;
  let delayMs = 0;
  let rules: DropRule[] = [];
  let forwarded = 0;
  let dropped = 0;
  let inFlight = 0;
  let lastForwardedAt = 0;
  const droppedByPath: Record<string, number> = {};
  const forwardedByPath: Record<string, number> = {};

  const shouldDrop = (path: string) => rules.some((rule) => rule.path.test(path) && random() < rule.share);

  function forward(request: IncomingMessage, response: ServerResponse) {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const drop = shouldDrop(path);
    const upstream = http.request(
      { host: backend.hostname, port: backend.port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        if (drop) {
          // Let the backend finish its answer, then lose it on the way back.
          answer.resume();
          answer.on('end', () => {
            dropped += 1;
            droppedByPath[path] = (droppedByPath[path] ?? 0) + 1;
            request.socket.destroy();
          });
          return;
        }
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded += 1;
    forwardedByPath[path] = (forwardedByPath[path] ?? 0) + 1;
    inFlight += 1;
    lastForwardedAt = Date.now();
    let settled = false;
    const settle = () => {
      if (!settled) inFlight -= 1;
      settled = true;
    };
    response.on('close', settle);
    upstream.on('close', settle);
    upstream.on('error', () => request.socket.destroy());
    request.pipe(upstream);
  }

  const server: Server = http.createServer((request, response) => {
    if (isCut) return void request.socket.destroy();
    if (delayMs > 0) setTimeout(() => (isCut ? request.socket.destroy() : forward(request, response)), delayMs);
    else forward(request, response);
  });
  server.on('connection', (socket) => {
    if (isCut) return void socket.destroy();
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // Websockets (Realtime): a raw pipe to the backend, cut with everything else.
  server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    if (isCut) return void socket.destroy();
    const upstream = net.connect(Number(backend.port), backend.hostname, () => {
      const lines = [`${request.method} ${request.url} HTTP/1.1`];
      for (let i = 0; i < request.rawHeaders.length; i += 2) lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      socket.destroy();
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
    socket.on('close', () => upstream.destroy());
  });
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      isCut = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      isCut = false;
      delayMs = 0;
      rules = [];
    },
    delay(ms) {
      delayMs = ms;
    },
    dropReplies(next) {
      rules = next;
    },
    stats: () => ({ forwarded, dropped, inFlight, lastForwardedAt, forwardedByPath: { ...forwardedByPath }, droppedByPath: { ...droppedByPath } }),
    async close() {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
