/**
 * Sessions and rotating refresh tokens. A refresh token is used once: using it revokes
 * it and issues its child; presenting a revoked one ends the whole session, because
 * only a stolen copy would be presented twice.
 */
import { randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../db/database.ts';
import { signJwt } from '../jwt.ts';
import type { UserRow } from './users.ts';
import { findUser, userJson } from './users.ts';

export const accessTokenSeconds = 3600;

export type SessionContext = { db: Database; jwtSecret: string; issuer: string; now?: () => number };

function newRefreshToken(): string {
  return randomBytes(24).toString('base64url');
}

export function accessTokenFor(ctx: SessionContext, user: UserRow, sessionId: string, signedInAt: number) {
  const now = Math.floor((ctx.now?.() ?? Date.now()) / 1000);
  const expiresAt = now + accessTokenSeconds;
  const token = signJwt(
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
      aal: 'aal1',
      amr: [{ method: 'password', timestamp: signedInAt }],
      session_id: sessionId,
      is_anonymous: user.is_anonymous,
    },
    ctx.jwtSecret,
  );
  return { token, expiresAt };
}

function sessionJson(ctx: SessionContext, user: UserRow, sessionId: string, refreshToken: string, signedInAt: number) {
  const { token, expiresAt } = accessTokenFor(ctx, user, sessionId, signedInAt);
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: accessTokenSeconds,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: userJson(user),
  };
}

/** Opens a new session for a user who just proved who they are. */
export async function openSession(ctx: SessionContext, user: UserRow) {
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
    return id;
  });
  const fresh = (await findUser(ctx.db, { id: user.id })) ?? user;
  return sessionJson(ctx, fresh, sessionId, refreshToken, Math.floor(Date.now() / 1000));
}

export type RefreshOutcome =
  | { ok: true; session: ReturnType<typeof sessionJson> }
  | { ok: false; code: 'refresh_token_not_found' | 'refresh_token_already_used' };

export async function refreshSession(ctx: SessionContext, presented: string): Promise<RefreshOutcome> {
  const child = newRefreshToken();
  const result = await ctx.db.transaction(async (tx: Queryable) => {
    const { rows } = await tx.query<{ user_id: string; session_id: string; revoked: boolean; signed_in: number }>(
      `select t.user_id::text, t.session_id::text, t.revoked,
              extract(epoch from s.created_at)::bigint as signed_in
       from auth.refresh_tokens t join auth.sessions s on s.id = t.session_id
       where t.token = $1 for update of t`,
      [presented],
    );
    const row = rows[0];
    if (!row) return { ok: false as const, code: 'refresh_token_not_found' as const };
    if (row.revoked) {
      await tx.query('delete from auth.sessions where id = $1', [row.session_id]);
      return { ok: false as const, code: 'refresh_token_already_used' as const };
    }
    await tx.query('update auth.refresh_tokens set revoked = true, updated_at = now() where token = $1', [presented]);
    await tx.query(
      'insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)',
      [child, row.user_id, row.session_id, presented],
    );
    await tx.query('update auth.sessions set updated_at = now() where id = $1', [row.session_id]);
    return { ok: true as const, userId: row.user_id, sessionId: row.session_id, signedIn: Number(row.signed_in) };
  });
  if (!result.ok) return result;
  const user = await findUser(ctx.db, { id: result.userId });
  if (!user) return { ok: false, code: 'refresh_token_not_found' };
  return { ok: true, session: sessionJson(ctx, user, result.sessionId, child, result.signedIn) };
}

export async function sessionExists(db: Queryable, sessionId: unknown): Promise<boolean> {
  if (typeof sessionId !== 'string' || !/^[0-9a-f-]{36}$/i.test(sessionId)) return false;
  const { rows } = await db.query('select 1 from auth.sessions where id = $1::uuid', [sessionId]);
  return rows.length > 0;
}

export async function endSessions(db: Queryable, userId: string, sessionId: string, scope: string): Promise<void> {
  if (scope === 'global') await db.query('delete from auth.sessions where user_id = $1', [userId]);
  else if (scope === 'others') {
    await db.query('delete from auth.sessions where user_id = $1 and id <> $2::uuid', [userId, sessionId]);
  } else await db.query('delete from auth.sessions where id = $1::uuid', [sessionId]);
}
