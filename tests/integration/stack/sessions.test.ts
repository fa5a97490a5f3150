import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { engines } from '../../support/test-databases.ts';
import type { Session } from './auth-calls.ts';
import { authCall, claimsOf, currentUser, freshUser, passwordSession, refresh } from './auth-calls.ts';

describe.each(engines)('sessions on flaky networks (%s)', (engine) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ engine });
  });
  afterAll(() => stack?.stop());

  const signedInUser = async () => {
    const user = await freshUser(stack, demo.storeA);
    return { ...user, session: await passwordSession(stack, user.email, user.password) };
  };
  /** Pretends `seconds` have passed since the token was used (the server compares with its clock). */
  const ageToken = (token: string, seconds: number) =>
    stack.database.query(`update auth.refresh_tokens set updated_at = now() - make_interval(secs => $2) where token = $1`, [token, seconds]);
  const restRead = (token: string) =>
    fetch(`${stack.url}/rest/v1/stores?select=name`, { headers: { apikey: stack.keys.anonKey, Authorization: `Bearer ${token}` } });

  it('answers a refresh token presented again within the interval with the session it already issued', async () => {
    const { session } = await signedInUser();
    const first = await refresh(stack, session.refresh_token);
    expect(first.status).toBe(200);
    const lost = first.body as unknown as Session; // the reply the device never received

    const retry = await refresh(stack, session.refresh_token);
    expect(retry.status).toBe(200);
    const recovered = retry.body as unknown as Session;
    expect(recovered.refresh_token).toBe(lost.refresh_token);
    expect(claimsOf(recovered.access_token).session_id).toBe(claimsOf(session.access_token).session_id);
    expect((await currentUser(stack, recovered.access_token)).status).toBe(200);
    expect((await restRead(recovered.access_token)).status).toBe(200);
    // The family goes on from the token the retry returned.
    const next = await refresh(stack, recovered.refresh_token);
    expect(next.status).toBe(200);
    expect((next.body as unknown as Session).refresh_token).not.toBe(recovered.refresh_token);
  });

  it('lets three concurrent refreshes with one token all succeed with usable sessions of the same family', async () => {
    const { session } = await signedInUser();
    const answers = await Promise.all([1, 2, 3].map(() => refresh(stack, session.refresh_token)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const sessions = answers.map((a) => a.body as unknown as Session);
    expect(new Set(sessions.map((s) => s.refresh_token)).size).toBe(1);
    for (const s of sessions) {
      expect(claimsOf(s.access_token).session_id).toBe(claimsOf(session.access_token).session_id);
      expect((await currentUser(stack, s.access_token)).status).toBe(200);
    }
    const { rows } = await stack.database.query<{ live: number; total: number }>(
      `select count(*) filter (where not revoked)::int as live, count(*)::int as total
       from auth.refresh_tokens where session_id = $1::uuid`,
      [claimsOf(session.access_token).session_id],
    );
    expect(rows[0]).toEqual({ live: 1, total: 2 });
    expect((await refresh(stack, sessions[0]?.refresh_token ?? '')).status).toBe(200);
  });

  it('ends the whole session when a used token comes back after the interval', async () => {
    const { session } = await signedInUser();
    const rotated = (await refresh(stack, session.refresh_token)).body as unknown as Session;
    await ageToken(session.refresh_token, 11); // default interval: 10 s
    const reuse = await refresh(stack, session.refresh_token);
    expect(reuse).toMatchObject({ status: 400, body: { code: 'refresh_token_already_used', message: 'Invalid Refresh Token: Already Used' } });
    expect((await refresh(stack, rotated.refresh_token)).body).toMatchObject({ code: 'refresh_token_not_found' });
    expect((await currentUser(stack, rotated.access_token)).body).toMatchObject({ code: 'session_not_found' });
  });

  it('ends a session left unrefreshed for the inactivity timeout (30 days by default)', async () => {
    const { session } = await signedInUser();
    const sessionId = claimsOf(session.access_token).session_id;
    await stack.database.query(`update auth.sessions set updated_at = now() - interval '29 days' where id = $1::uuid`, [sessionId]);
    const kept = (await refresh(stack, session.refresh_token)).body as unknown as Session;
    expect(kept.refresh_token).toBeTruthy();
    await stack.database.query(`update auth.sessions set updated_at = now() - interval '30 days 1 minute' where id = $1::uuid`, [sessionId]);
    const idle = await refresh(stack, kept.refresh_token);
    expect(idle).toMatchObject({ status: 400, body: { code: 'session_expired', message: 'Invalid Refresh Token: Session Expired (Inactivity)' } });
    expect((await currentUser(stack, kept.access_token)).body).toMatchObject({ code: 'session_not_found' });
  });

  it('signs a user out everywhere else when they change their password, and keeps the session that changed it', async () => {
    const user = await signedInUser();
    const tablet = user.session;
    const desktop = await passwordSession(stack, user.email, user.password);
    const change = await authCall(stack, 'PUT', '/user', { token: desktop.access_token, body: { password: 'new-rim-77' } });
    expect(change.status).toBe(200);
    expect((await refresh(stack, tablet.refresh_token)).body).toMatchObject({ code: 'refresh_token_not_found' });
    expect((await currentUser(stack, tablet.access_token)).body).toMatchObject({ code: 'session_not_found' });
    expect((await currentUser(stack, desktop.access_token)).status).toBe(200);
    expect((await refresh(stack, desktop.refresh_token)).status).toBe(200);
    expect((await passwordSession(stack, user.email, 'new-rim-77')).access_token).toBeTruthy();
  });

  it('ends every session when an admin sets a new password', async () => {
    const user = await signedInUser();
    const { error } = await stack.service().auth.admin.updateUserById(user.id, { password: 'reset-by-admin-1' });
    expect(error).toBeNull();
    expect((await refresh(stack, user.session.refresh_token)).body).toMatchObject({ code: 'refresh_token_not_found' });
    expect((await currentUser(stack, user.session.access_token)).body).toMatchObject({ code: 'session_not_found' });
  });

  it('ends every session of a banned user, refuses their sign-in until the ban is lifted', async () => {
    const user = await signedInUser();
    const admin = stack.service().auth.admin;
    expect((await admin.updateUserById(user.id, { ban_duration: '24h' })).error).toBeNull();
    const { rows } = await stack.database.query<{ hours: number }>(
      `select round(extract(epoch from banned_until - now()) / 3600)::int as hours from auth.users where id = $1`,
      [user.id],
    );
    expect(rows[0]?.hours).toBe(24);
    expect((await refresh(stack, user.session.refresh_token)).body).toMatchObject({ code: 'refresh_token_not_found' });
    expect((await currentUser(stack, user.session.access_token)).body).toMatchObject({ code: 'session_not_found' });
    expect((await authCall(stack, 'POST', '/token?grant_type=password', { body: { email: user.email, password: user.password } })).body).toMatchObject({
      code: 'user_banned',
    });
    expect((await admin.updateUserById(user.id, { ban_duration: 'none' })).error).toBeNull();
    expect((await passwordSession(stack, user.email, user.password)).access_token).toBeTruthy();
    expect(await admin.updateUserById(user.id, { ban_duration: 'forever' })).toMatchObject({ error: { status: 400 } });
  });

  it('ends every session of a deleted user', async () => {
    const user = await signedInUser();
    expect((await stack.service().auth.admin.deleteUser(user.id)).error).toBeNull();
    expect((await refresh(stack, user.session.refresh_token)).body).toMatchObject({ code: 'refresh_token_not_found' });
    expect((await currentUser(stack, user.session.access_token)).body).toMatchObject({ code: 'session_not_found' });
  });

  it('refuses a sign-out of a scope it does not know, rather than ending one session when all were asked for', async () => {
    const { email, password, session } = await signedInUser();
    const other = await passwordSession(stack, email, password);
    const refused = await authCall(stack, 'POST', '/logout?scope=everywhere', { token: session.access_token });
    expect(refused).toMatchObject({ status: 400, body: { code: 'validation_failed', message: 'Unsupported logout scope "everywhere"' } });
    // Nothing was ended: both sessions still refresh.
    expect((await refresh(stack, session.refresh_token)).status).toBe(200);
    expect((await refresh(stack, other.refresh_token)).status).toBe(200);
  });

  it('refuses user metadata that is not an object, changing nothing', async () => {
    const { session } = await signedInUser();
    await authCall(stack, 'PUT', '/user', { token: session.access_token, body: { data: { shift: 'early' } } });
    for (const data of [['a'], 'text', 5, true]) {
      const answer = await authCall(stack, 'PUT', '/user', { token: session.access_token, body: { data } });
      expect({ data, status: answer.status, code: answer.body.code }).toEqual({ data, status: 400, code: 'bad_json' });
    }
    // null, as in GoTrue, is no change.
    expect((await authCall(stack, 'PUT', '/user', { token: session.access_token, body: { data: null } })).status).toBe(200);
    const user = await authCall(stack, 'GET', '/user', { token: session.access_token });
    expect(user.body.user_metadata).toEqual({ shift: 'early' });
  });

  it('limits user metadata to 4 KiB, for the user and for admins', async () => {
    const user = await signedInUser();
    const big = { note: 'x'.repeat(5000) };
    const own = await authCall(stack, 'PUT', '/user', { token: user.session.access_token, body: { data: big } });
    expect(own).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    const admin = stack.service().auth.admin;
    expect(await admin.updateUserById(user.id, { user_metadata: big })).toMatchObject({ error: { status: 400, code: 'validation_failed' } });
    expect(await admin.createUser({ email: 'big@example.com', password: 'tyre-42-rim', user_metadata: big })).toMatchObject({
      error: { status: 400, code: 'validation_failed' },
    });
    const { rows } = await stack.database.query<{ n: number }>(`select count(*)::int as n from auth.users where email = 'big@example.com'`);
    expect(rows[0]?.n).toBe(0);
    expect((await authCall(stack, 'PUT', '/user', { token: user.session.access_token, body: { data: { note: 'fits' } } })).status).toBe(200);
  });

  it('refuses a short or common new password with GoTrue\'s weak_password reasons', async () => {
    const user = await signedInUser();
    const put = (password: string) => authCall(stack, 'PUT', '/user', { token: user.session.access_token, body: { password } });
    expect(await put('12345')).toMatchObject({ status: 422, body: { code: 'weak_password', weak_password: { reasons: ['length'] } } });
    expect(await put('qwerty123')).toMatchObject({ status: 422, body: { code: 'weak_password', weak_password: { reasons: ['pwned'] } } });
    expect((await passwordSession(stack, user.email, user.password)).access_token).toBeTruthy();
  });
});

describe('the access-token lifetime setting', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ auth: { accessTokenSeconds: 120 } });
  });
  afterAll(() => stack?.stop());

  it('issues tokens that live as long as configured, on sign-in and on refresh', async () => {
    const session = await passwordSession(stack, 'manager@example.com', demo.password);
    const claims = claimsOf(session.access_token) as { exp: number; iat: number };
    expect(session.expires_in).toBe(120);
    expect(claims.exp - claims.iat).toBe(120);
    const renewed = (await refresh(stack, session.refresh_token)).body as unknown as Session;
    const again = claimsOf(renewed.access_token) as { exp: number; iat: number };
    expect(again.exp - again.iat).toBe(120);
  });
});
