/**
 * The admin's e-mail links, as GoTrue's mail.go (adminGenerateLink) and invite.go:
 * `POST /admin/generate_link` makes a signup, invite, magiclink, recovery or e-mail
 * change link and returns it with its code and the user (a magic link for an unknown
 * address signs them up, as GoTrue does); `POST /invite` creates an invited user and
 * e-mails the link. Hosted Supabase sends no e-mail for generate_link; here its links
 * are also written to the mailbox (marked `via: generate_link`) so an operator has them.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';
import type { Reply } from '../http.ts';
import { jsonReply } from '../http.ts';
import type { StackRequest } from '../request.ts';
import { redirectFor } from './email-links.ts';
import type { Mailer } from './mailer.ts';
import { issueLink } from './mailer.ts';
import type { MailMessage } from './mailbox.ts';
import type { AuthFailure, UserRow } from './users.ts';
import { checkEmail, checkPassword, createUser, duplicateEmail, findUser, isObject, mergeMetadata, userJson } from './users.ts';

type Fail = (status: number, code: string, message: string, extra?: Record<string, unknown>) => Reply;

const linkTypes = ['signup', 'invite', 'magiclink', 'recovery', 'email_change_current', 'email_change_new'] as const;

const failed = (f: AuthFailure, fail: Fail) => fail(f.status, f.code, f.message, f.extra);

/** The user a signup or invite link is for: the unconfirmed one there is, or a new one. */
async function signupUser(db: Database, email: string, body: Record<string, unknown>, invite: boolean): Promise<UserRow | AuthFailure> {
  const existing = await findUser(db, { email });
  if (existing) {
    if (existing.email_confirmed_at) return duplicateEmail();
    if (!invite && isObject(body.data)) {
      await db.query('update auth.users set raw_user_meta_data = $2::jsonb, updated_at = now() where id = $1', [
        existing.id,
        JSON.stringify(mergeMetadata(existing.raw_user_meta_data, body.data)),
      ]);
    }
    return existing;
  }
  if (!invite) {
    if (typeof body.password !== 'string' || body.password === '') {
      return { ok: false, status: 400, code: 'validation_failed', message: 'Signup requires a valid password' };
    }
    const weak = checkPassword(body.password);
    if (weak) return weak;
  }
  const created = await createUser(db, { email, password: invite ? undefined : body.password, user_metadata: body.data, invited: invite });
  return created.ok ? created.user : created;
}

export async function generateLink(db: Database, mailer: Mailer, req: StackRequest, body: Record<string, unknown>, fail: Fail): Promise<Reply> {
  const checked = checkEmail(body.email);
  if (!checked.ok) return failed(checked, fail);
  let type = body.type as MailMessage['type'];
  if (!linkTypes.includes(type)) return fail(400, 'validation_failed', `Invalid email action link type requested: ${String(body.type)}`);
  const redirect = redirectFor(mailer.mail, req.url.searchParams.get('redirect_to') ?? body.redirect_to);
  let user = await findUser(db, { email: checked.email });
  let newEmail: string | undefined;
  if (!user) {
    if (type === 'recovery' || type === 'email_change_current' || type === 'email_change_new') {
      return fail(404, 'user_not_found', 'User with this email not found');
    }
    // A magic link for an unknown address signs it up, with a random password.
    if (type === 'magiclink') {
      type = 'signup';
      body = { ...body, password: randomBytes(48).toString('base64url') };
    }
  }
  if (type === 'signup' || type === 'invite') {
    const found = await signupUser(db, checked.email, body, type === 'invite');
    if ('ok' in found) return failed(found, fail);
    user = found;
  } else if (type === 'email_change_current' || type === 'email_change_new') {
    if (type === 'email_change_current' && !mailer.mail.secureEmailChange) {
      return fail(400, 'validation_failed', 'Enable secure email change to generate link for current email');
    }
    const next = checkEmail(body.new_email);
    if (!next.ok) return failed(next, fail);
    const holder = await findUser(db, { email: next.email });
    if (holder) return failed(duplicateEmail(), fail);
    newEmail = next.email;
  }
  const target = user as UserRow;
  const link = await db.transaction((tx) => issueLink(mailer, tx, target, type, redirect, { newEmail, via: 'generate_link' }));
  const fresh = (await findUser(db, { id: target.id })) ?? target;
  return jsonReply(200, { ...userJson(fresh), ...link });
}

export async function invite(db: Database, mailer: Mailer, req: StackRequest, body: Record<string, unknown>, fail: Fail): Promise<Reply> {
  const checked = checkEmail(body.email);
  if (!checked.ok) return failed(checked, fail);
  const user = await signupUser(db, checked.email, body, true);
  if ('ok' in user) return failed(user, fail);
  const redirect = redirectFor(mailer.mail, req.url.searchParams.get('redirect_to'));
  await db.transaction((tx) => issueLink(mailer, tx, user, 'invite', redirect));
  const fresh = (await findUser(db, { id: user.id })) ?? user;
  return jsonReply(200, userJson(fresh));
}
