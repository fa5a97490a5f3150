/**
 * Requests written byte by byte on a TCP socket, which no HTTP client would send:
 * absolute-form and malformed request lines, broken headers and framing, bad bytes in
 * targets, and websocket upgrades with bad paths, keys and versions. Also the sender,
 * which reads whatever comes back until the server closes the connection.
 */
import net from 'node:net';
import type { Random } from '../../../support/random.ts';
import type { Tokens } from './tokens.ts';

export type RawCase = { name: string; bytes: Buffer; /** Half-close after writing: the body is cut short. */ cut?: boolean };

const crlf = '\r\n';
const upgradeHeaders = 'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==';

export function rawCases(pick: Random, tokens: Tokens, count: number): RawCase[] {
  const { one, int } = pick;
  const paths = [
    '/rest/v1/stores?select=name', '/rest/v1/%ZZ', '/rest/v1/%', '/rest/v1/%C0%AF', '/auth/v1/%ZZ', '/health', '/', '//a:b/x',
    '/rest/v1/stores?select=%ZZ', '/realtime/v1/websocket', `/rest/v1/daily_inputs?apikey=${tokens.anon}`,
  ];
  const absolute = [
    'http://a:b/x', 'http://[::1/x', 'http://h:99999/rest/v1/stores', 'https://h/rest/v1/stores?select=name', 'ftp://x/rest/v1/stores',
    'http://a:b/realtime/v1/websocket', 'HTTP://H/health', 'http://user:pw@h/auth/v1/settings', 'javascript:alert(1)', 'http:', 'http://',
    'http://%ZZ/x', 'http://h/%ZZ', 'mailto:x@y', 'example.com:443', '*',
  ];
  const badTargets = ['/\x7f', '/a b', '/\u00e9', '/"', '/<script>', '/a\\b', `/${'a'.repeat(9000)}`, '/rest/v1/stores?x=\u00ff'];
  const lines = [
    'GARBAGE', 'GET', 'GET /', 'GET / HTTP/9.9', 'GET / HTTP/1.1 extra', 'GET / HTTP/1.1\nHost: x', 'PRI * HTTP/2.0\r\n\r\nSM',
    'CONNECT example.com:443 HTTP/1.1', 'OPTIONS * HTTP/1.1', 'TRACE / HTTP/1.1', 'PROPFIND /rest/v1/stores HTTP/1.1',
    `${'G'.repeat(200)} / HTTP/1.1`, 'get / HTTP/1.1', ' GET / HTTP/1.1', 'GET / HTTP/1.0', 'GET /rest/v1/stores HTTP/0.9',
  ];
  const headerBlocks = [
    `X: ${'a'.repeat(20_000)}`, 'NoColon', 'Bad Name: x', 'Content-Length: -1', 'Content-Length: abc', 'Content-Length: 5\r\nContent-Length: 6',
    'Content-Length: 3\r\nTransfer-Encoding: chunked', 'Transfer-Encoding: chunked\r\n\r\nzz', 'X: a\r\n folded', 'X: a\u0000b',
    'Authorization: Bearer a\r\nAuthorization: Bearer b', `apikey: ${tokens.anon}\r\napikey: ${tokens.forged}`,
    Array.from({ length: 2100 }, (_, i) => `X-${i}: ${i}`).join(crlf), 'Expect: 100-continue', 'Content-Type: application/json; charset=\u00ff',
  ];

  const request = (line: string, headers: string[], body = '') =>
    Buffer.from(`${line}${crlf}${['Host: x', 'Connection: close', ...headers].join(crlf)}${crlf}${crlf}${body}`, 'latin1');

  const makers: Array<() => RawCase> = [
    () => ({ name: 'absolute-form', bytes: request(`${one(['GET', 'POST', 'HEAD', 'OPTIONS'])} ${one(absolute)} HTTP/1.1`, [`apikey: ${tokens.anon}`]) }),
    () => ({ name: 'origin-form', bytes: request(`GET ${one(paths)} HTTP/1.1`, [`apikey: ${tokens.anon}`]) }),
    () => ({ name: 'bad target bytes', bytes: request(`GET ${one(badTargets)} HTTP/1.1`, []) }),
    () => ({ name: 'request line', bytes: Buffer.from(`${one(lines)}${crlf}Host: x${crlf}Connection: close${crlf}${crlf}`, 'latin1') }),
    () => ({ name: 'headers', bytes: request(`POST ${one(paths)} HTTP/1.1`, [one(headerBlocks)], '{}') }),
    () => ({ name: 'cut body', bytes: request(`POST /rest/v1/stores HTTP/1.1`, [`apikey: ${tokens.anon}`, `Content-Length: ${int(10, 5000)}`, 'Content-Type: application/json'], '{"name":'), cut: true }),
    () => ({ name: 'cut headers', bytes: Buffer.from(`GET /health HTTP/1.1${crlf}Host: x${crlf}X-Unfinished: yes`), cut: true }),
    () => ({ name: 'binary', bytes: Buffer.from(Array.from({ length: int(1, 64) }, () => int(0, 255))), cut: true }),
    () => ({
      name: 'upgrade',
      bytes: Buffer.from(
        `GET ${one([...absolute, ...paths, `/realtime/v1/websocket?apikey=${one([tokens.anon, tokens.forged, '%ZZ'])}&vsn=${one(['1.0.0', '2.0.0', 'x'])}`])} HTTP/1.1${crlf}Host: x${crlf}` +
          `${one([upgradeHeaders, upgradeHeaders.replace('13', '8'), upgradeHeaders.replace('dGhlIHNhbXBsZSBub25jZQ==', 'short'), 'Connection: Upgrade\r\nUpgrade: h2c', 'Connection: Upgrade\r\nUpgrade: websocket'])}${crlf}${crlf}`,
        'latin1',
      ),
    }),
  ];
  return Array.from({ length: count }, () => one(makers)());
}

export type RawAnswer = { status: number | null; text: string };

/** Writes the bytes and collects the answer until the server closes the connection (or `ms` pass). */
export function sendRaw(port: number, testCase: RawCase, ms = 3_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1');
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
      resolve({ status: status ? Number(status) : null, text });
    };
    const timer = setTimeout(done, ms);
    socket.on('connect', () => {
      socket.write(testCase.bytes);
      if (testCase.cut) socket.end();
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // A completed upgrade keeps the socket open: the status line is all this needs.
      if (Buffer.concat(chunks).toString('latin1').startsWith('HTTP/1.1 101')) done();
    });
    socket.on('close', done);
    socket.on('error', done);
  });
}
