/**
 * The Auth API (`/auth/v1`) as supabase-js's auth client uses it: password sign-in,
 * refresh, the signed-in user, logout, signup (off unless enabled), recovery and JWKS.
 * Admin user management lives in admin-users.ts. Errors come in hosted Auth's shape for
 * the API version the client asked for, so the client's retry and sign-out decisions
 * come out as they do against hosted Supabase.
 */
import bcrypt from 'bcryptjs';
import type { Database } from '../db/database.ts';
import type { Reply } from '../http.ts';
import { jsonReply } from '../http.ts';
import type { JwtClaims } from '../jwt.ts';
import { verifyJwt } from '../jwt.ts';
import { log } from '../logger.ts';
import type { StackRequest } from '../request.ts';
import { bearer, header, jsonBody } from '../request.ts';
import { handleAdminUsers } from './admin-users.ts';
import type { RateLimitOptions } from './rate-limit.ts';
import { SignInRateLimiter } from './rate-limit.ts';
import type { SessionContext } from './sessions.ts';
import { endSessions, openSession, refreshSession, sessionExists } from './sessions.ts';
import { createUser, findUser, mergeMetadata, userJson } from './users.ts';

export type AuthOptions = {
  db: Database;
  jwtSecret: string;
  issuer: string;
  allowSignup?: boolean;
  rateLimit?: RateLimitOptions;
};

const apiVersion = '2024-01-01';

/** An error reply as hosted Auth words it for the client's API version. */
export function authError(req: StackRequest, status: number, code: string, message: string, extra = {}): Reply {
  if (header(req, 'x-supabase-api-version')) {
    return jsonReply(status, { code, message, ...extra }, { 'X-Supabase-Api-Version': apiVersion });
  }
  return jsonReply(status, { code: status, error_code: code, msg: message, ...extra });
}

const ok = (body: unknown): Reply => jsonReply(200, body, { 'X-Supabase-Api-Version': apiVersion });

export type VerifiedCaller = { ok: true; claims: JwtClaims } | { ok: false; reply: Reply };

export function createAuthService(options: AuthOptions) {
  const limiter = new SignInRateLimiter(options.rateLimit);
  const ctx: SessionContext = { db: options.db, jwtSecret: options.jwtSecret, issuer: options.issuer };

  function verifyCaller(req: StackRequest): VerifiedCaller {
    const token = bearer(req);
    if (!token) {
      return { ok: false, reply: authError(req, 401, 'no_authorization', 'This endpoint requires a valid Bearer token') };
    }
    const check = verifyJwt(token, options.jwtSecret);
    if (!check.ok) {
      const why = check.reason === 'expired' ? 'token has invalid claims: token is expired' : 'unable to parse or verify signature';
      return { ok: false, reply: authError(req, 403, 'bad_jwt', `invalid JWT: ${why}`) };
    }
    return { ok: true, claims: check.claims };
  }

  async function signInWithPassword(req: StackRequest, body: Record<string, unknown>): Promise<Reply> {
    const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
    const password = typeof body.password === 'string' ? body.password : '';
    const wait = limiter.retryAfter(email, req.address);
    if (wait > 0) {
      return authError(req, 429, 'over_request_rate_limit', `Too many sign-in attempts. Try again in ${wait} seconds.`);
    }
    const user = email ? await findUser(options.db, { email }) : null;
    const matches = !!user?.encrypted_password && (await bcrypt.compare(password, user.encrypted_password));
    if (!user || !matches) {
      limiter.recordFailure(email, req.address);
      return authError(req, 400, 'invalid_credentials', 'Invalid login credentials');
    }
    if (!user.email_confirmed_at) return authError(req, 400, 'email_not_confirmed', 'Email not confirmed');
    if (user.banned_until && Date.parse(user.banned_until) > Date.now()) {
      return authError(req, 400, 'user_banned', 'User is banned');
    }
    limiter.recordSuccess(email);
    return ok(await openSession(ctx, user));
  }

  async function token(req: StackRequest, body: Record<string, unknown>): Promise<Reply> {
    const grant = req.url.searchParams.get('grant_type');
    if (grant === 'password') return signInWithPassword(req, body);
    if (grant === 'refresh_token') {
      const presented = typeof body.refresh_token === 'string' ? body.refresh_token : '';
      const outcome = await refreshSession(ctx, presented);
      if (outcome.ok) return ok(outcome.session);
      return outcome.code === 'refresh_token_already_used'
        ? authError(req, 400, outcome.code, 'Invalid Refresh Token: Already Used')
        : authError(req, 400, outcome.code, 'Invalid Refresh Token: Refresh Token Not Found');
    }
    return authError(req, 400, 'validation_failed', 'Unsupported grant_type');
  }

  async function currentUser(req: StackRequest, body: Record<string, unknown>): Promise<Reply> {
    const caller = verifyCaller(req);
    if (!caller.ok) return caller.reply;
    const { claims } = caller;
    if (claims.role === 'anon' || typeof claims.sub !== 'string') {
      return authError(req, 403, 'bad_jwt', 'invalid claim: missing sub claim');
    }
    if (!(await sessionExists(options.db, claims.session_id))) {
      return authError(req, 403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
    }
    const user = await findUser(options.db, { id: claims.sub });
    if (!user) return authError(req, 403, 'user_not_found', 'User from sub claim in JWT does not exist');
    if (req.method === 'GET') return ok(userJson(user));

    if (body.password !== undefined && (typeof body.password !== 'string' || body.password.length < 6)) {
      return authError(req, 422, 'weak_password', 'Password should be at least 6 characters.', {
        weak_password: { reasons: ['length'] },
      });
    }
    await options.db.query(
      `update auth.users set raw_user_meta_data = $2::jsonb,
         encrypted_password = coalesce($3, encrypted_password), updated_at = now() where id = $1`,
      [
        user.id,
        JSON.stringify(mergeMetadata(user.raw_user_meta_data, body.data)),
        typeof body.password === 'string' ? await bcrypt.hash(body.password, 10) : null,
      ],
    );
    const updated = await findUser(options.db, { id: user.id });
    return ok(updated ? userJson(updated) : null);
  }

  async function logout(req: StackRequest): Promise<Reply> {
    const caller = verifyCaller(req);
    if (!caller.ok) return caller.reply;
    const { sub, session_id: sessionId } = caller.claims;
    if (typeof sub === 'string' && typeof sessionId === 'string') {
      await endSessions(options.db, sub, sessionId, req.url.searchParams.get('scope') ?? 'global');
    }
    return { status: 204, headers: {} };
  }

  async function signup(req: StackRequest, body: Record<string, unknown>): Promise<Reply> {
    if (!options.allowSignup) return authError(req, 422, 'signup_disabled', 'Signups not allowed for this instance');
    const created = await createUser(options.db, {
      email: body.email,
      password: body.password,
      email_confirm: true,
      user_metadata: body.data,
    });
    if (!created.ok) return authError(req, created.status, created.code, created.message, created.extra);
    return ok(await openSession(ctx, created.user));
  }

  async function route(req: StackRequest): Promise<Reply> {
    let body: Record<string, unknown> = {};
    try {
      const parsed = jsonBody(req);
      if (parsed !== undefined) {
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new SyntaxError('not an object');
        body = parsed as Record<string, unknown>;
      }
    } catch {
      return authError(req, 400, 'bad_json', 'Could not parse request body as JSON');
    }
    const { method, path } = req;
    if (path === '/token' && method === 'POST') return token(req, body);
    if (path === '/user' && (method === 'GET' || method === 'PUT')) return currentUser(req, body);
    if (path === '/logout' && method === 'POST') return logout(req);
    if (path === '/signup' && method === 'POST') return signup(req, body);
    if (path === '/recover' && method === 'POST') {
      log.info(`auth: a password recovery e-mail would be sent to ${String(body.email ?? '')}`);
      return ok({});
    }
    if (path === '/.well-known/jwks.json' && method === 'GET') return ok({ keys: [] });
    if (path === '/settings' && method === 'GET') {
      return ok({ external: { email: true }, disable_signup: !options.allowSignup, mailer_autoconfirm: true });
    }
    if (path === '/health' && method === 'GET') return ok({ name: 'GoTrue', description: 'embedded local Auth' });
    if (path.startsWith('/admin/users')) {
      const caller = verifyCaller(req);
      if (!caller.ok) return caller.reply;
      if (caller.claims.role !== 'service_role') return authError(req, 403, 'not_admin', 'User not allowed');
      return handleAdminUsers(req, body, options.db, (status, code, message, extra) =>
        authError(req, status, code, message, extra),
      );
    }
    return authError(req, 404, 'not_found', 'Not found');
  }

  return { route };
}
