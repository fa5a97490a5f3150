import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { authCall, signInFrom } from './auth-calls.ts';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

describe('sign-in answers that do not tell which e-mails exist', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ allowSignup: true, auth: { throttle: { freeFailures: 1000, addressFailures: 1000 } } });
  });
  afterAll(() => stack?.stop());

  it('takes as long for an unknown e-mail as for a wrong password (medians within a factor of 1.5)', async () => {
    const timed = async (email: string) => {
      const started = performance.now();
      const answer = await signInFrom(stack, email, 'not-the-password');
      expect(answer.body).toMatchObject({ code: 'invalid_credentials' });
      return performance.now() - started;
    };
    await timed('warm-up@example.com');
    const unknown: number[] = [];
    const known: number[] = [];
    for (let i = 0; i < 15; i += 1) {
      unknown.push(await timed(`nobody${i}@example.com`));
      known.push(await timed('manager@example.com'));
    }
    const ratio = median(unknown) / median(known);
    expect(ratio).toBeGreaterThan(1 / 1.5);
    expect(ratio).toBeLessThan(1.5);
  });

  it('normalises e-mails before lookup and refuses invisible characters everywhere', async () => {
    expect((await signInFrom(stack, '  MANAGER@Example.com ', demo.password)).status).toBe(200);
    expect((await signInFrom(stack, 'ｍａｎａｇｅｒ@example.com', demo.password)).status).toBe(200);
    const hidden = 'manager\u200B@example.com';
    expect(await signInFrom(stack, hidden, demo.password)).toMatchObject({ status: 400, body: { code: 'validation_failed' } });

    const admin = stack.service().auth.admin;
    expect(await admin.createUser({ email: hidden, password: 'tyre-42-rim', email_confirm: true })).toMatchObject({
      error: { status: 400, code: 'validation_failed' },
    });
    expect(await admin.createUser({ email: 'ＭＡＮＡＧＥＲ@example.com', password: 'tyre-42-rim' })).toMatchObject({
      error: { status: 422, code: 'email_exists' },
    });
    expect(await admin.updateUserById(demo.otherId, { email: 'manager\u2060@example.com' })).toMatchObject({
      error: { status: 400, code: 'validation_failed' },
    });
    const signup = await authCall(stack, 'POST', '/signup', { body: { email: `walk-in\u200D@example.com`, password: 'tyre-42-rim' } });
    expect(signup).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    const { rows } = await stack.database.query<{ n: number }>(`select count(*)::int as n from auth.users where email like 'manager%' or email like 'walk-in%'`);
    expect(rows[0]?.n).toBe(1);
  });

  it('refuses short and common passwords on sign-up and admin create, with GoTrue\'s reasons', async () => {
    const signup = (password: string) => authCall(stack, 'POST', '/signup', { body: { email: 'walk-in@example.com', password } });
    expect(await signup('12345')).toMatchObject({
      status: 422,
      body: { code: 'weak_password', message: 'Password should be at least 6 characters.', weak_password: { reasons: ['length'] } },
    });
    expect(await signup('123456')).toMatchObject({ status: 422, body: { code: 'weak_password', weak_password: { reasons: ['pwned'] } } });
    expect(await stack.service().auth.admin.createUser({ email: 'tech@example.com', password: 'Password' })).toMatchObject({
      error: { status: 422, code: 'weak_password' },
    });
    expect((await signup('tyre-42-rim')).status).toBe(200);
  });
});
