/**
 * Every limit of the product in one place: what a typed value may be (field limits,
 * which the device applies before queueing an edit and the database's CHECK
 * constraints apply again), and how much one request, batch, session or connection may
 * cost the backend (service limits). The device, the embedded backend and the tests that
 * hold the migrations to these numbers all read this module, so a limit changes here
 * and nowhere else.
 */

/** How much the backend gives one client: sizes, counts and times. */
export const serviceLimits = {
  /** Largest request body the backend reads, in bytes. */
  requestBodyBytes: 1024 * 1024,
  /** Rows one push (push_changes) may carry; the device sends batches of at most this. */
  pushBatchRows: 400,
  /** Rows one pull page may carry. */
  pullPageRows: 1000,
  /** Realtime channels one websocket connection may join (a tab uses one). */
  realtimeChannelsPerConnection: 20,
  /** Realtime connections one client address may hold: a dealership's tablets and desktops share one address. */
  realtimeConnectionsPerAddress: 100,
} as const;

/**
 * Sessions, passwords and sign-in: the embedded backend's defaults, each of which an
 * environment variable can override (see README, "The embedded backend").
 */
export const authLimits = {
  /** Lifetime of an access token, in seconds (LOCAL_SUPABASE_JWT_EXPIRY). */
  accessTokenSeconds: 3600,
  /**
   * How long a refresh token that was already used still yields the session's current
   * token, in seconds: a reply lost on the way or two tabs refreshing at once
   * (LOCAL_SUPABASE_REFRESH_TOKEN_REUSE_INTERVAL).
   */
  refreshTokenReuseSeconds: 10,
  /** A session not refreshed for this long ends, in seconds (LOCAL_SUPABASE_SESSION_INACTIVITY_TIMEOUT). */
  sessionInactivitySeconds: 30 * 24 * 3600,
  /** Shortest password accepted. */
  passwordMinLength: 6,
  /** Longest password accepted: bcrypt reads only the first 72 bytes. */
  passwordMaxBytes: 72,
  /** Longest e-mail address (RFC 5321). */
  emailMaxLength: 254,
  /** Largest user_metadata a user or an admin may store, in bytes of JSON. */
  userMetadataBytes: 4096,
  /** Sign-in failures of one e-mail from one address before each further attempt must wait. */
  signInFreeFailures: 5,
  /** The first wait after the free failures, in milliseconds; it doubles with each further failure. */
  signInFirstDelayMs: 1000,
  /** The longest wait between attempts of one e-mail from one address, in milliseconds. */
  signInMaxDelayMs: 60_000,
  /** Failed sign-ins one address may make in the window before it must wait (a flood, not a dealership). */
  signInAddressFailures: 300,
  /** The window the counts above are kept for, in milliseconds. */
  signInWindowMs: 15 * 60_000,
} as const;
