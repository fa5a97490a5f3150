/**
 * Password hashes, and checking a password in the same time whether or not the account
 * exists: an unknown e-mail (or an account without a password) is compared against a
 * dummy hash of the same cost, so the answer's timing does not tell which e-mails exist.
 */
import { randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';

/** bcrypt cost of every stored hash (the seed uses the same). */
const hashCost = 10;

let dummyHash: Promise<string> | null = null;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, hashCost);
}

/** Computes the dummy hash ahead of the first sign-in, so that one is not slower either. */
export function prepareDummyHash(): Promise<string> {
  dummyHash ??= bcrypt.hash(randomBytes(16).toString('base64url'), hashCost);
  return dummyHash;
}

/** True only when `hash` exists and `password` matches it; always spends one bcrypt comparison. */
export async function passwordMatches(password: string, hash: string | null | undefined): Promise<boolean> {
  if (hash) return bcrypt.compare(password, hash);
  await bcrypt.compare(password, await prepareDummyHash());
  return false;
}
