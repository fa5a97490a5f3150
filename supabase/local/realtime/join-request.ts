/**
 * A channel join's `postgres_changes` bindings, read and bounded before anything of
 * them is kept: a channel holds what its bindings need (event, schema, table, filter)
 * and no more, so what one join may cost is known in advance (docs/security.md,
 * "Realtime"). A join that asks for more is answered with an error reply, which
 * realtime-js reports as CHANNEL_ERROR carrying the reason.
 */
import type { Filter } from './filters.ts';
import { parseFilter } from './filters.ts';

export type Binding = {
  id: number;
  event: string;
  schema: string;
  table?: string;
  filter?: Filter;
  /** The binding as the client sent it (its four fields only), echoed in the join reply: realtime-js matches on them. */
  echo: Record<string, string>;
};

export type JoinLimits = { bindingsPerChannel: number; filterLength: number; topicLength: number };

const fields = ['event', 'schema', 'table', 'filter'] as const;
const events = new Set(['*', 'INSERT', 'UPDATE', 'DELETE']);

export const tooManyBindings = (where: 'channel' | 'connection', cap: number) =>
  `PostgresChangesLimitReached: Too many postgres_changes bindings on one ${where} (at most ${cap})`;

/** The bindings of a join, or the reason it is refused. */
export function readBindings(topic: string, payload: Record<string, unknown>, limits: JoinLimits): { bindings: Binding[] } | { reason: string } {
  if (topic.length > limits.topicLength) return { reason: `InvalidJoinPayload: a topic may be at most ${limits.topicLength} characters` };
  const config = (payload.config ?? {}) as { postgres_changes?: unknown };
  const requested: unknown[] = Array.isArray(config.postgres_changes) ? config.postgres_changes : [];
  // Counted before any is read: a refused join costs no more than its frame.
  if (requested.length > limits.bindingsPerChannel) return { reason: tooManyBindings('channel', limits.bindingsPerChannel) };
  const bindings: Binding[] = [];
  for (const [index, request] of requested.entries()) {
    // A hostile or broken client can send anything here: answer it, never throw.
    if (typeof request !== 'object' || request === null || Array.isArray(request)) {
      return { reason: 'Invalid postgres_changes binding: expected an object' };
    }
    const echo: Record<string, string> = {};
    for (const field of fields) {
      const value = (request as Record<string, unknown>)[field];
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string') return { reason: `InvalidJoinPayload: postgres_changes ${field} must be a string` };
      const cap = field === 'filter' ? limits.filterLength : limits.topicLength;
      if (value.length > cap) return { reason: `InvalidJoinPayload: a ${field} may be at most ${cap} characters` };
      echo[field] = value;
    }
    const event = (echo.event ?? '*').toUpperCase();
    if (!events.has(event)) return { reason: `InvalidJoinPayload: postgres_changes event must be one of ${[...events].join(', ')}` };
    const filter = parseFilter(echo.filter);
    if (filter === null) return { reason: `Invalid filter: ${String(echo.filter)}` };
    bindings.push({
      id: 1000 + index,
      event,
      schema: echo.schema ?? 'public',
      table: echo.table !== undefined && echo.table !== '*' ? echo.table : undefined,
      filter,
      echo,
    });
  }
  return { bindings };
}

/**
 * Why a connection holding `channels` may not hold `bindings` more under `topic` (a join
 * of a topic it holds replaces that channel), or null.
 */
export function connectionRefusal(
  channels: ReadonlyMap<string, { bindings: readonly unknown[] }>,
  topic: string,
  bindings: number,
  caps: { channels: number; bindings: number },
): string | null {
  if (!channels.has(topic) && channels.size >= caps.channels) return `ChannelRateLimitReached: Too many channels (at most ${caps.channels})`;
  let held = bindings;
  for (const [other, channel] of channels) if (other !== topic) held += channel.bindings.length;
  return held > caps.bindings ? tooManyBindings('connection', caps.bindings) : null;
}
