import { afterEach, describe, expect, it, vi } from 'vitest';
import { DatabaseBusyError, RequestQueue } from '../../../supabase/local/db/request-queue.ts';

/** Work that runs until the test says it is done, recording when it started. */
function gatedWork(started: string[], name: string) {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    work: async () => {
      started.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

/** A few turns of the event loop: the queue lets one pass before admitted work starts. */
const flush = async () => {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

describe('the database request queue', () => {
  afterEach(() => vi.useRealTimers());

  it('runs as many as it may at once, keeps a bounded number waiting and refuses the rest at once', async () => {
    const queue = new RequestQueue({ concurrency: 2, maxWaiting: 2, maxWaitingPerClient: 10, maxWaitMs: 60_000 });
    const started: string[] = [];
    const jobs = ['a', 'b', 'c', 'd'].map((name) => gatedWork(started, name));
    const results = jobs.map((job, i) => queue.run(`client-${i}`, job.work));
    await flush();
    expect(started).toEqual(['a', 'b']);
    expect(queue.load).toEqual({ running: 2, waiting: 2 });
    await expect(queue.run('client-9', async () => 'e')).rejects.toMatchObject({ reason: 'queue-full' });
    jobs.forEach((job) => job.finish());
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses one client past its own share while another client still gets a place', async () => {
    const queue = new RequestQueue({ concurrency: 1, maxWaiting: 10, maxWaitingPerClient: 2, maxWaitMs: 60_000 });
    const started: string[] = [];
    const jobs = ['a1', 'a2', 'a3'].map((name) => gatedWork(started, name));
    const results = jobs.map((job) => queue.run('heavy', job.work));
    const refused = await queue.run('heavy', async () => 'a4').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DatabaseBusyError);
    expect((refused as DatabaseBusyError).reason).toBe('client-queue-full');
    const other = queue.run('light', async () => 'b');
    jobs.forEach((job) => job.finish());
    expect(await Promise.all([...results, other])).toEqual(['a1', 'a2', 'a3', 'b']);
  });

  it('gives a freed place to the client served least recently, not to whoever asked first', async () => {
    const queue = new RequestQueue({ concurrency: 1, maxWaiting: 10, maxWaitingPerClient: 10, maxWaitMs: 60_000 });
    const started: string[] = [];
    const heavy = ['a1', 'a2', 'a3'].map((name) => gatedWork(started, name));
    const light = gatedWork(started, 'b');
    const runs = heavy.map((job) => queue.run('heavy', job.work));
    runs.push(queue.run('light', light.work));
    await flush();
    expect(started).toEqual(['a1']);
    heavy[0]?.finish();
    await flush();
    expect(started).toEqual(['a1', 'b']);
    light.finish();
    await flush();
    expect(started).toEqual(['a1', 'b', 'a2']);
    heavy.forEach((job) => job.finish());
    await Promise.all(runs);
  });

  it('answers a request that waited too long, and its place goes to the next', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const queue = new RequestQueue({ concurrency: 1, maxWaiting: 5, maxWaitingPerClient: 5, maxWaitMs: 1_000 });
    const started: string[] = [];
    const first = gatedWork(started, 'first');
    const running = queue.run('a', first.work);
    const waiting = queue.run('b', async () => 'late').catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await waiting).toMatchObject({ reason: 'wait-timeout' });
    expect(queue.load).toEqual({ running: 1, waiting: 0 });
    first.finish();
    expect(await running).toBe('first');
    expect(await queue.run('b', async () => 'next')).toBe('next');
  });

  it('frees the place of work that failed', async () => {
    const queue = new RequestQueue({ concurrency: 1, maxWaiting: 0, maxWaitingPerClient: 0, maxWaitMs: 1_000 });
    await expect(queue.run('a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
    expect(await queue.run('a', async () => 'again')).toBe('again');
  });
});
