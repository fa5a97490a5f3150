/**
 * `GET /user` and `PUT /user` for the signed-in user, as GoTrue's user.go: metadata
 * merges; a new password must differ from the current one and signs the user out
 * everywhere else; app_metadata is the admin's; a new e-mail address is validated and
 * changes only once confirmed: links go to the new address and (secure e-mail change,
 * the default) the current one, and the user shows `new_email` meanwhile.
 */
import type { Reply } from '../http.ts';
import type { JwtClaims } from '../jwt.ts';
import type { StackRequest } from '../request.ts';
import { redirectFor, secondsToWait, tooSoon } from './email-links.ts';
import type { Mailer } from './mailer.ts';
import { issueLink } from './mailer.ts';
import { hashPassword, passwordMatches } from './passwords.ts';
import type { SessionContext } from './sessions.ts';
import { endUserSessions } from './sessions.ts';
import type { AuthFailure, UserRow } from './users.ts';
import { checkEmail, checkMetadataSize, checkPassword, duplicateEmail, findUser, mergeMetadata } from './users.ts';

type Fail = (status: number, code: string, message: string, extra?: Record<string, unknown>) => Reply;

const adminRoles = new Set(['service_role', 'supabase_admin']);

/** The address change asked for, checked; null when the body asks for none. */
async function emailChange(ctx: SessionContext, user: UserRow, raw: unknown): Promise<{ email: string } | AuthFailure | null> {
  if (raw === undefined || raw === null || raw === '') return null;
  const checked = checkEmail(raw);
  if (!checked.ok) return checked;
  if (checked.email === user.email) return null;
  const holder = await findUser(ctx.db, { email: checked.email });
  if (holder && holder.id !== user.id) return duplicateEmail();
  return { email: checked.email };
}

export async function updateCurrentUser(
  ctx: SessionContext,
  mailer: Mailer,
  req: StackRequest,
  claims: JwtClaims,
  user: UserRow,
  body: Record<string, unknown>,
  fail: Fail,
): Promise<{ user: UserRow } | Reply> {
  // GoTrue reads `data` into a map: anything but an object (or null, no change) is unreadable.
  if (body.data !== undefined && body.data !== null && (typeof body.data !== 'object' || Array.isArray(body.data))) {
    return fail(400, 'bad_json', 'Could not read User Update params: data must be a JSON object');
  }
  const weak = checkPassword(body.password);
  if (weak) return fail(weak.status, weak.code, weak.message, weak.extra);
  const change = await emailChange(ctx, user, body.email);
  if (change && 'ok' in change) return fail(change.status, change.code, change.message);
  if (body.app_metadata !== undefined && !adminRoles.has(String(claims.role))) {
    return fail(403, 'not_admin', 'Updating app_metadata requires admin privileges');
  }
  if (typeof body.password === 'string' && user.encrypted_password && (await passwordMatches(body.password, user.encrypted_password))) {
    return fail(422, 'same_password', 'New password should be different from the old password.');
  }
  const metadata = mergeMetadata(user.raw_user_meta_data, body.data);
  const tooLarge = checkMetadataSize(metadata);
  if (tooLarge) return fail(tooLarge.status, tooLarge.code, tooLarge.message);
  if (change) {
    const wait = secondsToWait(user.email_change_sent_at, mailer.mail.intervalSeconds);
    if (wait > 0) {
      const soon = tooSoon(wait);
      return fail(soon.status, soon.code, soon.message);
    }
  }
  const newHash = typeof body.password === 'string' ? await hashPassword(body.password) : null;
  await ctx.db.transaction(async (tx) => {
    await tx.query(
      `update auth.users set raw_user_meta_data = $2::jsonb,
         encrypted_password = coalesce($3, encrypted_password), updated_at = now() where id = $1`,
      [user.id, JSON.stringify(metadata), newHash],
    );
    // A new password signs the user out everywhere else; this session stays, as on hosted Auth.
    if (newHash) await endUserSessions(tx, user.id, { except: String(claims.session_id) });
    if (change) {
      const redirect = redirectFor(mailer.mail, req.url.searchParams.get('redirect_to'));
      if (mailer.mail.secureEmailChange && user.email) {
        await issueLink(mailer, tx, user, 'email_change_current', redirect, { newEmail: change.email });
      }
      await issueLink(mailer, tx, user, 'email_change_new', redirect, { newEmail: change.email });
    }
  });
  return { user: (await findUser(ctx.db, { id: user.id })) ?? user };
}
