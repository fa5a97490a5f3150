/**
 * A closed-loop load driver for the backend benchmarks: each client repeats one unit of
 * work (a screen's reads, a sync cycle, a push) as soon as the previous one is answered,
 * through a warm-up and then a measured window. A client told that the backend is busy
 * (503) waits the Retry-After it was given before its next unit, as the app does. The
 * backend runs in a process of its own, so the driver never shares its event loop.
 */

/** One answered (or failed) request: status 0 when no answer came. */
export type Sample = { status: number; ms: number; retryAfterSeconds: number | null; endedAt: number; ok: boolean };

export type LoadResult = {
  /** Requests answered within the window, by kind of answer. */
  requests: number;
  ok: number;
  busy: number;
  failed: number;
  okPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  windowMs: number;
};

/** Sends one request and times it; `accept` decides whether a 2xx body is the right answer. */
export async function timedFetch(url: string, init: RequestInit, accept: (body: unknown) => boolean = () => true): Promise<Sample> {
  const started = performance.now();
  try {
    const response = await fetch(url, init);
    const text = await response.text();
    let ok = response.ok;
    if (ok) {
      try {
        ok = accept(JSON.parse(text));
      } catch {
        ok = false;
      }
    }
    const retryAfter = response.headers.get('retry-after');
    return { status: response.status, ms: performance.now() - started, retryAfterSeconds: retryAfter === null ? null : Number(retryAfter), endedAt: performance.now(), ok };
  } catch {
    return { status: 0, ms: performance.now() - started, retryAfterSeconds: null, endedAt: performance.now(), ok: false };
  }
}

/** The value below which `share` of the sorted values fall (nearest rank). */
export function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] as number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Runs `unit` for every client in a closed loop; counts what was answered inside the window. */
export async function runLoad<C>(
  clients: C[],
  unit: (client: C, round: number) => Promise<Sample[]>,
  options: { warmupMs: number; windowMs: number },
): Promise<LoadResult> {
  const windowStart = performance.now() + options.warmupMs;
  const windowEnd = windowStart + options.windowMs;
  const samples: Sample[] = [];
  await Promise.all(
    clients.map(async (client) => {
      for (let round = 0; performance.now() < windowEnd; round += 1) {
        const answered = await unit(client, round);
        samples.push(...answered);
        const busy = answered.find((sample) => sample.status === 503);
        if (busy) await sleep(Math.min((busy.retryAfterSeconds ?? 1) * 1000, windowEnd - performance.now()));
      }
    }),
  );
  const inWindow = samples.filter((sample) => sample.endedAt >= windowStart && sample.endedAt <= windowEnd);
  const ok = inWindow.filter((sample) => sample.ok);
  const latencies = ok.map((sample) => sample.ms).sort((a, b) => a - b);
  return {
    requests: inWindow.length,
    ok: ok.length,
    busy: inWindow.filter((sample) => sample.status === 503).length,
    failed: inWindow.filter((sample) => !sample.ok && sample.status !== 503).length,
    okPerSecond: (ok.length * 1000) / options.windowMs,
    p50Ms: percentile(latencies, 0.5),
    p95Ms: percentile(latencies, 0.95),
    windowMs: options.windowMs,
  };
}
