import type { IncomingHttpHeaders } from 'node:http';
import { parseJsonExactly } from './json-numbers.ts';

/** One HTTP request as the stack's services see it: already routed, body read. */
export type StackRequest = {
  method: string;
  url: URL;
  /** The path below the service prefix, e.g. "/token" for /auth/v1/token. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  address: string;
};

export function header(req: StackRequest, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

export function bearer(req: StackRequest): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header(req, 'authorization') ?? '');
  return match?.[1] ?? null;
}

/**
 * Parses a JSON body; undefined when empty, and a SyntaxError when it is not JSON or
 * holds a number JavaScript would change (an UnrepresentableNumberError, see json-numbers.ts).
 */
export function jsonBody(req: StackRequest): unknown {
  const text = req.body.toString('utf8').trim();
  return text ? parseJsonExactly(text) : undefined;
}
