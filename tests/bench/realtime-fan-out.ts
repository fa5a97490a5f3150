/**
 * Realtime's share of a push: tablets listen as the app's sync runtime does (one channel,
 * postgres_changes of every synced table, each tablet its own session), one tablet pushes
 * an edit of `rows` rows, and the round is timed until every tablet has heard every row.
 * The backend reads each changed row back once per listening session, under that
 * session's row-level security, so the work grows with rows times listeners.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { syncedTableNames } from '../../src/data/synced-tables.ts';
import type { BackendProcess } from '../support/backend-process.ts';
import type { BenchLine } from './realtime-flood.ts';

const rounds = 3;
const patienceMs = 60_000;

const whole = (n: number) => Math.round(n).toLocaleString('en-US');

async function listen(backend: BackendProcess, token: string, onChange: () => void): Promise<SupabaseClient> {
  const client = backend.client();
  await client.realtime.setAuth(token);
  const channel = client.channel('sync-pokes');
  for (const table of syncedTableNames) channel.on('postgres_changes', { event: '*', schema: 'public', table }, onChange);
  await new Promise<void>((resolve, reject) =>
    channel.subscribe((status) => {
      if (status === 'SUBSCRIBED') resolve();
      else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(new Error(`realtime: ${status}`));
    }),
  );
  return client;
}

/** `push(value)` writes `rows` changed rows and resolves once the server acknowledged them. */
export async function realtimeFanOut(
  backend: BackendProcess,
  engine: string,
  tokens: string[],
  pushing: { rows: number; push: (value: number) => Promise<void> },
): Promise<BenchLine> {
  const heard = tokens.map(() => 0);
  const listeners: SupabaseClient[] = [];
  const who = `${tokens.length} listening tablet${tokens.length === 1 ? '' : 's'}`;
  try {
    for (const [n, token] of tokens.entries()) listeners.push(await listen(backend, token, () => (heard[n] = (heard[n] ?? 0) + 1)));
    const times: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const expected = heard.map((n) => n + pushing.rows);
      const started = performance.now();
      await pushing.push(100 + round);
      const behind = () => heard.some((n, i) => n < (expected[i] ?? 0));
      while (behind() && performance.now() - started < patienceMs) await new Promise((resolve) => setTimeout(resolve, 5));
      if (behind()) {
        const missing = heard.reduce((sum, n, i) => sum + Math.max(0, (expected[i] ?? 0) - n), 0);
        return { case: `backend on ${engine}, Realtime: a ${pushing.rows}-row push, ${who}: ${missing} deliveries still missing after ${patienceMs / 1000} s`, requests: round + 1, ms: patienceMs };
      }
      times.push(performance.now() - started);
    }
    const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] as number;
    const deliveries = tokens.length * pushing.rows;
    return {
      case: `backend on ${engine}, Realtime: a ${pushing.rows}-row push heard by ${who} (${whole(deliveries)} deliveries): median ${whole(median)} ms, ${whole((deliveries * 1000) / median)} deliveries/s`,
      requests: rounds,
      ms: median,
    };
  } finally {
    await Promise.all(listeners.map((client) => client.removeAllChannels()));
  }
}
