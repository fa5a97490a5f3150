/**
 * What keeps a six-digit code from being guessed: a million codes, of which a guesser may
 * try only a few before the code dies.
 *
 * - Every code check (`/verify`, any form) spends from its client address's token bucket
 *   (an IPv6 /64 counts as one address), as hosted Auth limits its verify endpoint; a code
 *   typed with an e-mail address also spends from that address's own bucket, so a guesser
 *   spread over many client addresses is held back at the account as well.
 * - Each code typed for an e-mail address reserves one of its few tries *before* it is
 *   checked, so a burst of concurrent guesses cannot check more than the allowed number;
 *   when the last try fails, every code outstanding for that address is voided in the
 *   database. Tries are forgotten only when a code is accepted or the address's codes are
 *   voided, not when a code is sent: a new code of one kind (a recovery e-mail anyone may
 *   ask for) leaves a code of another kind (an invitation) alive, which must not get fresh
 *   tries with it. Every code so meets at most the allowed wrong tries.
 * - When more addresses are counted than `tracked`, the least recently typed is dropped
 *   and its codes are voided with its count (fail closed): a flood of other addresses
 *   cannot wipe a count and buy a code more tries.
 *
 * Counts are per e-mail address typed, whether or not an account has it, and a refused try
 * follows the same path either way: the answers do not tell who has an account. A link's
 * token (`token_hash`) names no account, so only the client address's bucket holds it.
 * State is in memory, bounded, and forgotten on restart; voided codes stay void.
 */
import type { Queryable } from '../db/database.ts';
import { addressGroup } from './address-group.ts';
import { TokenBuckets } from './rate-limit.ts';
import type { CodeSettings } from './settings.ts';

export class CodeGuard {
  private readonly addresses: TokenBuckets;
  private readonly accounts: TokenBuckets;
  /** Tries reserved per e-mail address since its last code was sent or accepted. */
  private readonly tries = new Map<string, number>();

  constructor(
    private readonly settings: CodeSettings,
    now: () => number = Date.now,
  ) {
    const intervalMs = Math.round(3_600_000 / settings.perHour);
    this.addresses = new TokenBuckets(settings.burst, intervalMs, now, settings.tracked);
    this.accounts = new TokenBuckets(settings.burst, intervalMs, now, settings.tracked);
  }

  /** Milliseconds this client address must wait before checking a code, or 0 (its check is counted). */
  admitAddress(address: string): number {
    return this.addresses.take(addressGroup(address));
  }

  /** Milliseconds before a code may be checked for this e-mail address, or 0 (its check is counted). */
  admitAccount(email: string): number {
    return this.accounts.take(email);
  }

  /**
   * Reserves a try for `email`: its number, or null when the tries are spent and no code
   * may be checked; and the address dropped to make room, whose codes must be voided.
   */
  reserveTry(email: string): { tryNumber: number | null; dropped: string | null } {
    const spent = (this.tries.get(email) ?? 0) + 1;
    this.tries.delete(email); // re-inserted last: insertion order is the eviction order
    this.tries.set(email, spent);
    let dropped: string | null = null;
    if (this.tries.size > this.settings.tracked) {
      const oldest = this.tries.keys().next();
      if (!oldest.done) {
        dropped = oldest.value;
        this.tries.delete(dropped);
      }
    }
    return { tryNumber: spent > this.settings.wrongTries ? null : spent, dropped };
  }

  /** The try numbered `tryNumber` was wrong: true when it was the last, and the codes must be voided. */
  isLastTry(tryNumber: number): boolean {
    return tryNumber === this.settings.wrongTries;
  }

  /** A code for `email` was accepted, or all its codes were voided: its tries start afresh. */
  forget(email: string): void {
    this.tries.delete(email.toLowerCase());
  }
}

/**
 * Voids every code outstanding for an e-mail address: the ones sent to it as a user's
 * address (sign-up, invite, recovery, magic link, the current address's e-mail change
 * link) and the one sent to it as the new address of an e-mail change. The same statement
 * runs whether or not anyone has the address.
 */
export async function voidCodes(db: Queryable, email: string): Promise<void> {
  await db.query(
    `update auth.users set
       confirmation_token = case when lower(email) = $1 and confirmation_token <> '' then '' else confirmation_token end,
       recovery_token = case when lower(email) = $1 and recovery_token <> '' then '' else recovery_token end,
       email_change_token_current = case when lower(email) = $1 and email_change_token_current <> '' then ''
         else email_change_token_current end,
       email_change_token_new = case when lower(email_change) = $1 and email_change_token_new <> '' then ''
         else email_change_token_new end
     where lower(email) = $1 or lower(email_change) = $1`,
    [email.toLowerCase()],
  );
}
