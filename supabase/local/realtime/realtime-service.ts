/**
 * Realtime (`/realtime/v1/websocket`): Phoenix channels with `postgres_changes`
 * bindings. Changes arrive as NOTIFYs from the capture triggers (capture.sql) carrying
 * only keys; for each subscriber the row is read back as that subscriber, under its
 * row-level security, so a row reaches only those allowed to SELECT it. Deletes cannot
 * be read back: the trigger says whose row it was and visibility.ts decides who hears of
 * it; like hosted Realtime they carry only the primary key.
 *
 * Costs are bounded: connections (in all and per address), channels and bindings per
 * connection, bindings per channel, the length of topics and filters and the size of a
 * frame are capped (serviceLimits), so Realtime's memory has a ceiling (measured in
 * docs/security.md); a connection is read no faster than its messages are handled, and
 * one that leaves more than a small buffer of what it is sent unread is dropped.
 * Subscribers who may not read a table cost no database work, and subscribers with the
 * same claims share one read-back per change.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { WebSocketServer } from 'ws';
import { serviceLimits } from '../../../src/domain/limits.ts';
import { addressGroup } from '../auth/address-group.ts';
import type { Database } from '../db/database.ts';
import type { JwtClaims, JwtKeys } from '../jwt.ts';
import { verifyJwt } from '../jwt.ts';
import { log } from '../logger.ts';
import { backendLimits } from '../service-limits.ts';
import { requestTarget } from '../request-boundary.ts';
import type { SchemaCache } from '../rest/schema-cache.ts';
import { matchesFilter } from './filters.ts';
import type { Binding } from './join-request.ts';
import { connectionRefusal, readBindings } from './join-request.ts';
import type { PhoenixMessage } from './protocol.ts';
import { decode, encode } from './protocol.ts';
import { readRowAs } from './read-back.ts';
import type { DeletedRow, Reader } from './visibility.ts';
import { claimsMayHearOfDelete, deleteAudience, readersOf } from './visibility.ts';

type Channel = { topic: string; joinRef: string | null; claims: JwtClaims; bindings: Binding[] };
type Connection = {
  socket: WebSocket;
  vsn: string;
  apikey: string | null;
  address: string;
  channels: Map<string, Channel>;
  /** Messages are handled one after another, in the order they arrived. */
  inbox: Promise<void>;
  /** Messages received and not yet handled: past a few, the socket is not read until they are. */
  waiting: number;
  /** The last token verified on this connection: its channels share one claims object. */
  lastToken: { token: string; claims: JwtClaims } | null;
};
type Change = DeletedRow & { type: string; commit_timestamp: string; old?: Record<string, unknown> };

export type RealtimeOptions = {
  db: Database;
  /** The shared secret, or the secret and the signing key (config.ts verificationKeys). */
  jwtSecret: string | JwtKeys;
  schema: () => SchemaCache;
  channelsPerConnection?: number;
  connectionsPerAddress?: number;
  /** Connections in all; default serviceLimits.realtimeConnections. */
  connections?: number;
};

/** Database work done for deliveries, for tests and benchmarks. */
export type RealtimeStats = { rowReads: number; readerLookups: number; refusedJoins: number; refusedConnections: number; droppedSlowConnections: number };

const subscriberRoles = new Set(['anon', 'authenticated', 'service_role']);
/** WebSocket close code 1013, "try again later": realtime-js reconnects with its backoff. */
const tryAgainLater = 1013;
/** Messages of one connection that may wait to be handled before the socket is paused. */
const inboxDepth = 4;

export function createRealtimeService(options: RealtimeOptions) {
  const channelCap = options.channelsPerConnection ?? serviceLimits.realtimeChannelsPerConnection;
  const connectionCap = options.connectionsPerAddress ?? serviceLimits.realtimeConnectionsPerAddress;
  const totalCap = options.connections ?? serviceLimits.realtimeConnections;
  const bindingCap = serviceLimits.realtimeBindingsPerConnection;
  const joinLimits = {
    bindingsPerChannel: serviceLimits.realtimeBindingsPerChannel,
    filterLength: serviceLimits.realtimeFilterLength,
    topicLength: serviceLimits.realtimeTopicLength,
  };
  // A larger frame closes the socket (1009) before it is read into memory whole.
  const wss = new WebSocketServer({ noServer: true, maxPayload: serviceLimits.realtimeFrameBytes });
  const connections = new Set<Connection>();
  const stats: RealtimeStats = { rowReads: 0, readerLookups: 0, refusedJoins: 0, refusedConnections: 0, droppedSlowConnections: 0 };
  const sendBufferCap = backendLimits.realtimeSendBufferBytes;
  /** Published tables the anon role may SELECT: only these cost a read-back for anonymous subscribers. */
  let anonReadable = new Set<string>();
  let queue: Promise<void> = Promise.resolve();
  let stopListening: (() => Promise<void>) | null = null;

  const send = (conn: Connection, message: PhoenixMessage) => {
    if (conn.socket.readyState !== conn.socket.OPEN) return;
    const frame = encode(message, conn.vsn);
    // A client that does not read what it is sent (its replies, or the changes it asked
    // for) would have this process hold all of it: past the cap it is dropped, and
    // realtime-js reconnects and joins again once it reads.
    if (conn.socket.bufferedAmount + Buffer.byteLength(frame) > sendBufferCap) {
      stats.droppedSlowConnections += 1;
      connections.delete(conn);
      return conn.socket.terminate();
    }
    conn.socket.send(frame);
  };
  const reply = (conn: Connection, to: PhoenixMessage, status: 'ok' | 'error', response: Record<string, unknown>) =>
    send(conn, { joinRef: to.joinRef, ref: to.ref, topic: to.topic, event: 'phx_reply', payload: { status, response } });

  async function claimsFor(conn: Connection, token: unknown): Promise<JwtClaims | null> {
    if (typeof token !== 'string') return null;
    if (conn.lastToken?.token === token) return conn.lastToken.claims;
    const check = await verifyJwt(token, options.jwtSecret);
    if (!check.ok || !subscriberRoles.has(check.claims.role ?? 'anon')) return null;
    conn.lastToken = { token, claims: check.claims };
    // realtime-js gives every channel of a connection its newest token: the connection's
    // channels of the same person take this one too, so a client sending each channel a
    // token of its own (each up to 8 KiB of metadata) keeps one claims object, not twenty.
    for (const channel of conn.channels.values()) {
      if (channel.claims.role === check.claims.role && channel.claims.sub === check.claims.sub) channel.claims = check.claims;
    }
    return check.claims;
  }

  async function join(conn: Connection, message: PhoenixMessage) {
    const read = readBindings(message.topic, message.payload, joinLimits);
    const caps = { channels: channelCap, bindings: bindingCap };
    const refusal = 'reason' in read ? read.reason : connectionRefusal(conn.channels, message.topic, read.bindings.length, caps);
    if (refusal || 'reason' in read) {
      stats.refusedJoins += 1;
      return reply(conn, message, 'error', { reason: refusal });
    }
    const { bindings } = read;
    const claims = await claimsFor(conn, message.payload.access_token ?? conn.apikey);
    if (!claims) return reply(conn, message, 'error', { reason: 'Invalid or expired JWT' });
    // Checked again after the await: other joins of this connection ran meanwhile.
    const late = connectionRefusal(conn.channels, message.topic, bindings.length, caps);
    if (late) {
      stats.refusedJoins += 1;
      return reply(conn, message, 'error', { reason: late });
    }
    const joinRef = message.joinRef !== null && message.joinRef.length <= joinLimits.topicLength ? message.joinRef : null;
    conn.channels.set(message.topic, { topic: message.topic, joinRef, claims, bindings });
    reply(conn, message, 'ok', { postgres_changes: bindings.map((b) => ({ ...b.echo, id: b.id })) });
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

  async function onMessage(conn: Connection, text: string) {
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
      const claims = await claimsFor(conn, message.payload.access_token);
      if (claims) channel.claims = claims;
      return reply(conn, message, claims ? 'ok' : 'error', claims ? {} : { reason: 'Invalid or expired JWT' });
    }
    if (channel) return reply(conn, message, 'ok', {});
    reply(conn, message, 'error', { reason: 'unmatched topic' });
  }

  /**
   * The claims as a key for sharing read-backs, computed once per claims object: every
   * change is matched against every channel, and writing out each channel's claims for
   * each change made a 300-row write with 10,000 signed-in channels listening take 26 s.
   */
  const claimKeys = new WeakMap<JwtClaims, string>();
  const keyOf = (claims: JwtClaims): string => {
    let key = claimKeys.get(claims);
    if (key === undefined) {
      key = JSON.stringify(claims);
      claimKeys.set(claims, key);
    }
    return key;
  };

  /** The row as the subscriber may read it, or null; a role that may not read the table costs no query. */
  async function readAs(claims: JwtClaims, change: Change): Promise<Record<string, unknown> | null> {
    if ((claims.role ?? 'anon') === 'anon' && !anonReadable.has(`${change.schema}.${change.table}`)) return null;
    stats.rowReads += 1;
    return readRowAs(options.db, claims, change);
  }

  /** The channels that may hear of this delete, by the rule of visibility.ts; one account lookup per delete. */
  async function deleteListeners(change: Change, channels: Channel[]): Promise<Set<Channel>> {
    const audience = deleteAudience(change);
    const signedIn = channels.filter((c) => c.claims.role === 'authenticated').map((c) => String(c.claims.sub));
    let readers = new Map<string, Reader>();
    if (audience.kind !== 'nobody' && signedIn.length > 0) {
      stats.readerLookups += 1;
      readers = await readersOf(options.db, signedIn);
    }
    return new Set(channels.filter((c) => claimsMayHearOfDelete(c.claims, audience, readers)));
  }

  function listening(change: Change): Array<{ conn: Connection; channel: Channel; bindings: Binding[] }> {
    const now = Date.now();
    const found: Array<{ conn: Connection; channel: Channel; bindings: Binding[] }> = [];
    for (const conn of connections) {
      for (const channel of conn.channels.values()) {
        if (typeof channel.claims.exp === 'number' && channel.claims.exp * 1000 < now) continue;
        const bindings = channel.bindings.filter(
          (b) => (b.event === '*' || b.event === change.type) && (b.schema === '*' || b.schema === change.schema) && (!b.table || b.table === change.table),
        );
        if (bindings.length > 0) found.push({ conn, channel, bindings });
      }
    }
    return found;
  }

  async function deliver(change: Change) {
    const table = options.schema().tables.get(change.table);
    const columns = table ? table.columnOrder.map((name) => ({ name, type: table.columns.get(name)?.udt ?? 'text' })) : [];
    const targets = listening(change);
    if (targets.length === 0) return;
    const isDelete = change.type === 'DELETE';
    const allowedDeletes = isDelete ? await deleteListeners(change, targets.map((t) => t.channel)) : null;
    // Subscribers with identical claims see identical rows: one read-back for all of them,
    // all read before the channels are gone through (one wait per claims, not per channel).
    const records = new Map<string, Record<string, unknown> | null>();
    if (!allowedDeletes) {
      for (const { channel } of targets) {
        const claimsKey = keyOf(channel.claims);
        if (!records.has(claimsKey)) records.set(claimsKey, await readAs(channel.claims, change));
      }
    }
    const oldRow = change.old ?? { ...change.key, ...change.scope };
    for (const { conn, channel, bindings } of targets) {
      let record: Record<string, unknown> | null = null;
      if (allowedDeletes) {
        if (!allowedDeletes.has(channel)) continue;
      } else {
        record = records.get(keyOf(channel.claims)) ?? null;
        if (!record) continue;
      }
      const ids = bindings.filter((b) => matchesFilter(b.filter, record ?? oldRow)).map((b) => b.id);
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

  /** Admits a new connection unless its address already holds its share. */
  function admit(conn: Connection): boolean {
    let held = 0;
    for (const other of connections) if (other.address === conn.address) held += 1;
    if (held >= connectionCap || connections.size >= totalCap) {
      stats.refusedConnections += 1;
      conn.socket.close(tryAgainLater, held >= connectionCap ? 'Too many connections from this address' : 'Too many connections');
      return false;
    }
    connections.add(conn);
    return true;
  }

  return {
    stats: (): RealtimeStats => ({ ...stats }),
    async start() {
      const capture = await import('node:fs/promises').then((fs) => fs.readFile(new URL('./capture.sql', import.meta.url), 'utf8'));
      await options.db.exec(capture);
      await options.db.query('select realtime_local.attach_capture()');
      const { rows } = await options.db.query<{ name: string }>(
        `select p.schemaname || '.' || p.tablename as name from pg_catalog.pg_publication_tables p
         where p.pubname = 'supabase_realtime'
           and has_table_privilege('anon', format('%I.%I', p.schemaname, p.tablename), 'SELECT')`,
      );
      anonReadable = new Set(rows.map((row) => row.name));
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
      const url = requestTarget(req.url);
      if (url?.pathname !== '/realtime/v1/websocket') return false;
      wss.handleUpgrade(req, socket, head, (ws) => {
        const conn: Connection = {
          socket: ws,
          vsn: url.searchParams.get('vsn') ?? '1.0.0',
          apikey: url.searchParams.get('apikey'),
          address: addressGroup(req.socket.remoteAddress ?? 'unknown'),
          channels: new Map(),
          inbox: Promise.resolve(),
          waiting: 0,
          lastToken: null,
        };
        if (!admit(conn)) return;
        ws.on('message', (data) => {
          // A client sending faster than its messages are handled waits in its own TCP buffers, not in this heap.
          conn.waiting += 1;
          if (conn.waiting >= inboxDepth) ws.pause();
          conn.inbox = conn.inbox
            .then(() => onMessage(conn, data.toString()))
            .catch((error: unknown) => log.error(`realtime: ${String(error)}`))
            .finally(() => {
              conn.waiting -= 1;
              if (conn.waiting === 0 && ws.isPaused) ws.resume();
            });
        });
        ws.on('close', () => connections.delete(conn));
        ws.on('error', () => connections.delete(conn));
      });
      return true;
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
