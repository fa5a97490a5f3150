/**
 * `/verify`, as GoTrue's verify.go: a link's token (GET, redirecting to the site with the
 * session in the URL fragment, or POST with `token_hash`), or the code typed with the
 * address (POST with `email` and `token`). Sign-up and invite links confirm the address
 * (an invited user without a password gets a random one, to be replaced with PUT /user);
 * recovery and magic links sign in; an e-mail change needs, with secure e-mail change,
 * the links of both addresses: the first answers with a message, the second changes the
 * address. Every token works once and expires after the link lifetime; a code typed with
 * its address is also held to the account's limits and few tries (one-time-codes.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import type { Reply } from '../http.ts';
import type { StackRequest } from '../request.ts';
import type { LinkType } from './email-links.ts';
import { expired, tokenHash } from './email-links.ts';
import type { CodeGuard } from './one-time-codes.ts';
import { voidCodes } from './one-time-codes.ts';
import { hashPassword } from './passwords.ts';
import type { SessionContext } from './sessions.ts';
import { openSession } from './sessions.ts';
import type { MailSettings } from './settings.ts';
import type { AuthFailure, UserRow } from './users.ts';
import { checkEmail, findUser, userSelect } from './users.ts';

type Fail = (status: number, code: string, message: string) => Reply;

/** What checking a code needs besides the database: the link settings and the guard against guessing. */
export type CodeCheck = { mail: MailSettings; guard: CodeGuard; key: Buffer };

/** A refusal, with the seconds to wait when it is a rate limit (sent as Retry-After). */
export type Refusal = AuthFailure & { retryAfterSeconds?: number };

/** GoTrue's answer when a rate limit is reached, with the seconds until the next request may go. */
export function rateLimited(waitMs: number): Refusal {
  return { ok: false, status: 429, code: 'over_request_rate_limit', message: 'Request rate limit reached', retryAfterSeconds: Math.ceil(waitMs / 1000) };
}

/** The reply for a refusal, with Retry-After when it has a wait. */
export function refusalReply(refusal: Refusal, fail: Fail): Reply {
  const reply = fail(refusal.status, refusal.code, refusal.message);
  if (refusal.retryAfterSeconds === undefined) return reply;
  return { ...reply, headers: { ...reply.headers, 'Retry-After': String(refusal.retryAfterSeconds) } };
}

const singleConfirmationAccepted = 'Confirmation link accepted. Please proceed to confirm link sent to the other email';
const linkInvalid: AuthFailure = { ok: false, status: 403, code: 'otp_expired', message: 'Email link is invalid or has expired' };
const codeInvalid: AuthFailure = { ok: false, status: 403, code: 'otp_expired', message: 'Token has expired or is invalid' };

/** The user holding `hash` for a link of `type`, locked for the change. */
async function userByToken(tx: Queryable, type: LinkType | 'email', hash: string): Promise<UserRow | null> {
  const where = {
    signup: 'u.confirmation_token = $1',
    invite: 'u.confirmation_token = $1',
    recovery: 'u.recovery_token = $1',
    magiclink: 'u.recovery_token = $1',
    email: '(u.confirmation_token = $1 or u.recovery_token = $1)',
    email_change: '(u.email_change_token_new = $1 or u.email_change_token_current = $1)',
  }[type];
  const { rows } = await tx.query<{ u: UserRow | string }>(
    `select ${userSelect} as u from auth.users u where ${where} and $1 <> '' and u.deleted_at is null for update`,
    [hash],
  );
  const value = rows[0]?.u;
  return value ? (typeof value === 'string' ? (JSON.parse(value) as UserRow) : value) : null;
}

/** When the token of `type` on `user` was sent; `email` is a sign-up or a magic link, whichever holds `hash`. */
function sentAt(user: UserRow, type: LinkType | 'email', hash: string): { sent: string | null; type: LinkType } {
  if (type === 'email') {
    return user.recovery_token === hash ? { sent: user.recovery_sent_at, type: 'magiclink' } : { sent: user.confirmation_sent_at, type: 'signup' };
  }
  if (type === 'signup' || type === 'invite') return { sent: user.confirmation_sent_at, type };
  if (type === 'recovery' || type === 'magiclink') return { sent: user.recovery_sent_at, type };
  return { sent: user.email_change_sent_at, type };
}

const confirmSql = `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), confirmation_token = '',
  updated_at = now() where id = $1`;
const verifiedIdentity = `update auth.identities set identity_data = identity_data || jsonb_build_object('email_verified', true),
  updated_at = now() where user_id = $1 and provider = 'email'`;

/** Applies a verified link; 'half' when an e-mail change still waits for its other link. */
async function apply(tx: Queryable, user: UserRow, type: LinkType, hash: string, mail: MailSettings): Promise<'done' | 'half'> {
  if (type === 'signup' || type === 'invite') {
    if (!user.encrypted_password && user.invited_at) {
      await tx.query('update auth.users set encrypted_password = $2 where id = $1', [user.id, await hashPassword(randomBytes(32).toString('base64url'))]);
    }
    await tx.query(confirmSql, [user.id]);
    await tx.query(verifiedIdentity, [user.id]);
    return 'done';
  }
  if (type === 'recovery' || type === 'magiclink') {
    await tx.query(`update auth.users set recovery_token = '', email_confirmed_at = coalesce(email_confirmed_at, now()),
      updated_at = now() where id = $1`, [user.id]);
    return 'done';
  }
  // GoTrue also skips the second link under mailer autoconfirm; here autoconfirm is about
  // sign-up only, so e-mail changes stay confirmed from both addresses as on hosted Supabase.
  const firstOfTwo = mail.secureEmailChange && user.email && (user.email_change_confirm_status ?? 0) === 0 &&
    user.email_change_token_current && user.email_change_token_new;
  if (firstOfTwo) {
    const column = hash === user.email_change_token_current ? 'email_change_token_current' : 'email_change_token_new';
    await tx.query(`update auth.users set email_change_confirm_status = 1, ${column} = '' where id = $1`, [user.id]);
    return 'half';
  }
  await tx.query(
    `update auth.users set email = email_change, email_change = '', email_change_token_new = '', email_change_token_current = '',
       email_change_confirm_status = 0, email_confirmed_at = now(), updated_at = now() where id = $1`,
    [user.id],
  );
  await tx.query(
    `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', true),
       updated_at = now() where user_id = $1 and provider = 'email'`,
    [user.id, user.email_change],
  );
  return 'done';
}

export type VerifyInput = { type?: unknown; token?: unknown; token_hash?: unknown; email?: unknown };

export type Verified = { ok: true; half: true } | { ok: true; half: false; user: UserRow; type: LinkType } | Refusal;

const linkTypes: Array<LinkType | 'email'> = ['signup', 'invite', 'magiclink', 'recovery', 'email_change', 'email'];

/**
 * Checks a code typed with its address, within the account's limits: the account's bucket,
 * then one of its few tries, reserved before the check; the last wrong try voids the
 * address's codes. Unknown addresses go the same way.
 */
async function verifyCode(ctx: SessionContext, codes: CodeCheck, type: LinkType | 'email', email: string, code: string): Promise<Verified> {
  const wait = codes.guard.admitAccount(email);
  if (wait > 0) return rateLimited(wait);
  const { tryNumber, dropped } = codes.guard.reserveTry(email);
  // An address no longer counted loses its codes with its count, so dropping it gives no fresh tries.
  if (dropped !== null) await voidCodes(ctx.db, dropped);
  if (tryNumber === null) return codeInvalid; // the tries are spent: the codes are void, nothing to check
  const verified = await checkAndApply(ctx, codes.mail, type, tokenHash(codes.key, email, code), codeInvalid);
  if (verified.ok) codes.guard.forget(email);
  else if (verified === codeInvalid && codes.guard.isLastTry(tryNumber)) {
    await voidCodes(ctx.db, email);
    codes.guard.forget(email); // every code of the address is dead: the next one sent starts with all its tries
  }
  return verified;
}

/** Checks a token (a link's hash, or an address and its code) and applies it, in one transaction. */
export async function verifyToken(ctx: SessionContext, codes: CodeCheck, input: VerifyInput): Promise<Verified> {
  const type = input.type;
  if (typeof type !== 'string' || type === '') return { ok: false, status: 400, code: 'validation_failed', message: 'Verify requires a verification type' };
  if (!linkTypes.includes(type as LinkType)) return { ok: false, status: 400, code: 'validation_failed', message: 'Invalid email verification type' };
  const hasToken = typeof input.token === 'string' && input.token !== '';
  const hasHash = typeof input.token_hash === 'string' && input.token_hash !== '';
  if (hasToken === hasHash) {
    return { ok: false, status: 400, code: 'validation_failed', message: 'Verify requires either a token or a token hash' };
  }
  if (hasToken) {
    const email = checkEmail(input.email);
    if (!email.ok) return { ...email, status: 422, message: 'Invalid email format' };
    return verifyCode(ctx, codes, type as LinkType | 'email', email.email, String(input.token));
  }
  return checkAndApply(ctx, codes.mail, type as LinkType | 'email', String(input.token_hash), linkInvalid);
}

/** Finds the user holding `hash` for `type`, and applies the link; `invalid` is the answer when it matches nobody. */
function checkAndApply(ctx: SessionContext, mail: MailSettings, type: LinkType | 'email', hash: string, invalid: AuthFailure): Promise<Verified> {
  return ctx.db.transaction(async (tx): Promise<Verified> => {
    const user = await userByToken(tx, type, hash);
    if (!user) return invalid;
    if (user.banned_until && Date.parse(user.banned_until) > Date.now()) return { ok: false, status: 403, code: 'user_banned', message: 'User is banned' };
    const sent = sentAt(user, type, hash);
    if (expired(sent.sent, mail.linkSeconds)) return invalid;
    const outcome = await apply(tx, user, sent.type, hash, mail);
    if (outcome === 'half') return { ok: true, half: true };
    const fresh = await findUser(tx, { id: user.id });
    return fresh ? { ok: true, half: false, user: fresh, type: sent.type } : invalid;
  });
}

/** POST /verify: a session, or the message that the other address's link is still needed. */
export async function verifyPost(ctx: SessionContext, codes: CodeCheck, body: Record<string, unknown>, ok: (b: unknown) => Reply, fail: Fail): Promise<Reply> {
  const verified = await verifyToken(ctx, codes, body);
  if (!verified.ok) return refusalReply(verified, fail);
  if (verified.half) return ok({ msg: singleConfirmationAccepted, code: '200' });
  return ok(await openSession(ctx, verified.user, 'otp'));
}

const oauthErrors: Record<number, string> = { 400: 'invalid_request', 401: 'unauthorized_client', 403: 'access_denied', 429: 'access_denied', 500: 'server_error' };

/**
 * GET /verify (the link in an e-mail): a missing type or token is refused as JSON, as
 * GoTrue validates before verifying; otherwise 303 to the redirect address, the session
 * or the error in its fragment.
 */
export async function verifyGet(ctx: SessionContext, codes: CodeCheck, req: StackRequest, redirect: (r: unknown) => string, fail: Fail): Promise<Reply> {
  const params = req.url.searchParams;
  const type = params.get('type') ?? '';
  const token = params.get('token') ?? '';
  if (!type) return fail(400, 'validation_failed', 'Verify requires a verification type');
  if (!token) return fail(400, 'validation_failed', 'Verify requires a token or a token hash');
  const target = new URL(redirect(params.get('redirect_to')));
  const verified = await verifyToken(ctx, codes, { type, token_hash: token });
  const fragment = new URLSearchParams();
  if (!verified.ok) {
    if (oauthErrors[verified.status]) fragment.set('error', oauthErrors[verified.status] as string);
    fragment.set('error_code', verified.code);
    fragment.set('error_description', verified.message);
  } else if (verified.half) {
    fragment.set('message', singleConfirmationAccepted);
  } else {
    const session = await openSession(ctx, verified.user, 'otp');
    fragment.set('access_token', session.access_token);
    fragment.set('expires_at', String(session.expires_at));
    fragment.set('expires_in', String(session.expires_in));
    fragment.set('refresh_token', session.refresh_token);
    fragment.set('token_type', 'bearer');
    fragment.set('type', verified.type);
  }
  fragment.set('sb', '');
  target.hash = fragment.toString();
  return { status: 303, headers: { Location: target.toString() } };
}
