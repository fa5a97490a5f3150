/**
 * Session, sign-in and e-mail settings of the embedded Auth: the defaults of
 * src/domain/limits.ts and supabase/local/service-limits.ts, overridden by environment
 * variables where set (documented in the README), and by a test's options last.
 */
import { authLimits } from '../../../src/domain/limits.ts';
import { backendAuthLimits } from '../service-limits.ts';
import type { RelyingParty, WebAuthnLimits } from './webauthn.ts';

export type ThrottleSettings = {
  freeFailures: number;
  firstDelayMs: number;
  maxDelayMs: number;
  addressFailures: number;
  windowMs: number;
};

/** Guarding one-time codes against guessing (see one-time-codes.ts). */
export type CodeSettings = {
  /** Checks one address, and separately one account, may make at once. */
  burst: number;
  /** Checks earned back per hour after a burst. */
  perHour: number;
  /** Wrong codes typed for one address before its outstanding codes are void. */
  wrongTries: number;
  /** E-mail addresses whose tries and checks are counted at once; past it the oldest are dropped. */
  tracked: number;
};

export type MailSettings = {
  /** Where the app lives: e-mail links lead back here unless they name an allowed redirect. */
  siteUrl: string;
  /** Further addresses (prefixes) an e-mail link may redirect to. */
  redirectUrls: string[];
  /** Sign-up confirms the address at once (no confirmation e-mail), as GoTrue's mailer autoconfirm. */
  autoconfirm: boolean;
  /** An e-mail change needs a link from the old address and one from the new (GoTrue's secure e-mail change). */
  secureEmailChange: boolean;
  linkSeconds: number;
  intervalSeconds: number;
  /** The mailbox: the file e-mails are written to, or null to write them to the log instead. */
  mailboxFile: string | null;
};

/** Multi-factor authentication: lifetimes, counts and the guard against guessed codes (mfa-guard.ts). */
export type MfaSettings = {
  challengeSeconds: number;
  unverifiedFactorSeconds: number;
  maxFactors: number;
  requestBurst: number;
  requestsPerMinute: number;
  freeWrongCodes: number;
  firstDelayMs: number;
  maxDelayMs: number;
  wrongCodeWindowMs: number;
  /** Security keys and passkeys may be enrolled and verified (GoTrue's MFA WebAuthn enroll and verify settings; off unless turned on). */
  webauthnEnabled: boolean;
  /** The site WebAuthn credentials belong to: its domain, the name shown, the page origins allowed. */
  relyingParty: RelyingParty;
  webauthn: WebAuthnLimits;
};

export type AuthSettings = {
  accessTokenSeconds: number;
  refreshTokenReuseSeconds: number;
  /** 0 means sessions never end for inactivity. */
  sessionInactivitySeconds: number;
  throttle: ThrottleSettings;
  codes: CodeSettings;
  mail: MailSettings;
  mfa: MfaSettings;
  /** `POST /signup` without an e-mail signs in a new anonymous user (GoTrue's anonymous provider); sign-up must be allowed too. */
  allowAnonymous: boolean;
  /** Anonymous sign-ins one client address may make in a burst, and then per hour. */
  anonymousPerHour: number;
  /** The clock of the throttles (milliseconds); tests move it instead of sleeping. */
  clock?: () => number;
};

export type AuthSettingsOverrides = Partial<Omit<AuthSettings, 'throttle' | 'codes' | 'mail' | 'mfa'>> & {
  throttle?: Partial<ThrottleSettings>;
  codes?: Partial<CodeSettings>;
  mail?: Partial<MailSettings>;
  mfa?: Partial<MfaSettings>;
};

function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number, minimum: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum) {
    throw new Error(`${name} must be a whole number of seconds, at least ${minimum} (got "${raw}").`);
  }
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new Error(`${name} must be true or false, not "${raw}".`);
}

function url(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name]?.trim() || fallback;
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
    return parsed.toString();
  } catch {
    throw new Error(`${name} must be an http(s) address, not "${raw}".`);
  }
}

function list(env: NodeJS.ProcessEnv, name: string): string[] {
  return (env[name] ?? '').split(',').map((item) => item.trim()).filter(Boolean);
}

/**
 * The WebAuthn relying party: LOCAL_SUPABASE_WEBAUTHN_RP_ID, _RP_DISPLAY_NAME and
 * _RP_ORIGINS (as GoTrue's GOTRUE_WEBAUTHN_RP_*), else the site address's host name and
 * origin. A browser accepts an id only when it is the page's host or a domain above it.
 */
function relyingParty(env: NodeJS.ProcessEnv, siteUrl: string): RelyingParty {
  const site = new URL(siteUrl);
  const origins = list(env, 'LOCAL_SUPABASE_WEBAUTHN_RP_ORIGINS').map((raw) => {
    try {
      const parsed = new URL(raw);
      if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.origin !== raw.replace(/\/$/, '')) throw new Error('not an origin');
      return parsed.origin;
    } catch {
      throw new Error(`LOCAL_SUPABASE_WEBAUTHN_RP_ORIGINS must list origins such as https://dashboard.example.com, not "${raw}".`);
    }
  });
  const id = env.LOCAL_SUPABASE_WEBAUTHN_RP_ID?.trim() || site.hostname;
  return {
    id,
    name: env.LOCAL_SUPABASE_WEBAUTHN_RP_DISPLAY_NAME?.trim() || id,
    origins: origins.length > 0 ? origins : [site.origin],
  };
}

/** The mailbox: LOCAL_SUPABASE_MAIL_OUTBOX, `log` for the log, else `mail-outbox.jsonl` in the data folder (when there is one). */
function mailbox(env: NodeJS.ProcessEnv, dataDir: string | undefined): string | null {
  const raw = env.LOCAL_SUPABASE_MAIL_OUTBOX?.trim();
  if (raw === 'log') return null;
  if (raw) return raw;
  return dataDir ? `${dataDir.replace(/\/+$/, '')}/mail-outbox.jsonl` : null;
}

export function authSettingsFromEnv(env: NodeJS.ProcessEnv = process.env, dataDir?: string): AuthSettings {
  const siteUrl = url(env, 'LOCAL_SUPABASE_SITE_URL', 'http://localhost:4173');
  return {
    accessTokenSeconds: seconds(env, 'LOCAL_SUPABASE_JWT_EXPIRY', authLimits.accessTokenSeconds, 1),
    refreshTokenReuseSeconds: seconds(env, 'LOCAL_SUPABASE_REFRESH_TOKEN_REUSE_INTERVAL', authLimits.refreshTokenReuseSeconds, 0),
    sessionInactivitySeconds: seconds(env, 'LOCAL_SUPABASE_SESSION_INACTIVITY_TIMEOUT', authLimits.sessionInactivitySeconds, 0),
    throttle: {
      freeFailures: authLimits.signInFreeFailures,
      firstDelayMs: authLimits.signInFirstDelayMs,
      maxDelayMs: authLimits.signInMaxDelayMs,
      addressFailures: authLimits.signInAddressFailures,
      windowMs: authLimits.signInWindowMs,
    },
    codes: {
      burst: backendAuthLimits.codeCheckBurst,
      perHour: backendAuthLimits.codeChecksPerHour,
      wrongTries: backendAuthLimits.codeWrongTries,
      tracked: backendAuthLimits.codeTrackedAddresses,
    },
    mail: {
      siteUrl,
      redirectUrls: (env.LOCAL_SUPABASE_REDIRECT_URLS ?? '').split(',').map((u) => u.trim()).filter(Boolean),
      autoconfirm: flag(env, 'LOCAL_SUPABASE_MAILER_AUTOCONFIRM', true),
      secureEmailChange: flag(env, 'LOCAL_SUPABASE_SECURE_EMAIL_CHANGE', true),
      linkSeconds: seconds(env, 'LOCAL_SUPABASE_MAILER_OTP_EXP', backendAuthLimits.emailLinkSeconds, 60),
      intervalSeconds: seconds(env, 'LOCAL_SUPABASE_EMAIL_MAX_FREQUENCY', backendAuthLimits.emailIntervalSeconds, 0),
      mailboxFile: mailbox(env, dataDir),
    },
    mfa: {
      challengeSeconds: backendAuthLimits.mfaChallengeSeconds,
      unverifiedFactorSeconds: backendAuthLimits.mfaUnverifiedFactorSeconds,
      maxFactors: backendAuthLimits.mfaMaxFactors,
      requestBurst: backendAuthLimits.mfaRequestBurst,
      requestsPerMinute: backendAuthLimits.mfaRequestsPerMinute,
      freeWrongCodes: backendAuthLimits.mfaFreeWrongCodes,
      firstDelayMs: backendAuthLimits.mfaFirstDelayMs,
      maxDelayMs: backendAuthLimits.mfaMaxDelayMs,
      wrongCodeWindowMs: backendAuthLimits.mfaWrongCodeWindowMs,
      webauthnEnabled: flag(env, 'LOCAL_SUPABASE_MFA_WEBAUTHN', false),
      relyingParty: relyingParty(env, siteUrl),
      webauthn: {
        clientDataBytes: backendAuthLimits.webauthnClientDataBytes,
        attestationObjectBytes: backendAuthLimits.webauthnAttestationObjectBytes,
        authenticatorDataBytes: backendAuthLimits.webauthnAuthenticatorDataBytes,
        signatureBytes: backendAuthLimits.webauthnSignatureBytes,
        credentialIdBytes: backendAuthLimits.webauthnCredentialIdBytes,
        maxDepth: backendAuthLimits.webauthnCborDepth,
        maxItems: backendAuthLimits.webauthnCborItems,
        minBits: backendAuthLimits.webauthnRsaMinBits,
        maxBits: backendAuthLimits.webauthnRsaMaxBits,
      },
    },
    allowAnonymous: flag(env, 'LOCAL_SUPABASE_ANONYMOUS_USERS', false),
    anonymousPerHour: backendAuthLimits.anonymousSignInsPerHour,
  };
}

export function resolveAuthSettings(
  overrides: AuthSettingsOverrides = {},
  env: NodeJS.ProcessEnv = process.env,
  dataDir?: string,
): AuthSettings {
  const base = authSettingsFromEnv(env, dataDir);
  return {
    ...base,
    ...overrides,
    throttle: { ...base.throttle, ...overrides.throttle },
    codes: { ...base.codes, ...overrides.codes },
    mail: { ...base.mail, ...overrides.mail },
    mfa: { ...base.mfa, ...overrides.mfa },
  };
}
