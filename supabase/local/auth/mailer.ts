/**
 * Issuing an e-mail link for a user: the token goes on the user's row (the column
 * GoTrue keeps it in for that kind of link, with when it was sent), the e-mail to the
 * mailbox. Used by /recover, /invite, sign-up confirmation, e-mail change and the admin's
 * generate_link.
 */
import type { Queryable } from '../db/database.ts';
import type { LinkType } from './email-links.ts';
import { actionLink, newOtp, tokenHash } from './email-links.ts';
import type { Mailbox, MailMessage } from './mailbox.ts';
import { subjects } from './mailbox.ts';
import type { MailSettings } from './settings.ts';
import type { UserRow } from './users.ts';

export type Mailer = {
  authUrl: string;
  mail: MailSettings;
  mailbox: Mailbox;
  /** The key tokens are hashed with (codeKey in email-links.ts). */
  codeKey: Buffer;
};

export type LinkProperties = {
  action_link: string;
  email_otp: string;
  hashed_token: string;
  redirect_to: string;
  verification_type: MailMessage['type'];
};

const linkTypes: Record<MailMessage['type'], LinkType> = {
  signup: 'signup',
  invite: 'invite',
  magiclink: 'magiclink',
  recovery: 'recovery',
  email_change_current: 'email_change',
  email_change_new: 'email_change',
};

/** The statement that stores a link's token (`$2`) for user `$1`, by kind; `$3` is the new address. */
const storeToken: Record<MailMessage['type'], string> = {
  signup: 'update auth.users set confirmation_token = $2, confirmation_sent_at = now() where id = $1',
  invite: 'update auth.users set confirmation_token = $2, confirmation_sent_at = now(), invited_at = now() where id = $1',
  magiclink: 'update auth.users set recovery_token = $2, recovery_sent_at = now() where id = $1',
  recovery: 'update auth.users set recovery_token = $2, recovery_sent_at = now() where id = $1',
  email_change_current: `update auth.users set email_change = $3, email_change_token_current = $2, email_change_sent_at = now(),
    email_change_confirm_status = 0 where id = $1`,
  email_change_new: `update auth.users set email_change = $3, email_change_token_new = $2, email_change_sent_at = now(),
    email_change_confirm_status = 0 where id = $1`,
};

/**
 * Makes a link of `type` for `user`, stores its token and, unless `via` says the admin
 * takes it, writes the e-mail to the mailbox. For an e-mail change, `newEmail` is the
 * address asked for; the link for it is sent there.
 */
export async function issueLink(
  mailer: Mailer,
  tx: Queryable,
  user: UserRow,
  type: MailMessage['type'],
  redirectTo: string,
  options: { newEmail?: string; via?: 'generate_link' } = {},
): Promise<LinkProperties> {
  const otp = newOtp();
  const to = type === 'email_change_new' ? (options.newEmail ?? '') : (user.email ?? '');
  const hashed = tokenHash(mailer.codeKey, to, otp);
  await tx.query(storeToken[type], type.startsWith('email_change') ? [user.id, hashed, options.newEmail ?? ''] : [user.id, hashed]);
  const link = actionLink(mailer.authUrl, hashed, linkTypes[type], redirectTo);
  await mailer.mailbox.deliver({ to, type, subject: subjects[type], action_link: link, email_otp: otp, redirect_to: redirectTo, via: options.via });
  return { action_link: link, email_otp: otp, hashed_token: hashed, redirect_to: redirectTo, verification_type: type };
}
