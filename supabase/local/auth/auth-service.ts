/**
 * The Auth API (`/auth/v1`) as supabase-js's auth client uses it: password sign-in,
 * refresh, the signed-in user (current-user.ts), logout, signup and recovery
 * (sign-up.ts), verification of e-mail links (verify.ts), invitations and generated
 * links (admin-links.ts), user management (admin-users.ts) and the JWKS. Admin calls take
 * a token of role service_role or supabase_admin, as GoTrue's default admin roles. Errors come in hosted Auth's shape for
 * the API version the client asked for, so the client's retry and sign-out decisions
 * come out as they do against hosted Supabase.
 */
import type { StackKeys } from '../config.ts';
import { verificationKeys } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Reply } from '../http.ts';
import { jsonReply } from '../http.ts';
import type { JwtClaims } from '../jwt.ts';
import { verifyJwt } from '../jwt.ts';
import type { StackRequest } from '../request.ts';
import { bearer, header, jsonBody } from '../request.ts';
import { generateLink, invite } from './admin-links.ts';
import { handleAdminUsers } from './admin-users.ts';
import { addressGroup } from './address-group.ts';
import { updateCurrentUser } from './current-user.ts';
import { codeKey, redirectFor } from './email-links.ts';
import type { Mailer } from './mailer.ts';
import type { Caller, MfaContext } from './mfa.ts';
import { challengeFactor, enrollFactor, handleAdminFactors, loadFactor, unenrollFactor, verifyFactor } from './mfa.ts';
import { MfaGuard } from './mfa-guard.ts';
import { CodeGuard } from './one-time-codes.ts';
import { Mailbox, MailboxError } from './mailbox.ts';
import { passwordMatches, prepareDummyHash } from './passwords.ts';
import { SignInThrottle, TokenBuckets } from './rate-limit.ts';
import type { SessionContext } from './sessions.ts';
import { endSessions, openSession, refreshSession } from './sessions.ts';
import type { AuthSettingsOverrides } from './settings.ts';
import { resolveAuthSettings } from './settings.ts';
import { recover, signUp } from './sign-up.ts';
import type { UserRow } from './users.ts';
import { checkEmail, createAnonymousUser, findUser, userJson } from './users.ts';
import type { CodeCheck } from './verify.ts';
import { rateLimited, refusalReply, verifyGet, verifyPost } from './verify.ts';

export type AuthOptions = {
  db: Database;
  keys: StackKeys;
  issuer: string;
  /** The data folder, where Auth's mailbox is kept unless LOCAL_SUPABASE_MAIL_OUTBOX says otherwise. */
  dataDir?: string;
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

const adminRoles = new Set(['service_role', 'supabase_admin']);

/** The sessions a sign-out may end: all of the user's, this one, or all but this one. */
const logoutScopes = new Set(['global', 'local', 'others']);

/**
 * Every Auth path needs an API key but what a hosted project's gateway lets through
 * without one: the e-mail link (opened in a browser, which sends none; the link's own code
 * is the credential), the OAuth returns, and the public keys sessions are signed with.
 */
const keyFreePaths = new Set(['/verify', '/callback', '/authorize', '/.well-known/jwks.json']);
const needsApiKey = (path: string) => !keyFreePaths.has(path);

export function createAuthService(options: AuthOptions) {
  const settings = resolveAuthSettings(options.settings, process.env, options.dataDir);
  const throttle = new SignInThrottle(settings.throttle, settings.clock);
  const key = codeKey(options.keys.jwtSecret);
  const codes: CodeCheck = { mail: settings.mail, guard: new CodeGuard(settings.codes, settings.clock), key };
  const keys = verificationKeys(options.keys);
  const ctx: SessionContext = { db: options.db, signer: options.keys.signing ?? options.keys.jwtSecret, issuer: options.issuer, settings };
  const publicUrl = process.env.SUPABASE_PUBLIC_URL?.trim();
  const mailer: Mailer = {
    authUrl: publicUrl ? `${publicUrl.replace(/\/+$/, '')}/auth/v1` : options.issuer,
    mail: settings.mail,
    mailbox: new Mailbox(settings.mail.mailboxFile),
    codeKey: key,
  };
  const mfaGuard = new MfaGuard(settings.mfa, settings.clock);
  const anonymousSignIns = new TokenBuckets(settings.anonymousPerHour, Math.round(3_600_000 / settings.anonymousPerHour), settings.clock);
  void prepareDummyHash();

  async function verifyCaller(req: StackRequest): Promise<VerifiedCaller> {
    const token = bearer(req);
    if (!token) {
      return { ok: false, reply: authError(req, 401, 'no_authorization', 'This endpoint requires a valid Bearer token') };
    }
    const check = await verifyJwt(token, keys);
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

  /** The aal of a live session, or null when the session no longer exists. */
  async function sessionAal(sessionId: unknown): Promise<string | null> {
    if (typeof sessionId !== 'string' || !/^[0-9a-f-]{36}$/i.test(sessionId)) return null;
    const { rows } = await options.db.query<{ aal: string | null }>('select aal from auth.sessions where id = $1::uuid', [sessionId]);
    return rows[0] ? (rows[0].aal ?? 'aal1') : null;
  }

  /** The signed-in user and session an access token names (GoTrue's requireAuthentication), or the refusal. */
  async function authenticate(req: StackRequest): Promise<{ claims: JwtClaims; caller: Caller } | Reply> {
    const verified = await verifyCaller(req);
    if (!verified.ok) return verified.reply;
    const { claims } = verified;
    if (claims.role === 'anon' || typeof claims.sub !== 'string') {
      return authError(req, 403, 'bad_jwt', 'invalid claim: missing sub claim');
    }
    const aal = await sessionAal(claims.session_id);
    if (aal === null) return authError(req, 403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
    const user: UserRow | null = await findUser(options.db, { id: claims.sub });
    if (!user) return authError(req, 403, 'user_not_found', 'User from sub claim in JWT does not exist');
    if (user.banned_until && Date.parse(user.banned_until) > Date.now()) return authError(req, 403, 'user_banned', 'User is banned');
    return { claims, caller: { user, sessionId: String(claims.session_id), sessionAal: aal } };
  }

  async function currentUser(req: StackRequest, body: Record<string, unknown>): Promise<Reply> {
    const found = await authenticate(req);
    if (!('caller' in found)) return found;
    const { claims, caller } = found;
    if (req.method === 'GET') return ok(userJson(caller.user));
    const fail = (status: number, code: string, message: string, extra?: Record<string, unknown>) => authError(req, status, code, message, extra);
    const updated = await updateCurrentUser(ctx, mailer, req, claims, caller.user, body, fail);
    return 'user' in updated ? ok(userJson(updated.user)) : updated;
  }

  /** `/factors...` for the signed-in, non-anonymous user (mfa.ts). */
  async function factors(req: StackRequest, body: Record<string, unknown>): Promise<Reply> {
    const fail = (status: number, code: string, message: string, extra?: Record<string, unknown>) => authError(req, status, code, message, extra);
    const found = await authenticate(req);
    if (!('caller' in found)) return found;
    const { claims, caller } = found;
    if (claims.is_anonymous === true) return fail(403, 'no_authorization', 'Anonymous user not allowed to perform these actions');
    const mfa: MfaContext = { session: ctx, guard: mfaGuard, settings: settings.mfa, siteUrl: settings.mail.siteUrl, ok, fail };
    const [, , factorId = '', action = '', ...extra] = req.path.replace(/\/+$/, '').split('/');
    if (extra.length > 0) return fail(404, 'not_found', 'Not found');
    if (factorId === '') return req.method === 'POST' ? enrollFactor(mfa, caller, body) : fail(405, 'method_not_allowed', 'Method not allowed');
    const factor = await loadFactor(options.db, caller.user.id, factorId, fail);
    if (!('id' in factor)) return factor;
    if (action === '' && req.method === 'DELETE') return unenrollFactor(mfa, caller, factor);
    if (action === 'challenge' && req.method === 'POST') return challengeFactor(mfa, req, caller, factor);
    if (action === 'verify' && req.method === 'POST') return verifyFactor(mfa, req, caller, factor, body);
    return action === '' || action === 'challenge' || action === 'verify' ? fail(405, 'method_not_allowed', 'Method not allowed') : fail(404, 'not_found', 'Not found');
  }

  /** `POST /signup` without an e-mail or phone: an anonymous user, when enabled (GoTrue's order of checks). */
  async function signUpAnonymously(req: StackRequest, body: Record<string, unknown>): Promise<Reply> {
    const fail = (status: number, code: string, message: string, extra?: Record<string, unknown>) => authError(req, status, code, message, extra);
    if (!settings.allowAnonymous) return fail(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
    const wait = anonymousSignIns.take(addressGroup(req.address));
    if (wait > 0) {
      const reply = fail(429, 'over_request_rate_limit', 'Request rate limit reached');
      return { ...reply, headers: { ...reply.headers, 'Retry-After': String(Math.ceil(wait / 1000)) } };
    }
    if (!options.allowSignup) return fail(422, 'signup_disabled', 'Signups not allowed for this instance');
    const created = await createAnonymousUser(options.db, body.data);
    if (!created.ok) return fail(created.status, created.code, created.message, created.extra);
    return ok(await openSession(ctx, created.user, 'anonymous'));
  }

  async function logout(req: StackRequest): Promise<Reply> {
    const caller = await verifyCaller(req);
    if (!caller.ok) return caller.reply;
    // An unknown scope is refused, as GoTrue does: read as "local", a mistyped "global"
    // would leave every other session signed in.
    const scope = req.url.searchParams.get('scope') || 'global';
    if (!logoutScopes.has(scope)) return authError(req, 400, 'validation_failed', `Unsupported logout scope ${JSON.stringify(scope.slice(0, 40))}`);
    const { sub, session_id: sessionId } = caller.claims;
    if (typeof sub === 'string' && typeof sessionId === 'string') {
      await endSessions(options.db, sub, sessionId, scope);
    }
    return { status: 204, headers: {} };
  }

  async function requireAdmin(req: StackRequest): Promise<Reply | null> {
    const caller = await verifyCaller(req);
    if (!caller.ok) return caller.reply;
    if (!adminRoles.has(String(caller.claims.role))) return authError(req, 403, 'not_admin', 'User not allowed');
    return null;
  }

  async function route(req: StackRequest): Promise<Reply> {
    try {
      return await dispatch(req);
    } catch (error) {
      if (error instanceof MailboxError) return authError(req, 500, 'unexpected_failure', error.message);
      throw error;
    }
  }

  async function dispatch(req: StackRequest): Promise<Reply> {
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
    const fail = (status: number, code: string, message: string, extra?: Record<string, unknown>) => authError(req, status, code, message, extra);
    if (path === '/token' && method === 'POST') return token(req, body);
    if (path === '/user' && (method === 'GET' || method === 'PUT')) return currentUser(req, body);
    if (path === '/logout' && method === 'POST') return logout(req);
    if (path === '/factors' || path.startsWith('/factors/')) return factors(req, body);
    if (path === '/signup' && method === 'POST') {
      const absent = (value: unknown) => value === undefined || value === null || value === '';
      if (absent(body.email) && absent(body.phone)) return signUpAnonymously(req, body);
      if (!options.allowSignup) return fail(422, 'signup_disabled', 'Signups not allowed for this instance');
      return signUp(ctx, mailer, req, body, ok, fail);
    }
    if (path === '/recover' && method === 'POST') return recover(ctx, mailer, req, body, ok, fail);
    if (path === '/verify' && (method === 'POST' || method === 'GET')) {
      // Every check of a code or link spends from its client address's bucket first, as hosted Auth's verify limit.
      const wait = codes.guard.admitAddress(req.address);
      if (wait > 0) return refusalReply(rateLimited(wait), fail);
      if (method === 'POST') return verifyPost(ctx, codes, body, ok, fail);
      return verifyGet(ctx, codes, req, (r) => redirectFor(settings.mail, r), fail);
    }
    if (path === '/.well-known/jwks.json' && method === 'GET') {
      const published = options.keys.signing ? [options.keys.signing.publicJwk] : [];
      return { ...ok({ keys: published }), headers: { ...ok({}).headers, 'Cache-Control': 'public, max-age=600' } };
    }
    if (path === '/settings' && method === 'GET') {
      return ok({
        external: { email: true, anonymous_users: settings.allowAnonymous },
        disable_signup: !options.allowSignup,
        mailer_autoconfirm: settings.mail.autoconfirm,
      });
    }
    if (path === '/health' && method === 'GET') return ok({ name: 'GoTrue', description: 'embedded local Auth' });
    if (path === '/invite' || path === '/admin/generate_link' || path.startsWith('/admin/users')) {
      const refused = await requireAdmin(req);
      if (refused) return refused;
      if (path === '/invite') return method === 'POST' ? invite(options.db, mailer, req, body, fail) : fail(405, 'method_not_allowed', 'Method not allowed');
      if (path === '/admin/generate_link') {
        return method === 'POST' ? generateLink(options.db, mailer, req, body, fail) : fail(405, 'method_not_allowed', 'Method not allowed');
      }
      const factorPath = /^\/admin\/users\/([^/]+)\/factors(\/.*)?$/.exec(path);
      if (factorPath) {
        const userId = factorPath[1] ?? '';
        if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(userId)) return fail(404, 'user_not_found', 'User not found');
        return handleAdminFactors(options.db, req, userId, factorPath[2] ?? '', body, fail, (reply) => jsonReply(200, reply));
      }
      return handleAdminUsers(req, body, options.db, fail);
    }
    return fail(404, 'not_found', 'Not found');
  }

  return { route, needsApiKey };
}
