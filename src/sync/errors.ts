/**
 * How the sync engine reads a failed request: try again later (transient), refresh the
 * session first (auth), or never succeeds as sent (permanent: the edit goes to the
 * dead-letter list). Postgres classes 22 (bad data), 23 (broken rule) and 42501
 * (not allowed) are permanent; so is a malformed or oversized request (400, 413). A 503
 * or 429 is transient, and may say how long to wait (Retry-After).
 */

export type FailureKind = 'transient' | 'auth' | 'permanent';

export type RequestFailure = {
  kind: FailureKind;
  status: number;
  code: string;
  message: string;
  /** How long the server asked the client to wait before trying again (Retry-After), in milliseconds. */
  retryAfterMs?: number;
};

export function classifyFailure(status: number, code: string | undefined): FailureKind {
  const sqlState = code ?? '';
  if (status === 0 || status === 408 || status === 429 || status >= 500) return 'transient';
  if (sqlState === 'PGRST301' || sqlState === 'PGRST303' || (status === 401 && sqlState !== '42501')) return 'auth';
  if (sqlState.startsWith('22') || sqlState.startsWith('23') || sqlState === '42501') return 'permanent';
  // 413: the body is too large as sent; the push splits the batch rather than resend it for ever.
  if (status === 400 || status === 403 || status === 404 || status === 406 || status === 409 || status === 413) return 'permanent';
  return 'transient';
}

/** Thrown to end a sync step early: transient (try later) or auth (refresh, then again). */
export class SyncInterrupted extends Error {
  constructor(readonly failure: RequestFailure) {
    super(failure.message);
  }
}

/**
 * A failure as a person reads it: `text` is a plain sentence for the screen (what
 * happened and what to do), `detail` the technical words (code, status, the server's
 * message) for support, shown at most as secondary text. Every screen turns errors into
 * words through this, so "TypeError: Failed to fetch" and the like never reach a person.
 * The sentences are listed in docs/screens.md.
 */
export type ReadableError = { text: string; detail: string | null };

export const errorSentences = {
  unreachable: 'Cannot reach the server. Check the connection and try again; figures typed on this device stay on it until they are sent.',
  timeout: 'The server took too long to answer. Try again in a moment.',
  signedOut: 'Your session has ended. Sign in again to continue.',
  forbidden: 'You do not have permission to do this. An administrator can give you access.',
  busy: 'The server is busy. Try again in a moment.',
  serverFault: 'The server could not answer. Try again later.',
  duplicate: 'This conflicts with an entry that already exists.',
  badValue: 'The server refused a value as invalid. Check what was typed.',
  brokenRule: 'The server refused this because it breaks one of its rules.',
  notFound: 'The server does not know this item; it may have been removed. Reload the page.',
  storageFull: 'This device is out of storage space, so the change was not saved. Free up space, then try again.',
  device: 'This device could not read or save its data. Reload the page and try again.',
  unknown: 'Something went wrong. Try again; if it keeps happening, reload the page.',
} as const;

type Described = { name: string; message: string; status: number; code: string };

/** The fields any failure shape may carry: an Error, supabase-js's error objects, a RequestFailure, a plain string. */
function describe(error: unknown): Described {
  if (error instanceof SyncInterrupted) return describe(error.failure);
  if (typeof error === 'string') return { name: '', message: error, status: 0, code: '' };
  if (!error || typeof error !== 'object') return { name: '', message: String(error ?? ''), status: 0, code: '' };
  const fields = error as { name?: unknown; message?: unknown; status?: unknown; code?: unknown; context?: unknown };
  const context = fields.context as { status?: unknown } | undefined;
  const status = typeof fields.status === 'number' ? fields.status : typeof context?.status === 'number' ? context.status : 0;
  return {
    name: typeof fields.name === 'string' ? fields.name : '',
    message: typeof fields.message === 'string' ? fields.message : '',
    status,
    code: typeof fields.code === 'string' || typeof fields.code === 'number' ? String(fields.code) : '',
  };
}

// The words browsers and runtimes use when a request never got an answer (Chromium, Firefox, Safari, Node).
const networkWords = /failed to fetch|networkerror|load failed|fetch failed|network request failed|failed to send a request|econnrefused|err_internet_disconnected|err_connection/i;
const timeoutWords = /timeouterror|timed out|aborterror|the operation was aborted|signal is aborted/i;
// The local database's (IndexedDB, Dexie) failures: the device, not the server, is at fault.
const deviceNames = /^(QuotaExceeded|DatabaseClosed|OpenFailed|Dexie\w*|InvalidState|InvalidAccess|ReadOnly|Upgrade|Version|DataClone|Missing\w*|Schema|Constraint)Error$/;
const authWords = /jwt expired|invalid jwt|not authenticated|auth session missing|refresh token/i;

/**
 * A sentence the server wrote for people (our own functions' refusals, the admin API's
 * answers) starts with a capital and ends with a full stop; the database's own messages
 * ("duplicate key value violates...") and runtime errors ("TypeError: ...") do not.
 */
function isServerSentence(message: string): boolean {
  return /^[A-Z][^\n]{2,300}[.!]$/.test(message) && !/^[A-Za-z]*Error\b/.test(message) && !networkWords.test(message) && !timeoutWords.test(message);
}

/** The admin API's answers that the product's error catalogue words exactly so: shown as they are. */
const catalogueTexts = new Set(['Not authenticated', 'Unauthorized: Admin access required']);

function sentenceFor({ name, message, status, code }: Described): string {
  const said = `${name} ${message}`;
  if (timeoutWords.test(said) || status === 408 || status === 504) return errorSentences.timeout;
  if (networkWords.test(said) || name === 'FunctionsFetchError' || name === 'AuthRetryableFetchError') return errorSentences.unreachable;
  if (catalogueTexts.has(message)) return message;
  if (code === 'PGRST301' || code === 'PGRST303' || status === 401 || authWords.test(message) || name === 'AuthSessionMissingError') return errorSentences.signedOut;
  if (name === 'QuotaExceededError') return errorSentences.storageFull;
  if (deviceNames.test(name)) return errorSentences.device;
  if (isServerSentence(message)) return message;
  if (code === '42501' || status === 403) return errorSentences.forbidden;
  if (status === 429 || status === 503) return errorSentences.busy;
  if (code === '23505') return errorSentences.duplicate;
  if (code.startsWith('22')) return errorSentences.badValue;
  if (code.startsWith('23')) return errorSentences.brokenRule;
  if (code === 'PGRST116' || status === 404) return errorSentences.notFound;
  if (status >= 500) return errorSentences.serverFault;
  // The admin API's own wording for a status it gave no reason for.
  if (/^API call failed with status \d+$/.test(message)) return message;
  return errorSentences.unknown;
}

export function readableError(error: unknown): ReadableError {
  const described = describe(error);
  const text = sentenceFor(described);
  const parts = [described.code && `code ${described.code}`, described.status ? `status ${described.status}` : '', described.message].filter(Boolean);
  const detail = parts.join(', ');
  return { text, detail: detail && detail !== text ? detail : null };
}

/** Only the sentence, for screens that show a message and no detail. */
export const errorText = (error: unknown): string => readableError(error).text;

/** A server's refusal of a read, with its code and status kept so `readableError` can name it. */
export class ServerError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ServerError';
  }
}
