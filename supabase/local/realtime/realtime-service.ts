/**
 * Realtime (`/realtime/v1/websocket`): Phoenix channels with `postgres_changes`
 * bindings. Changes arrive as NOTIFYs from the capture triggers (capture.sql) carrying
 * only keys; for each subscriber the row is read back as that subscriber, under its
 * row-level security, so a row reaches only those allowed to SELECT it. Deletes cannot
 * be read back; like hosted Realtime they carry only the primary key.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { WebSocketServer } from 'ws';
import type { Database } from '../db/database.ts';
import type { JwtClaims } from '../jwt.ts';
import { verifyJwt } from '../jwt.ts';
import { log } from '../logger.ts';
import type { SchemaCache } from '../rest/schema-cache.ts';
import { ident } from '../rest/sql-builder.ts';
import type { PhoenixMessage } from './protocol.ts';
import { decode, encode } from './protocol.ts';

type Filter = { column: string; op: string; value: string | string[] };
type Binding = { id: number; request: Record<string, unknown>; event: string; schema: string; table?: string; filter?: Filter };
type Channel = { topic: string; joinRef: string | null; claims: JwtClaims; bindings: Binding[] };
type Connection = { socket: WebSocket; vsn: string; apikey: string | null; channels: Map<string, Channel> };
type Change = { schema: string; table: string; type: string; key: Record<string, unknown>; commit_timestamp: string; old?: Record<string, unknown> };

export type RealtimeOptions = { db: Database; jwtSecret: string; schema: () => SchemaCache };

const filterPattern = /^([A-Za-z0-9_]+)=(eq|neq|lt|lte|gt|gte|in)\.(.*)$/s;

function parseFilter(raw: unknown): Filter | undefined | null {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const match = typeof raw === 'string' ? filterPattern.exec(raw) : null;
  if (!match) return null;
  const [, column, op, value] = match as unknown as [string, string, string, string];
  if (op === 'in') {
    const list = value.replace(/^\(|\)$/g, '').split(',').map((v) => v.trim().replace(/^"|"$/g, ''));
    return { column, op, value: list };
  }
  return { column, op, value };
}

function matchesFilter(filter: Filter | undefined, row: Record<string, unknown> | undefined): boolean {
  if (!filter) return true;
  if (!row || !(filter.column in row)) return false;
  const actual = row[filter.column];
  const text = actual === null || actual === undefined ? null : String(actual);
  if (filter.op === 'in') return text !== null && (filter.value as string[]).includes(text);
  const wanted = filter.value as string;
  if (filter.op === 'eq') return text === wanted;
  if (filter.op === 'neq') return text !== wanted;
  if (text === null) return false;
  const [a, b] = Number.isFinite(Number(text)) && Number.isFinite(Number(wanted)) ? [Number(text), Number(wanted)] : [text, wanted];
  if (filter.op === 'lt') return a < b;
  if (filter.op === 'lte') return a <= b;
  if (filter.op === 'gt') return a > b;
  return a >= b;
}

export function createRealtimeService(options: RealtimeOptions) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const connections = new Set<Connection>();
  let queue: Promise<void> = Promise.resolve();
  let stopListening: (() => Promise<void>) | null = null;

  const send = (conn: Connection, message: PhoenixMessage) => {
    if (conn.socket.readyState === conn.socket.OPEN) conn.socket.send(encode(message, conn.vsn));
  };
  const reply = (conn: Connection, to: PhoenixMessage, status: 'ok' | 'error', response: Record<string, unknown>) =>
    send(conn, { joinRef: to.joinRef, ref: to.ref, topic: to.topic, event: 'phx_reply', payload: { status, response } });

  function claimsFor(token: unknown): JwtClaims | null {
    if (typeof token !== 'string') return null;
    const check = verifyJwt(token, options.jwtSecret);
    return check.ok ? check.claims : null;
  }

  function join(conn: Connection, message: PhoenixMessage) {
    const claims = claimsFor(message.payload.access_token ?? conn.apikey);
    if (!claims) return reply(conn, message, 'error', { reason: 'Invalid or expired JWT' });
    const config = (message.payload.config ?? {}) as { postgres_changes?: unknown };
    const requested = Array.isArray(config.postgres_changes) ? (config.postgres_changes as Array<Record<string, unknown>>) : [];
    const bindings: Binding[] = [];
    for (const [index, request] of requested.entries()) {
      const filter = parseFilter(request.filter);
      if (filter === null) return reply(conn, message, 'error', { reason: `Invalid filter: ${String(request.filter)}` });
      bindings.push({
        id: 1000 + index,
        request,
        event: String(request.event ?? '*').toUpperCase(),
        schema: String(request.schema ?? 'public'),
        table: typeof request.table === 'string' && request.table !== '*' ? request.table : undefined,
        filter,
      });
    }
    conn.channels.set(message.topic, { topic: message.topic, joinRef: message.joinRef, claims, bindings });
    reply(conn, message, 'ok', { postgres_changes: bindings.map((b) => ({ ...b.request, id: b.id })) });
    if (bindings.length) {
      send(conn, {
        joinRef: null,
        ref: null,
        topic: message.topic,
        event: 'system',
        payload: { extension: 'postgres_changes', status: 'ok', message: 'Subscribed to PostgreSQL', channel: message.topic.replace(/^realtime:/, '') },
      });
    }
  }

  function onMessage(conn: Connection, text: string) {
    const message = decode(text, conn.vsn);
    if (!message) return;
    if (message.topic === 'phoenix' && message.event === 'heartbeat') return reply(conn, message, 'ok', {});
    if (message.event === 'phx_join') return join(conn, message);
    const channel = conn.channels.get(message.topic);
    if (message.event === 'phx_leave') {
      conn.channels.delete(message.topic);
      reply(conn, message, 'ok', {});
      return send(conn, { joinRef: message.joinRef, ref: message.ref, topic: message.topic, event: 'phx_close', payload: {} });
    }
    if (message.event === 'access_token' && channel) {
      const claims = claimsFor(message.payload.access_token);
      if (claims) channel.claims = claims;
      return reply(conn, message, claims ? 'ok' : 'error', claims ? {} : { reason: 'Invalid or expired JWT' });
    }
    if (channel) return reply(conn, message, 'ok', {});
    reply(conn, message, 'error', { reason: 'unmatched topic' });
  }

  /** Reads one row as a subscriber would: same role, same claims, same RLS. */
  async function readAs(claims: JwtClaims, change: Change): Promise<Record<string, unknown> | null> {
    const keys = Object.entries(change.key);
    if (keys.length === 0) return null;
    const where = keys.map(([column], i) => `t.${ident(column)} = $${i + 1}`).join(' and ');
    return options.db.transaction(async (tx) => {
      await tx.query('set transaction read only');
      // Role and claims first, in their own statement: RLS is applied when the reading
      // statement is planned, so they must be in force before it.
      await tx.query("select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)", [
        claims.role ?? 'anon',
        JSON.stringify(claims),
      ]);
      const { rows } = await tx.query<{ row: string }>(
        `select to_jsonb(t)::text as row from ${ident(change.schema)}.${ident(change.table)} t where ${where}`,
        keys.map(([, value]) => (value === null ? null : String(value))),
      );
      return rows[0]?.row ? (JSON.parse(rows[0].row) as Record<string, unknown>) : null;
    }).catch((error: unknown) => {
      log.debug(`realtime: ${change.table} not readable by ${String(claims.sub ?? claims.role)}: ${String(error)}`);
      return null;
    });
  }

  async function deliver(change: Change) {
    const table = options.schema().tables.get(change.table);
    const columns = table ? table.columnOrder.map((name) => ({ name, type: table.columns.get(name)?.udt ?? 'text' })) : [];
    for (const conn of connections) {
      for (const channel of conn.channels.values()) {
        const candidates = channel.bindings.filter(
          (b) => (b.event === '*' || b.event === change.type) && (b.schema === '*' || b.schema === change.schema) && (!b.table || b.table === change.table),
        );
        if (candidates.length === 0) continue;
        if (typeof channel.claims.exp === 'number' && channel.claims.exp * 1000 < Date.now()) continue;
        const record = change.type === 'DELETE' ? null : await readAs(channel.claims, change);
        if (change.type !== 'DELETE' && !record) continue;
        const ids = candidates.filter((b) => matchesFilter(b.filter, record ?? change.old)).map((b) => b.id);
        if (ids.length === 0) continue;
        send(conn, {
          joinRef: null,
          ref: null,
          topic: channel.topic,
          event: 'postgres_changes',
          payload: {
            ids,
            data: {
              schema: change.schema,
              table: change.table,
              commit_timestamp: change.commit_timestamp,
              type: change.type,
              columns,
              ...(record ? { record } : {}),
              ...(change.type !== 'INSERT' ? { old_record: change.key } : {}),
              errors: null,
            },
          },
        });
      }
    }
  }

  return {
    async start() {
      const capture = await import('node:fs/promises').then((fs) => fs.readFile(new URL('./capture.sql', import.meta.url), 'utf8'));
      await options.db.exec(capture);
      await options.db.query('select realtime_local.attach_capture()');
      stopListening = await options.db.listen('realtime_local', (payload) => {
        let change: Change;
        try {
          change = JSON.parse(payload) as Change;
        } catch {
          return;
        }
        // One change at a time, in commit order, so subscribers see events in order.
        queue = queue.then(() => deliver(change)).catch((error: unknown) => log.error(`realtime: ${String(error)}`));
      });
    },
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
      const url = new URL(req.url ?? '/', 'http://local');
      if (url.pathname !== '/realtime/v1/websocket') return false;
      wss.handleUpgrade(req, socket, head, (ws) => {
        const conn: Connection = { socket: ws, vsn: url.searchParams.get('vsn') ?? '1.0.0', apikey: url.searchParams.get('apikey'), channels: new Map() };
        connections.add(conn);
        ws.on('message', (data) => onMessage(conn, data.toString()));
        ws.on('close', () => connections.delete(conn));
        ws.on('error', () => connections.delete(conn));
      });
      return true;
    },
    attach(server: Server) {
      server.on('upgrade', (req, socket, head) => {
        if (!this.handleUpgrade(req, socket, head)) socket.destroy();
      });
    },
    async stop() {
      for (const conn of connections) conn.socket.terminate();
      connections.clear();
      await stopListening?.();
      await queue;
      wss.close();
    },
  };
}
