/**
 * Phoenix channel framing as realtime-js speaks it: vsn 2.0.0 sends text frames as
 * arrays [join_ref, ref, topic, event, payload]; vsn 1.0.0 as objects with those keys.
 */
export type PhoenixMessage = {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: Record<string, unknown>;
};

export function decode(text: string, vsn: string): PhoenixMessage | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (vsn === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length !== 5) return null;
    const [joinRef, ref, topic, event, payload] = parsed as unknown[];
    if (typeof topic !== 'string' || typeof event !== 'string') return null;
    return {
      joinRef: typeof joinRef === 'string' ? joinRef : null,
      ref: typeof ref === 'string' ? ref : null,
      topic,
      event,
      payload: typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {},
    };
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const message = parsed as Record<string, unknown>;
  if (typeof message.topic !== 'string' || typeof message.event !== 'string') return null;
  return {
    joinRef: typeof message.join_ref === 'string' ? message.join_ref : null,
    ref: typeof message.ref === 'string' ? message.ref : null,
    topic: message.topic,
    event: message.event,
    payload: typeof message.payload === 'object' && message.payload !== null ? (message.payload as Record<string, unknown>) : {},
  };
}

export function encode(message: PhoenixMessage, vsn: string): string {
  if (vsn === '2.0.0') {
    return JSON.stringify([message.joinRef, message.ref, message.topic, message.event, message.payload]);
  }
  return JSON.stringify({
    join_ref: message.joinRef,
    ref: message.ref,
    topic: message.topic,
    event: message.event,
    payload: message.payload,
  });
}
