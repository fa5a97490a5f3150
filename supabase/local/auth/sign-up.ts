/**
 * `POST /signup` and `POST /recover`, as GoTrue's signup.go and recover.go. Sign-up is
 * off unless enabled; with mailer autoconfirm (the default here) the new user is signed
 * in at once, otherwise a confirmation link goes to the mailbox and the answer is the
 * user. A taken address answers "User already registered" under autoconfirm, and an
 * obfuscated user otherwise, as GoTrue does so that sign-up does not tell who has an
 * account. Recovery always answers `{}` for an unknown address; for a known one the link
 * goes to the mailbox, at most once per interval.
 */
import { randomUUID } from 'node:crypto';
import type { Reply } from '../http.ts';
import type { StackRequest } from '../request.ts';
import { redirectFor, secondsToWait, tooSoon } from './email-links.ts';
import type { Mailer } from './mailer.ts';
import { issueLink } from './mailer.ts';
import type { SessionContext } from './sessions.ts';
import { openSession } from './sessions.ts';
import { checkEmail, createUser, findUser, userJson } from './users.ts';

type Fail = (status: number, code: string, message: string, extra?: Record<string, unknown>) => Reply;
type Ok = (body: unknown) => Reply;

/** What GoTrue answers for an address that already has an account when sign-up needs confirmation. */
function obfuscatedUser(email: string) {
  const now = new Date().toISOString();
  return {
    id: randomUUID(), aud: 'authenticated', role: 'authenticated', email, phone: '', confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] }, user_metadata: {}, identities: [], created_at: now, updated_at: now,
    is_anonymous: false,
  };
}

export async function signUp(ctx: SessionContext, mailer: Mailer, req: StackRequest, body: Record<string, unknown>, ok: Ok, fail: Fail): Promise<Reply> {
  if (typeof body.password !== 'string' || body.password === '') return fail(400, 'validation_failed', 'Signup requires a valid password');
  const checked = checkEmail(body.email);
  if (!checked.ok) return fail(checked.status, checked.code, checked.message);
  const existing = await findUser(ctx.db, { email: checked.email });
  if (existing) {
    // An unconfirmed account is not handed to whoever signs up with its address.
    if (mailer.mail.autoconfirm || !existing.email_confirmed_at) return fail(422, 'user_already_exists', 'User already registered');
    return ok(obfuscatedUser(checked.email));
  }
  const created = await createUser(ctx.db, {
    email: checked.email,
    password: body.password,
    email_confirm: mailer.mail.autoconfirm,
    user_metadata: body.data,
  });
  if (!created.ok) return fail(created.status, created.code, created.message, created.extra);
  if (mailer.mail.autoconfirm) return ok(await openSession(ctx, created.user));
  const redirect = redirectFor(mailer.mail, req.url.searchParams.get('redirect_to'));
  await ctx.db.transaction((tx) => issueLink(mailer, tx, created.user, 'signup', redirect));
  const fresh = (await findUser(ctx.db, { id: created.user.id })) ?? created.user;
  return ok(userJson(fresh));
}

export async function recover(ctx: SessionContext, mailer: Mailer, req: StackRequest, body: Record<string, unknown>, ok: Ok, fail: Fail): Promise<Reply> {
  if (body.email === undefined || body.email === '') return fail(400, 'validation_failed', 'Password recovery requires an email');
  const checked = checkEmail(body.email);
  if (!checked.ok) return fail(checked.status, checked.code, checked.message);
  const user = await findUser(ctx.db, { email: checked.email });
  if (!user) return ok({});
  const wait = secondsToWait(user.recovery_sent_at, mailer.mail.intervalSeconds);
  if (wait > 0) {
    const soon = tooSoon(wait);
    return fail(soon.status, soon.code, soon.message);
  }
  const redirect = redirectFor(mailer.mail, req.url.searchParams.get('redirect_to'));
  await ctx.db.transaction((tx) => issueLink(mailer, tx, user, 'recovery', redirect));
  return ok({});
}
