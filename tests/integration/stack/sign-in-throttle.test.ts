import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { signInFrom } from './auth-calls.ts';

// The sign-in throttle's shape, on a clock the test moves: nothing here measures time, so
// it runs beside the other suites (the timing of sign-in answers is sign-in.test.ts's,
// alone on the machine).

const tablet = '127.0.0.2';
const attacker = '127.0.0.3';

describe('sign-in throttling that slows guessing without locking anyone out', () => {
  let stack: TestStack;
  // The throttle's clock is the test's: the waits pass by moving it, not by sleeping.
  const clock = { now: Date.now() };
  beforeAll(async () => {
    // Short waits, easy to read in the assertions; the shape is the default one.
    stack = await startTestStack({
      auth: { clock: () => clock.now, throttle: { freeFailures: 3, firstDelayMs: 400, maxDelayMs: 1600, addressFailures: 40 } },
    });
  });
  afterAll(() => stack?.stop());

  it('lets the owner in from another address while a guesser hammers their e-mail', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await signInFrom(stack, 'manager@example.com', `guess-${i}`, attacker)).status);
    expect(statuses.slice(0, 3)).toEqual([400, 400, 400]);
    expect(statuses.slice(3)).toContain(429); // slowed: asked to wait
    const owner = await signInFrom(stack, 'manager@example.com', demo.password, tablet);
    expect(owner.status).toBe(200);
  });

  it('slows the same e-mail from the same address with a growing, bounded wait, then lets the right password in', async () => {
    const email = 'other@example.com';
    for (let i = 0; i < 3; i += 1) expect((await signInFrom(stack, email, `guess-${i}`, tablet)).status).toBe(400);
    const early = await signInFrom(stack, email, demo.password, tablet);
    expect(early).toMatchObject({ status: 429, body: { code: 'over_request_rate_limit' } });
    expect(early.headers['retry-after']).toBe('1');
    // Each further failure doubles the wait (400, 800, 1600 ms), which stops at the 1600 ms maximum.
    const asked: string[] = [];
    for (const pause of [450, 850, 1650]) {
      clock.now += pause;
      expect((await signInFrom(stack, email, `guess-after-${pause}`, tablet)).status).toBe(400);
      asked.push(String((await signInFrom(stack, email, demo.password, tablet)).headers['retry-after']));
    }
    expect(asked).toEqual(['1', '2', '2']);
    clock.now += 1700;
    expect((await signInFrom(stack, email, demo.password, tablet)).status).toBe(200);
    // A success forgets the failures: the next typo is free again.
    expect((await signInFrom(stack, email, 'typo', tablet)).status).toBe(400);
    expect((await signInFrom(stack, email, demo.password, tablet)).status).toBe(200);
  });

  it('keeps a dealership behind one address working through many people\'s typos', async () => {
    for (let i = 0; i < 30; i += 1) {
      expect((await signInFrom(stack, `advisor${i}@example.com`, 'typo', '127.0.0.4')).status).toBe(400);
    }
    expect((await signInFrom(stack, 'admin@example.com', demo.password, '127.0.0.4')).status).toBe(200);
  });

  it('stops a flood from one address at its ceiling, and only that address', async () => {
    const flood = '127.0.0.5';
    let refused = 0;
    for (let i = 0; i < 45; i += 1) {
      if ((await signInFrom(stack, `victim${i}@example.com`, 'guess', flood)).status === 429) refused += 1;
    }
    expect(refused).toBe(5); // 40 failures allowed in the window, then every attempt waits
    expect(await signInFrom(stack, 'admin@example.com', demo.password, flood)).toMatchObject({ status: 429 });
    expect((await signInFrom(stack, 'admin@example.com', demo.password, '127.0.0.6')).status).toBe(200);
  });
});
