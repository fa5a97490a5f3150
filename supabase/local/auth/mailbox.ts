/**
 * Where the embedded Auth's e-mails go, since it sends none: its mailbox, one JSON line
 * per e-mail in a file (`mail-outbox.jsonl` in the data folder by default, private to the
 * account running the backend, the previous file kept as `.1` past its size limit), or,
 * when the mailbox is the log, one log line with the link. The file holds sign-in links: it is as sensitive
 * as the data folder, and a link is never written to the log while a file is in use.
 */
import { appendFile, chmod, mkdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { log } from '../logger.ts';
import { backendAuthLimits } from '../service-limits.ts';
import { privateFileMode } from '../data-folder.ts';

export type MailMessage = {
  to: string;
  /** The e-mail's kind, as GoTrue names its templates and link types. */
  type: 'signup' | 'invite' | 'magiclink' | 'recovery' | 'email_change_current' | 'email_change_new';
  subject: string;
  action_link: string;
  email_otp: string;
  redirect_to: string;
  /** `generate_link`: an admin asked for the link; hosted Supabase sends no e-mail for it. */
  via?: 'generate_link';
};

export const subjects: Record<MailMessage['type'], string> = {
  signup: 'Confirm Your Signup',
  invite: 'You have been invited',
  magiclink: 'Your Magic Link',
  recovery: 'Reset Your Password',
  email_change_current: 'Confirm Email Change',
  email_change_new: 'Confirm Email Change',
};

/** The mailbox could not be written: the e-mail is not sent, and the request says so (GoTrue's 500 for a mail failure). */
export class MailboxError extends Error {}

export class Mailbox {
  /** E-mails written since start (tests and the log's summary). */
  private written = 0;

  constructor(
    readonly file: string | null,
    private readonly maxBytes: number = backendAuthLimits.mailboxFileBytes,
  ) {}

  async deliver(message: MailMessage): Promise<void> {
    this.written += 1;
    const what = `e-mail "${message.subject}" (${message.type}${message.via ? `, ${message.via}` : ''}) to ${message.to}`;
    if (!this.file) {
      log.info(`auth: ${what}: ${message.action_link} (code ${message.email_otp})`);
      return;
    }
    try {
      await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      const size = await stat(this.file).then((s) => s.size, () => 0);
      if (size > this.maxBytes) await rename(this.file, `${this.file}.1`);
      await appendFile(this.file, `${JSON.stringify({ sent_at: new Date().toISOString(), ...message })}\n`, { mode: privateFileMode });
      await chmod(this.file, privateFileMode);
    } catch (error) {
      log.error(`auth: could not write the ${what} to ${this.file}: ${String(error)}`);
      throw new MailboxError(`Error sending ${message.type.replace(/_/g, ' ')} email`);
    }
    log.info(`auth: ${what} written to ${this.file}`);
  }

  get count(): number {
    return this.written;
  }
}
