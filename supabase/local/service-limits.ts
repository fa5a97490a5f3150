/**
 * The limits one running backend applies: the defaults of src/domain/limits.ts and the
 * backend-only limits below, then the operator's environment variables, then what the
 * caller passes (tests use small numbers).
 */
import type { ServiceLimits } from '../../src/domain/limits.ts';
import { serviceLimits } from '../../src/domain/limits.ts';

/** Limits only the embedded backend applies (the device never needs them). */
export const backendLimits = {
  /**
   * Rows one REST statement may feed into aggregate functions (`amount.sum()`, `count()`),
   * counted across every level of the select; more is refused (54000, HTTP 413). PGlite
   * cannot interrupt a statement, so this is what bounds an aggregate's work there; a
   * year of one store's daily figures is about 2,200 rows.
   */
  maxAggregatedRows: 500_000,
  /**
   * Characters the `match`, `imatch`, `like` and `ilike` patterns and full-text queries of
   * one request may have together, a regular expression's repetition `{m,n}` counting n
   * times what it repeats, each pattern at least 10 and a full-text query at least 100;
   * more is refused (400, PGRST100), as are back-references and lookaround constraints
   * (rest/pattern-guard.ts). Matching costs about text x pattern length and PGlite cannot
   * interrupt it: at 100, the costliest request over five years of a store's longest notes
   * takes about half a second there.
   */
  maxPatternLength: 100,
  /**
   * The planner's total cost (EXPLAIN's "Total Cost", weighted for the request's patterns)
   * one REST statement may have on PGlite; more is refused before it runs (413, 54000;
   * rest/plan-cost.ts). PGlite cannot interrupt a statement and serves one at a time, so
   * this bounds how long one request holds everyone else. Measured there with five years
   * of a store's figures: about 10 microseconds per unit (an embed reading every figure
   * once per figure: 560,000, 6 s; 28,000, 0.3 s), so 25,000 holds the others up about a
   * quarter of a second; the app's own REST reads cost under 1,000 and an aggregate over
   * a store's figures 6,000. PostgreSQL has no such limit: its statement timeout cuts a
   * statement and other connections go on.
   */
  maxPlanCost: 25_000,
  /**
   * Bytes a Realtime connection may leave unread (sent by the backend, not yet taken by
   * the client's socket) before it is dropped: a client that sends and never reads would
   * otherwise have the backend hold every reply and change meant for it. A reading client
   * stays far below it (the operating system's socket buffers come first); realtime-js
   * reconnects after a drop.
   */
  realtimeSendBufferBytes: 256 * 1024,
} as const;

/** Limits of the embedded Auth's e-mail links, GoTrue's defaults on hosted Supabase. */
export const backendAuthLimits = {
  /** How long an e-mail link or code (recovery, invite, e-mail change, sign-up) stays valid, in seconds. */
  emailLinkSeconds: 3600,
  /** The shortest time between two e-mails of one kind to one user, in seconds (GoTrue's SMTP max frequency). */
  emailIntervalSeconds: 60,
  /** Largest mailbox file (Auth's e-mails) before it is started afresh (the previous one is kept as `.1`), in bytes. */
  mailboxFileBytes: 1024 * 1024,
  /**
   * Code checks (`/verify`: a code typed with its address, or a link's token) one client
   * address may make in a burst, and, separately, that may be made for one account
   * (e-mail address) from anywhere. Hosted Auth's burst for its verify limit.
   */
  codeCheckBurst: 30,
  /**
   * Code checks earned back per hour after a burst, per address and per account: one every
   * 10 s. Hosted Auth's default verify limit (30 per 5 minutes per address).
   */
  codeChecksPerHour: 360,
  /**
   * Wrong codes typed for one e-mail address before every code outstanding for it is void:
   * even the right one then fails and a new one must be asked for. A guess then wins
   * 5 times in a million per code sent, and at most one code a minute is sent.
   */
  codeWrongTries: 5,
  /**
   * E-mail addresses whose code checks and wrong tries are counted at once (memory is
   * bounded): past it the least recently typed are dropped, and a dropped address's
   * outstanding codes are voided with its count, so a flood of other addresses cannot
   * give a code fresh tries.
   */
  codeTrackedAddresses: 50_000,
  /** How long an MFA challenge may be answered, in seconds (GoTrue's challenge expiry). */
  mfaChallengeSeconds: 300,
  /**
   * An enrolled factor never confirmed with a code, and never challenged, is deleted after
   * this many seconds (GoTrue's factor expiry): an abandoned enrolment leaves nothing behind.
   */
  mfaUnverifiedFactorSeconds: 300,
  /** Factors one user may have, verified or not (GoTrue's maximum). */
  mfaMaxFactors: 10,
  /**
   * Challenges, and separately verifications, one client address may ask for in a burst,
   * then `mfaRequestsPerMinute` a minute: GoTrue's limit on both MFA endpoints.
   */
  mfaRequestBurst: 30,
  mfaRequestsPerMinute: 15,
  /**
   * Codes one factor may be checked with before each further check must wait, from any
   * address. Each check is counted before it runs (a right code then forgets the count),
   * so concurrent guesses cannot share the free ones. A guess is right 3 times in a
   * million (the step before and after count too).
   */
  mfaFreeWrongCodes: 5,
  /** The first wait after the free checks, in milliseconds; it doubles with each further wrong code. */
  mfaFirstDelayMs: 30_000,
  /**
   * The longest wait between two checks of one factor, in milliseconds: a guesser gets
   * about four tries an hour (a right guess about once in ten years of steady trying, and
   * the password is needed first), a person who mistyped waits at most this long.
   */
  mfaMaxDelayMs: 15 * 60_000,
  /** Failed checks of a factor are forgotten after this long without one, in milliseconds. */
  mfaWrongCodeWindowMs: 24 * 3_600_000,
  /*
   * Security keys and passkeys (WebAuthn factors): the largest parts of a browser's answer
   * accepted, each far above what real authenticators send, so a hostile answer costs
   * little to refuse. Their challenges live `mfaChallengeSeconds` and are counted by the
   * limits above like an authenticator app's.
   */
  /** clientDataJSON, in bytes: a browser's is about 150 to 300. */
  webauthnClientDataBytes: 4096,
  /** The attestation object of a registration, in bytes: a `none` or self-attested one with a 4096-bit RSA key and extensions is under 1,500. */
  webauthnAttestationObjectBytes: 16_384,
  /** The authenticator data of a sign-in, in bytes: 37 plus any extensions. */
  webauthnAuthenticatorDataBytes: 4096,
  /** A signature, in bytes: ES256 about 72, RS256 with a 4096-bit key 512. */
  webauthnSignatureBytes: 1024,
  /** A credential id, in bytes: the WebAuthn specification's maximum. */
  webauthnCredentialIdBytes: 1023,
  /** CBOR nesting (maps in maps) and items in one attestation object or key: a COSE key has 5 entries. */
  webauthnCborDepth: 16,
  webauthnCborItems: 2048,
  /** RSA key sizes accepted, in bits: below 2048 is breakable, above 4096 no authenticator makes and costs time to check. */
  webauthnRsaMinBits: 2048,
  webauthnRsaMaxBits: 4096,
  /** Anonymous sign-ins one client address may make in a burst, then this many an hour (GoTrue's default). */
  anonymousSignInsPerHour: 30,
} as const;

export type BackendLimits = ServiceLimits & { -readonly [K in keyof typeof backendLimits]: number };

/** The limits an operator may change without editing code, and the variable for each. */
export const limitVariables = {
  statementTimeoutMs: 'LOCAL_SUPABASE_STATEMENT_TIMEOUT_MS',
  dbQueueLength: 'LOCAL_SUPABASE_DB_QUEUE_LENGTH',
  maxAggregatedRows: 'LOCAL_SUPABASE_MAX_AGGREGATED_ROWS',
  maxPlanCost: 'LOCAL_SUPABASE_MAX_PLAN_COST',
} as const satisfies Partial<Record<keyof BackendLimits, string>>;

export function resolveLimits(env: NodeJS.ProcessEnv = process.env, overrides: Partial<BackendLimits> = {}): BackendLimits {
  const limits: BackendLimits = { ...serviceLimits, ...backendLimits };
  for (const [key, variable] of Object.entries(limitVariables) as Array<[keyof BackendLimits, string]>) {
    const raw = env[variable];
    if (raw === undefined || raw === '') continue;
    if (!/^\d{1,9}$/.test(raw.trim()) || Number(raw) < 1) {
      throw new Error(`${variable} must be a whole number of at least 1, not "${raw}".`);
    }
    limits[key] = Number(raw);
  }
  return { ...limits, ...overrides };
}
