/**
 * The one error boundary of the embedded backend. Every HTTP request, every websocket
 * upgrade and every malformed connection passes through here: the target is parsed
 * without throwing, encodings and bodies are checked before a service sees them, and
 * whatever a service throws is logged and answered, so no request can stop the process.
 * Refusals come in the shape of the service addressed: GoTrue's under /auth/v1,
 * PostgREST's everywhere else.
 */
import { isUtf8 } from 'node:buffer';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { apiKeyRefusal, presentedApiKey } from './api-keys.ts';
import { authError } from './auth/auth-service.ts';
import { isPostgresError } from './db/database.ts';
import type { Reply } from './http.ts';
import { BodyTooLargeError, clientAddress, corsHeaders, jsonReply, readBody, send } from './http.ts';
import { log } from './logger.ts';
import type { StackRequest } from './request.ts';

export type Service = {
  prefix: string;
  route: (req: StackRequest) => Promise<Reply>;
  /**
   * Whether a request to this path below the prefix must name one of the project's API
   * keys (`BoundaryOptions.apiKeys`). Without it, none is asked for (the functions check
   * their own token).
   */
  needsApiKey?: (path: string) => boolean;
};

export type BoundaryOptions = {
  services: Service[];
  bodyLimit: number;
  maxTargetBytes: number;
  /** The Retry-After of a 503 for a database that is busy. */
  retryAfterSeconds: number;
  /** The project's API keys (anon, service role): see api-keys.ts. */
  apiKeys: readonly string[];
};

/** An error code for each shape: PostgREST's for /rest/v1 and elsewhere, GoTrue's for /auth/v1. */
type Codes = { rest: string; auth: string };

const absoluteForm = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/**
 * The request target as a URL on this server, or null when it is not one: origin-form
 * (`/path?query`) or absolute-form (`http://host/path?query`, whose host is ignored).
 * Never throws. An origin-form target is appended to a fixed origin rather than resolved
 * against it, so `//host/path` stays a path instead of naming another host.
 */
export function requestTarget(raw: string | undefined): URL | null {
  if (!raw) return null;
  try {
    if (raw.startsWith('/')) return new URL(`http://localhost${raw}`);
    if (absoluteForm.test(raw)) {
      const absolute = new URL(raw);
      if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:') return null;
      return new URL(`http://localhost${absolute.pathname}${absolute.search}`);
    }
  } catch {
    return null;
  }
  return null;
}

/** The path a target claims, for choosing the shape of a refusal when the target itself is refused. */
function claimedPath(raw: string): string | null {
  return /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*)?(\/[^?#]*)/.exec(raw)?.[1] ?? null;
}

const underAuth = (pathname: string | null) => pathname === '/auth/v1' || !!pathname?.startsWith('/auth/v1/');

/** A refusal in the shape of the service `pathname` addresses. */
export function refusal(
  pathname: string | null,
  headers: IncomingHttpHeaders,
  status: number,
  codes: Codes,
  message: string,
  extraHeaders: Record<string, string> = {},
): Reply {
  if (underAuth(pathname)) {
    const shaped = authError(
      { method: 'GET', url: new URL('http://localhost/'), path: '/', headers, body: Buffer.alloc(0), address: '' },
      status,
      codes.auth,
      message,
    );
    return { ...shaped, headers: { ...shaped.headers, ...extraHeaders } };
  }
  return jsonReply(status, { code: codes.rest, details: null, hint: null, message }, extraHeaders);
}

/**
 * A database error no service answered itself: bad data in the request (class 22, as a
 * NUL byte in a text) is the client's error, and a cancelled statement, a deadlock or a
 * database short of resources may go through later. Anything else stays a 500.
 */
type Fallback = { status: number; codes: Codes; message: string; headers: Record<string, string> };

function databaseFallback(error: unknown, retryAfterSeconds: number): Fallback | null {
  if (!isPostgresError(error)) return null;
  const family = (error.code ?? '').slice(0, 2);
  if (family === '22') {
    return { status: 400, codes: { rest: error.code ?? '22000', auth: 'validation_failed' }, message: error.message, headers: {} };
  }
  if (['08', '40', '53', '57'].includes(family)) {
    return {
      status: 503,
      codes: { rest: error.code ?? '57000', auth: 'unexpected_failure' },
      message: 'The database is busy; try again shortly.',
      headers: { 'Retry-After': String(retryAfterSeconds) },
    };
  }
  return null;
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** Sends a reply unless the connection is gone; a reply that cannot be written closes it. */
function safeSend(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  try {
    send(res, reply, { headOnly: req.method === 'HEAD', acceptEncoding: req.headers['accept-encoding'] });
  } catch (error) {
    log.error(`could not write a reply: ${describe(error)}`);
    res.destroy();
  }
}

export function createRequestHandler(options: BoundaryOptions) {
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const method = req.method ?? 'GET';
    let pathname: string | null = null;
    const finish = (reply: Reply) => {
      safeSend(req, res, reply);
      const shown = pathname ?? JSON.stringify((req.url ?? '').slice(0, 120));
      log.info(`${method} ${shown} ${reply.status} ${(performance.now() - started).toFixed(1)}ms`);
    };
    try {
      const raw = req.url ?? '';
      if (Buffer.byteLength(raw) > options.maxTargetBytes) {
        return finish(
          refusal(claimedPath(raw), req.headers, 414, { rest: 'PGRST100', auth: 'validation_failed' },
            `The request target is longer than ${options.maxTargetBytes} bytes.`),
        );
      }
      const url = requestTarget(raw);
      if (!url) {
        return finish(
          refusal(claimedPath(raw), req.headers, 400, { rest: 'PGRST100', auth: 'validation_failed' }, 'The request target is not a valid path.'),
        );
      }
      pathname = url.pathname;
      if (method === 'OPTIONS') return finish({ status: 204, headers: corsHeaders });
      if (pathname === '/health') return finish(jsonReply(200, { status: 'ok' }));
      const service = options.services.find(({ prefix }) => pathname === prefix || pathname?.startsWith(`${prefix}/`));
      if (!service) {
        return finish(jsonReply(404, { code: 'PGRST125', details: null, hint: null, message: 'Invalid path specified in request URL' }));
      }
      const path = pathname.slice(service.prefix.length) || '/';
      if (service.needsApiKey?.(path)) {
        const refused = apiKeyRefusal(options.apiKeys, req.headers, url);
        if (refused) return finish(refused);
        // As the gateway: the key reaches the service as a header, never as a query parameter
        // (the REST API would take one for a filter).
        req.headers.apikey = presentedApiKey(req.headers, url) ?? undefined;
        url.searchParams.delete('apikey');
      }
      const encoding = req.headers['content-encoding']?.trim().toLowerCase();
      if (encoding && encoding !== 'identity') {
        return finish(
          refusal(pathname, req.headers, 415, { rest: 'PGRST107', auth: 'validation_failed' },
            `Content-Encoding "${encoding.slice(0, 40)}" is not supported; send the body uncompressed.`),
        );
      }
      const body = await readBody(req, options.bodyLimit);
      if (!isUtf8(body)) {
        return finish(
          refusal(pathname, req.headers, 400, { rest: 'PGRST102', auth: 'bad_json' }, 'The request body is not valid UTF-8.'),
        );
      }
      finish(
        await service.route({
          method,
          url,
          path,
          headers: req.headers,
          body,
          address: clientAddress(req),
        }),
      );
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        res.setHeader('Connection', 'close');
        return finish(refusal(pathname, req.headers, 413, { rest: 'PGRST413', auth: 'request_too_large' }, error.message));
      }
      if (res.destroyed || req.socket.destroyed) {
        log.debug(`${method} ${pathname ?? '?'}: the client went away: ${String(error)}`);
        return;
      }
      const fallback = databaseFallback(error, options.retryAfterSeconds);
      if (fallback) {
        log.warn(`${method} ${pathname ?? '?'}: ${fallback.status}: ${String(error)}`);
        return finish(refusal(pathname, req.headers, fallback.status, fallback.codes, fallback.message, fallback.headers));
      }
      log.error(`${method} ${pathname ?? '?'}: ${describe(error)}`);
      finish(refusal(pathname, req.headers, 500, { rest: 'XX000', auth: 'unexpected_failure' }, 'Internal server error'));
    }
  }

  return (req: IncomingMessage, res: ServerResponse) => {
    // Errors of a connection that went away are the client's business, not the process's.
    req.on('error', (error) => log.debug(`request stream: ${String(error)}`));
    res.on('error', (error) => log.debug(`response stream: ${String(error)}`));
    void handle(req, res).catch((error: unknown) => {
      log.error(`request boundary: ${describe(error)}`);
      res.destroy();
    });
  };
}

/** Answers on a raw socket (no HTTP response object exists yet) and closes it. */
function answerSocket(socket: Duplex, reply: Reply): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = Buffer.from(typeof reply.body === 'string' ? reply.body : (reply.body ?? ''));
  const head = [
    `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? 'Error'}`,
    'Connection: close',
    ...Object.entries(reply.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${body.length}`,
  ].join('\r\n');
  socket.end(Buffer.concat([Buffer.from(`${head}\r\n\r\n`), body]));
  socket.once('finish', () => socket.destroy());
}

export type UpgradeTarget = {
  path: string;
  /** The project's API keys: a websocket names one too (api-keys.ts). */
  apiKeys: readonly string[];
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
};

/** Websocket upgrades: only `target.path` upgrades; anything else is answered and closed. */
export function createUpgradeHandler(target: UpgradeTarget) {
  return (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', (error) => log.debug(`upgrade socket: ${String(error)}`));
    const url = requestTarget(req.url);
    try {
      if (!url) {
        return answerSocket(socket, refusal(null, req.headers, 400, { rest: 'PGRST100', auth: 'validation_failed' }, 'The request target is not a valid path.'));
      }
      if (url.pathname === target.path) {
        const refused = apiKeyRefusal(target.apiKeys, req.headers, url);
        if (refused) return answerSocket(socket, refused);
      }
      if (url.pathname !== target.path || !target.handleUpgrade(req, socket, head)) {
        return answerSocket(socket, refusal(url.pathname, req.headers, 404, { rest: 'PGRST125', auth: 'not_found' }, 'Nothing to upgrade to at this path.'));
      }
    } catch (error) {
      log.error(`upgrade ${url?.pathname ?? '?'}: ${describe(error)}`);
      answerSocket(socket, refusal(null, req.headers, 500, { rest: 'XX000', auth: 'unexpected_failure' }, 'Internal server error'));
    }
  };
}

/** CONNECT (a proxy's method): Node would drop the connection without a word; say why instead. */
export function handleConnect(req: IncomingMessage, socket: Duplex): void {
  socket.on('error', (error) => log.debug(`connect socket: ${String(error)}`));
  answerSocket(socket, refusal(null, req.headers, 405, { rest: 'PGRST117', auth: 'validation_failed' }, 'Unsupported HTTP method: CONNECT'));
}

type ClientSocket = Duplex & { _httpMessage?: { headersSent?: boolean } | null };

/**
 * Requests Node cannot parse (a bad request line, oversized or malformed headers):
 * answered 400 or 431 when nothing else has been written on the connection, then closed.
 */
export function handleClientError(error: Error & { code?: string }, socket: ClientSocket): void {
  log.debug(`malformed request from a client: ${error.code ?? error.message}`);
  if (error.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  answerSocket(socket, refusal(null, {}, status, { rest: 'PGRST100', auth: 'validation_failed' }, 'The request is not valid HTTP.'));
}
