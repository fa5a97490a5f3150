/**
 * The Auth API (`/auth/v1`) as supabase-js's auth client uses it: password sign-in,
 * refresh, the signed-in user, logout, signup (off unless enabled), recovery and JWKS.
 * Admin user management lives in admin-users.ts. Errors come in hosted Auth's shape for
 * the API version the client asked for, so the client's retry and sign-out decisions
 * come out as they do against hosted Supabase.
 */
import type { Database } from '../db/database.ts';
import type { Reply } from '../http.ts';
import { jsonReply } from '../http.ts';
import type { JwtClaims } from '../jwt.ts';
import { verifyJwt } from '../jwt.ts';
import { log } from '../logger.ts';
import type { StackRequest } from '../request.ts';
import { bearer, header, jsonBody } from '../request.ts';
import { handleAdminUsers } from './admin-users.ts';
import { hashPassword, passwordMatches, prepareDummyHash } from './passwords.ts';
import { SignInThrottle } from './rate-limit.ts';
import type { SessionContext } from './sessions.ts';
import { endSessions, endUserSessions, openSession, refreshSession, sessionExists } from './sessions.ts';
import type { AuthSettingsOverrides } from './settings.ts';
import { resolveAuthSettings } from './settings.ts';
import { checkEmail, checkMetadataSize, checkPassword, createUser, findUser, mergeMetadata, userJson } from './users.ts';

export type AuthOptions = {
  db: Database;
  jwtSecret: string;
  issuer: string;
  allowSignup?: boolean;
  /** Overrides of the settings the environment gives (tests shorten times with these). */
  settings?: AuthSettingsOverrides;
};

const refreshRefusals = {
  refresh_token_not_found: 'Invalid Refresh Token: Refresh Token Not Found',
  refresh_token_already_used: 'Invalid Refresh Token: Already Used',
  session_expired: 'Invalid Refresh Token: Session Expired (Inactivity)',
  user_banned: 'Invalid Refresh Token: User Banned',
} as const;

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
  const settings = resolveAuthSettings(options.settings);
  const throttle = new SignInThrottle(settings.throttle);
  const ctx: SessionContext = { db: options.db, jwtSecret: options.jwtSecret, issuer: options.issuer, settings };
  void prepareDummyHash();

  async function verifyCaller(req: StackRequest): Promise<VerifiedCaller> {
    const token = bearer(req);
    if (!token) {
      return { ok: false, reply: authError(req, 401, 'no_authorization', 'This endpoint requires a valid Bearer token') };
    }
    const check = await verifyJwt(token, options.jwtSecret);
    if (!check.ok) {
      const why = {
        expired: 'token has invalid claims: token is expired',
        not_yet_valid: 'token has invalid claims: token is not valid yet',
        issued_in_future: 'token has invalid claims: token used before issued',
        malformed: 'unable to parse or verify signature',
        bad_signature: 'unable to parse or verify signature',
      }[check.reason];
      return { ok: false, reply: authError(req, 403, 'bad_jwt', `invalid JWT: ${why}`) };
    }
    return { ok: true, claims: check.claims };
  }

  async function signInWithPassword(req: StackRequest, body: Record<string, unknown>): Promise<Reply> {
    const checked = checkEmail(body.email);
    if (!checked.ok) return authError(req, checked.status, checked.code, checked.message);
    const { email } = checked;
    const password = typeof body.password === 'string' ? body.password : '';
    const waitMs = throttle.waitMs(email, req.address);
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      const reply = authError(req, 429, 'over_request_rate_limit', `Too many sign-in attempts. Try again in ${seconds} seconds.`);
      return { ...reply, headers: { ...reply.headers, 'Retry-After': String(seconds) } };
    }
    const user = await findUser(options.db, { email });
    // One bcrypt comparison whether or not the account exists: same time either way.
    if (!(await passwordMatches(password, user?.encrypted_password)) || !user) {
      throttle.recordFailure(email, req.address);
      return authError(req, 400, 'invalid_credentials', 'Invalid login credentials');
    }
    throttle.recordSuccess(email, req.address);
    if (!user.email_confirmed_at) return authError(req, 400, 'email_not_confirmed', 'Email not confirmed');
    if (user.banned_until && Date.parse(user.banned_until) > Date.now()) {
      return authError(req, 400, 'user_banned', 'User is banned');
    }
    return ok(await openSession(ctx, user));
  }

  async function token(req: StackRequest, body: Record<string, unknown>): Promise<Reply> {
    const grant = req.url.searchParams.get('grant_type');
    if (grant === 'password') return signInWithPassword(req, body);
    if (grant === 'refresh_token') {
      const presented = typeof body.refresh_token === 'string' ? body.refresh_token : '';
      const outcome = await refreshSession(ctx, presented);
      return outcome.ok ? ok(outcome.session) : authError(req, 400, outcome.code, refreshRefusals[outcome.code]);
    }
    return authError(req, 400, 'validation_failed', 'Unsupported grant_type');
  }

  async function currentUser(req: StackRequest, body: Record<string, unknown>): Promise<Reply> {
    const caller = await verifyCaller(req);
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

    const weak = checkPassword(body.password);
    if (weak) return authError(req, weak.status, weak.code, weak.message, weak.extra);
    const metadata = mergeMetadata(user.raw_user_meta_data, body.data);
    const tooLarge = checkMetadataSize(metadata);
    if (tooLarge) return authError(req, tooLarge.status, tooLarge.code, tooLarge.message);
    const newHash = typeof body.password === 'string' ? await hashPassword(body.password) : null;
    await options.db.transaction(async (tx) => {
      await tx.query(
        `update auth.users set raw_user_meta_data = $2::jsonb,
           encrypted_password = coalesce($3, encrypted_password), updated_at = now() where id = $1`,
        [user.id, JSON.stringify(metadata), newHash],
      );
      // A new password signs the user out everywhere else; this session stays, as on hosted Auth.
      if (newHash) await endUserSessions(tx, user.id, { except: String(claims.session_id) });
    });
    const updated = await findUser(options.db, { id: user.id });
    return ok(updated ? userJson(updated) : null);
  }

  async function logout(req: StackRequest): Promise<Reply> {
    const caller = await verifyCaller(req);
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
      const caller = await verifyCaller(req);
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
