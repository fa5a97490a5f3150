/**
 * Sessions and rotating refresh tokens, made for shop-floor Wi-Fi.
 *
 * Each refresh revokes the presented token and issues its child. A token that was
 * already used is still honoured for a short reuse interval after it was revoked (a reply
 * lost on the way, two tabs refreshing at once): the answer is the session's current
 * token, not a new branch, so the family stays one line. Presented after the interval,
 * only a stolen copy would still be in use, so the whole session ends. A session not
 * refreshed for the inactivity timeout ends too, and so do all of a user's sessions when
 * the password changes or an admin bans or deletes the user (see endUserSessions).
 */
import { randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../db/database.ts';
import type { SigningKey } from '../jwt.ts';
import { signJwt } from '../jwt.ts';
import type { AuthSettings } from './settings.ts';
import type { UserRow } from './users.ts';
import { secondFactorMethods } from './factors.ts';
import { findUser, userJson } from './users.ts';

export type SessionContext = {
  db: Database;
  /** The shared secret (HS256), or the asymmetric signing key. */
  signer: string | SigningKey;
  issuer: string;
  settings: Pick<AuthSettings, 'accessTokenSeconds' | 'refreshTokenReuseSeconds' | 'sessionInactivitySeconds'>;
  now?: () => number;
};

function newRefreshToken(): string {
  return randomBytes(24).toString('base64url');
}

/** How the session was started, as GoTrue's `amr` names it. */
export type SignInMethod = 'password' | 'otp' | 'anonymous';

/** What a session was proven with: its assurance level and `amr`, newest method first (GoTrue's CalculateAALAndAMR). */
export type SessionProof = { aal: 'aal1' | 'aal2'; amr: Array<{ method: string; timestamp: number }> };

export async function sessionProof(db: Queryable, sessionId: string): Promise<SessionProof> {
  const { rows } = await db.query<{ method: string; at: number }>(
    `select authentication_method as method, extract(epoch from updated_at)::bigint as at
     from auth.mfa_amr_claims where session_id = $1::uuid order by updated_at desc, authentication_method`,
    [sessionId],
  );
  if (rows.length === 0) {
    // A session opened before methods were recorded was opened with a password.
    const opened = await db.query<{ at: number }>('select extract(epoch from created_at)::bigint as at from auth.sessions where id = $1::uuid', [sessionId]);
    return { aal: 'aal1', amr: [{ method: 'password', timestamp: Number(opened.rows[0]?.at ?? Math.floor(Date.now() / 1000)) }] };
  }
  const amr = rows.map((row) => ({ method: row.method, timestamp: Number(row.at) }));
  return { aal: amr.some((entry) => secondFactorMethods.has(entry.method)) ? 'aal2' : 'aal1', amr };
}

/** Records that the session was proven with `method` now (once per method; a repeat moves its time). */
export async function addSessionMethod(db: Queryable, sessionId: string, method: string): Promise<void> {
  await db.query(
    `insert into auth.mfa_amr_claims (session_id, authentication_method) values ($1::uuid, $2)
     on conflict (session_id, authentication_method) do update set updated_at = now()`,
    [sessionId, method],
  );
}

export async function accessTokenFor(ctx: SessionContext, user: UserRow, sessionId: string, proof: SessionProof) {
  const now = Math.floor((ctx.now?.() ?? Date.now()) / 1000);
  const expiresAt = now + ctx.settings.accessTokenSeconds;
  const token = await signJwt(
    {
      iss: ctx.issuer,
      sub: user.id,
      aud: 'authenticated',
      exp: expiresAt,
      iat: now,
      email: user.email ?? '',
      phone: user.phone ?? '',
      app_metadata: user.raw_app_meta_data,
      user_metadata: user.raw_user_meta_data,
      role: user.role || 'authenticated',
      aal: proof.aal,
      amr: proof.amr,
      session_id: sessionId,
      is_anonymous: user.is_anonymous,
    },
    ctx.signer,
  );
  return { token, expiresAt };
}

/** The session reply (tokens and user) for a session, with the session's current proof. */
export async function sessionJson(ctx: SessionContext, user: UserRow, sessionId: string, refreshToken: string) {
  const { token, expiresAt } = await accessTokenFor(ctx, user, sessionId, await sessionProof(ctx.db, sessionId));
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: ctx.settings.accessTokenSeconds,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: userJson(user),
  };
}

export type SessionReply = Awaited<ReturnType<typeof sessionJson>>;

/** Opens a new session for a user who just proved who they are. */
export async function openSession(ctx: SessionContext, user: UserRow, method: SignInMethod = 'password'): Promise<SessionReply> {
  const refreshToken = newRefreshToken();
  const sessionId = await ctx.db.transaction(async (tx) => {
    await tx.query('update auth.users set last_sign_in_at = now() where id = $1', [user.id]);
    const { rows } = await tx.query<{ id: string }>('insert into auth.sessions (user_id) values ($1) returning id', [
      user.id,
    ]);
    const id = rows[0]?.id as string;
    await tx.query('insert into auth.refresh_tokens (token, user_id, session_id) values ($1, $2, $3)', [
      refreshToken,
      user.id,
      id,
    ]);
    await addSessionMethod(tx, id, method);
    return id;
  });
  const fresh = (await findUser(ctx.db, { id: user.id })) ?? user;
  return sessionJson(ctx, fresh, sessionId, refreshToken);
}

/**
 * Revokes the session's current refresh token and issues its child: a session whose
 * assurance level rose is handed a new token with it, as GoTrue swaps the token on an
 * MFA verification.
 */
export async function rotateRefreshToken(db: Queryable, userId: string, sessionId: string): Promise<string> {
  const current = await db.query<{ token: string }>(
    'select token from auth.refresh_tokens where session_id = $1::uuid and not revoked order by id desc limit 1',
    [sessionId],
  );
  const parent = current.rows[0]?.token ?? null;
  await db.query('update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1::uuid and not revoked', [sessionId]);
  const issued = newRefreshToken();
  await db.query('insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)', [
    issued,
    userId,
    sessionId,
    parent,
  ]);
  return issued;
}

export type RefreshFailure =
  | 'refresh_token_not_found'
  | 'refresh_token_already_used'
  | 'session_expired'
  | 'user_banned';

export type RefreshOutcome = { ok: true; session: SessionReply } | { ok: false; code: RefreshFailure };

type PresentedToken = {
  user_id: string;
  session_id: string;
  revoked: boolean;
  /** Seconds since the token was revoked (its last update), and since the session was last refreshed. */
  revoked_for: number;
  idle_for: number;
  banned: boolean;
};

/** Within one transaction: what the presented token yields, or why it yields nothing. */
async function exchange(tx: Queryable, ctx: SessionContext, presented: string) {
  const { rows } = await tx.query<PresentedToken>(
    `select t.user_id::text, t.session_id::text, t.revoked,
            extract(epoch from (now() - t.updated_at))::float8 as revoked_for,
            extract(epoch from (now() - s.updated_at))::float8 as idle_for,
            coalesce(u.banned_until > now(), false) as banned
     from auth.refresh_tokens t
     join auth.sessions s on s.id = t.session_id
     join auth.users u on u.id = t.user_id
     where t.token = $1 for update of t, s`,
    [presented],
  );
  const row = rows[0];
  if (!row) return { ok: false as const, code: 'refresh_token_not_found' as const };
  const endSession = () => tx.query('delete from auth.sessions where id = $1', [row.session_id]);
  const inactivity = ctx.settings.sessionInactivitySeconds;
  if (inactivity > 0 && Number(row.idle_for) > inactivity) {
    await endSession();
    return { ok: false as const, code: 'session_expired' as const };
  }
  if (row.banned) {
    await endSession();
    return { ok: false as const, code: 'user_banned' as const };
  }
  let issued: string | null = null;
  if (row.revoked) {
    if (Number(row.revoked_for) > ctx.settings.refreshTokenReuseSeconds) {
      await endSession();
      return { ok: false as const, code: 'refresh_token_already_used' as const };
    }
    // Reused within the interval: answer with the token the lost reply carried.
    const active = await tx.query<{ token: string }>(
      'select token from auth.refresh_tokens where session_id = $1 and not revoked order by id desc limit 1',
      [row.session_id],
    );
    issued = active.rows[0]?.token ?? null;
  }
  if (!issued) {
    issued = newRefreshToken();
    await tx.query('update auth.refresh_tokens set revoked = true, updated_at = now() where token = $1 and not revoked', [
      presented,
    ]);
    await tx.query('insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)', [
      issued,
      row.user_id,
      row.session_id,
      presented,
    ]);
  }
  await tx.query('update auth.sessions set updated_at = now() where id = $1', [row.session_id]);
  return { ok: true as const, userId: row.user_id, sessionId: row.session_id, token: issued };
}

export async function refreshSession(ctx: SessionContext, presented: string): Promise<RefreshOutcome> {
  if (!presented) return { ok: false, code: 'refresh_token_not_found' };
  const result = await ctx.db.transaction((tx) => exchange(tx, ctx, presented));
  if (!result.ok) return result;
  const user = await findUser(ctx.db, { id: result.userId });
  if (!user) return { ok: false, code: 'refresh_token_not_found' };
  return { ok: true, session: await sessionJson(ctx, user, result.sessionId, result.token) };
}

export async function sessionExists(db: Queryable, sessionId: unknown): Promise<boolean> {
  if (typeof sessionId !== 'string' || !/^[0-9a-f-]{36}$/i.test(sessionId)) return false;
  const { rows } = await db.query('select 1 from auth.sessions where id = $1::uuid', [sessionId]);
  return rows.length > 0;
}

export async function endSessions(db: Queryable, userId: string, sessionId: string, scope: string): Promise<void> {
  if (scope === 'global') await endUserSessions(db, userId);
  else if (scope === 'others') await endUserSessions(db, userId, { except: sessionId });
  else await db.query('delete from auth.sessions where id = $1::uuid', [sessionId]);
}

/**
 * Ends every session of a user (refresh tokens go with them), but `except` one: the
 * session that changed its own password stays signed in, as hosted Auth does.
 */
export async function endUserSessions(db: Queryable, userId: string, options: { except?: string } = {}): Promise<void> {
  if (options.except) {
    await db.query('delete from auth.sessions where user_id = $1 and id <> $2::uuid', [userId, options.except]);
  } else {
    await db.query('delete from auth.sessions where user_id = $1', [userId]);
  }
}
