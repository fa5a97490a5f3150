/** Small HTTP helpers shared by the stack's services: bodies with a size limit, JSON replies, CORS, compression. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzip } from 'node:zlib';

export const corsHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers':
    'authorization, x-client-info, apikey, content-type, x-retry-count, accept-profile, content-profile, ' +
    'prefer, range, x-supabase-api-version, accept, x-device-id',
  'Access-Control-Expose-Headers': 'Content-Range, X-Total-Count, Link, X-Supabase-Api-Version',
  'Access-Control-Max-Age': '86400',
};

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The request body is larger than ${limit} bytes.`);
  }
}

/** Reads the whole body, refusing (and draining no further) past `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new BodyTooLargeError(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) throw new BodyTooLargeError(limit);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

export type Reply = {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer | null;
};

export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

/** Header names compared without case: a service's own header replaces the default, never doubles it. */
function mergeHeaders(...sets: Array<Record<string, string> | undefined>): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const set of sets) for (const [name, value] of Object.entries(set ?? {})) merged[name.toLowerCase()] = value;
  return merged;
}

/**
 * Replies shorter than this go as they are: compressing them saves less than it costs.
 * A tuning of the wire, not a limit: nothing is refused by it.
 */
const compressFrom = 1024;

/** JSON (PostgREST's vendor types and OpenAPI included) and text: what compresses well. */
const compressible = /^(application\/(json|openapi\+json|vnd\.pgrst\.[^;\s]+)|text\/)/i;

/**
 * Whether a request's Accept-Encoding takes gzip: named, or through `*`, with a quality
 * above 0 (`gzip;q=0` refuses it). No header means no compression, as for a plain client.
 */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  let anyCoding = false;
  for (const part of value.split(',')) {
    const [coding = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    const accepted = quality === undefined || Number(quality.slice(2)) > 0;
    if (coding === 'gzip' || coding === 'x-gzip') return accepted;
    if (coding === '*') anyCoding = accepted;
  }
  return anyCoding;
}

/**
 * Writes a reply. A JSON or text body of 1 kB or more goes gzip-compressed to a client
 * that takes it, as a hosted project's gateway sends it: a device's first sync is mostly
 * repeated keys and digits, which shrink to about a tenth over a shop's slow link. The
 * compression runs off the event loop (zlib's thread pool), so a large reply does not hold
 * up the others; should it fail, the reply goes as it is.
 */
export function send(res: ServerResponse, reply: Reply, options: { headOnly?: boolean; acceptEncoding?: string | string[] } = {}): void {
  const headers = mergeHeaders(corsHeaders, reply.headers);
  const body = options.headOnly ? undefined : (reply.body ?? undefined);
  const write = (sent: string | Buffer | undefined) => {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(reply.status, headers);
    res.end(sent);
  };
  if (!compressible.test(headers['content-type'] ?? '') || headers['content-encoding']) return write(body);
  headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
  if (body === undefined || Buffer.byteLength(body) < compressFrom || !acceptsGzip(options.acceptEncoding)) return write(body);
  gzip(body, (error, compressed) => {
    // Outside the caller's try (request-boundary.ts): a reply that cannot be written closes
    // its connection here too, rather than stopping the server.
    try {
      if (error) return write(body);
      headers['content-encoding'] = 'gzip';
      delete headers['content-length'];
      write(compressed);
    } catch {
      res.destroy();
    }
  });
}

/** The bearer token of a request, or the apikey header when there is none (as Kong does). */
export function requestToken(req: IncomingMessage): string | null {
  const auth = req.headers.authorization;
  const match = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
  if (match?.[1]) return match[1];
  const apikey = req.headers.apikey;
  return typeof apikey === 'string' && apikey ? apikey : null;
}

export function clientAddress(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}
