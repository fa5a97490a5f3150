// Copy of src/domain/credentials.ts, written by `npm run functions:shared`: edit the source, then run it.
/**
 * What an e-mail address and a password must be, for everyone who checks them: the
 * embedded backend's Auth, the admin function (on the embedded backend and on hosted
 * Supabase), and the admin screen. One rule, so the same input gets the same answer
 * wherever it is typed.
 */
import { authLimits } from './limits.ts';

export type EmailCheck = { ok: true; email: string } | { ok: false; reason: 'invalid' | 'invisible' };

/**
 * Characters that show nothing or control the text rather than spell it: control and
 * format characters (zero-width space and joiners, BOM, bidi marks, soft hyphen, tags),
 * line and paragraph separators, private-use and unassigned code points, variation
 * selectors, and the letters that render blank (Hangul fillers, Braille blank). An
 * address containing one looks identical to another person's address.
 */
const invisibleCategories = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u;
/** Blank or joining code points outside those categories, as [first, last] ranges. */
const invisibleRanges: Array<[number, number]> = [
  [0x034f, 0x034f], // combining grapheme joiner
  [0x115f, 0x1160], // Hangul choseong and jungseong fillers
  [0x17b4, 0x17b5], // Khmer inherent vowels
  [0x180b, 0x180f], // Mongolian variation selectors
  [0x2800, 0x2800], // Braille pattern blank
  [0x3164, 0x3164], // Hangul filler
  [0xfe00, 0xfe0f], // variation selectors
  [0xffa0, 0xffa0], // half-width Hangul filler
  [0xe0100, 0xe01ef], // variation selectors supplement
];

function hasInvisible(text: string): boolean {
  if (invisibleCategories.test(text)) return true;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (invisibleRanges.some(([first, last]) => code >= first && code <= last)) return true;
  }
  return false;
}
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;

/**
 * The address as it is stored and looked up: NFKC (so full-width and compatibility forms
 * fold to one spelling), ordinary surrounding whitespace trimmed, lower-cased. Invisible
 * characters are refused, not removed: removing them would quietly sign someone in as
 * an address they did not type.
 */
export function normaliseEmail(raw: unknown): EmailCheck {
  if (typeof raw !== 'string') return { ok: false, reason: 'invalid' };
  const folded = raw.normalize('NFKC').replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
  if (hasInvisible(folded)) return { ok: false, reason: 'invisible' };
  const email = folded.toLowerCase();
  if (email.length > authLimits.emailMaxLength || !emailPattern.test(email)) return { ok: false, reason: 'invalid' };
  return { ok: true, email };
}

/**
 * Passwords people pick first, refused outright. Short on purpose: it stops the guesses
 * an attacker tries first, not every weak password. Shorter ones fail the length rule.
 */
const commonPasswords = new Set([
  '123456', '1234567', '12345678', '123456789', '1234567890', '0123456789', '111111', '000000',
  '123123', '654321', '666666', '121212', '112233', '987654321', 'password', 'password1',
  'password123', 'passw0rd', 'qwerty', 'qwerty123', 'qwertyuiop', 'azerty', 'abc123', 'abcdef',
  'abcd1234', '1q2w3e4r', '1qaz2wsx', 'zaq12wsx', 'iloveyou', 'letmein', 'welcome', 'welcome1',
  'admin123', 'administrator', 'changeme', 'secret', 'trustno1', 'monkey', 'dragon', 'football',
  'baseball', 'sunshine', 'princess', 'master', 'shadow', 'superman', 'whatever', 'starwars',
]);

/** GoTrue's reasons: `length` (too short) and `pwned` (known to be guessed first). */
export type PasswordProblem =
  | { reason: 'length'; message: string }
  | { reason: 'pwned'; message: string }
  | { reason: 'too_long'; message: string };

export function passwordProblem(password: unknown): PasswordProblem | null {
  if (typeof password !== 'string' || [...password].length < authLimits.passwordMinLength) {
    return { reason: 'length', message: `Password should be at least ${authLimits.passwordMinLength} characters.` };
  }
  if (new TextEncoder().encode(password).length > authLimits.passwordMaxBytes) {
    return { reason: 'too_long', message: `Password cannot be longer than ${authLimits.passwordMaxBytes} characters` };
  }
  if (commonPasswords.has(password.normalize('NFKC').toLowerCase())) {
    return { reason: 'pwned', message: 'Password is known to be weak and easy to guess, please choose a different one.' };
  }
  return null;
}

/** True when metadata would take more than its share of the user's row (and of every token). */
export function metadataTooLarge(metadata: unknown): boolean {
  return new TextEncoder().encode(JSON.stringify(metadata ?? {})).length > authLimits.userMetadataBytes;
}
