/**
 * Keeps the sync engine's session usable without auth-js's refresh path, which suits an
 * interactive app but not an offline device: offline it retries a refresh for up to
 * 30 s, then refuses to try the same refresh token again for 60 s, so a device that
 * reconnects could not push for a minute. Here a refresh is one request with a short
 * timeout, made under the same cross-tab lock auth-js takes (so the two never spend one
 * refresh token twice), and the new session is stored where auth-js reads it.
 */
import type { AsyncStorage } from '../data/auth-storage.ts';
import type { SessionState } from './transport.ts';

type StoredSession = { access_token?: string; refresh_token?: string; expires_at?: number; user?: { id?: string } };

export type SessionKeeperOptions = {
  supabaseUrl: string;
  anonKey: string;
  storage: Pick<AsyncStorage, 'getItem' | 'setItem'>;
  storageKey: string;
  now: () => number;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Runs `work` under a named lock shared with auth-js (navigator.locks in browsers). */
  lock?: <T>(name: string, work: () => Promise<T>) => Promise<T>;
};

export type SessionKeeper = {
  /** The stored session, refreshed first when its access token has expired or is about to. */
  current(): Promise<SessionState>;
  /** Refreshes whatever the stored access token says (the server just refused it). */
  refresh(): Promise<SessionState>;
  /** The stored access token and its user as they are now (after current() refreshed them if needed). */
  credentials(): Promise<{ token: string; userId: string } | null>;
};

const refreshMarginMs = 30_000;

export function browserLock<T>(name: string, work: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  return locks ? (locks.request(name, work) as Promise<T>) : work();
}

export function sessionKeeper(options: SessionKeeperOptions): SessionKeeper {
  const doFetch = options.fetch ?? fetch;
  const lock = options.lock ?? browserLock;

  async function read(): Promise<StoredSession | null> {
    const text = await options.storage.getItem(options.storageKey);
    if (!text) return null;
    try {
      return JSON.parse(text) as StoredSession;
    } catch {
      return null;
    }
  }

  const signedIn = (session: StoredSession): SessionState =>
    session.user?.id ? { status: 'signed-in', userId: session.user.id } : { status: 'signed-out' };

  async function refreshStored(force: boolean): Promise<SessionState> {
    return lock(`lock:${options.storageKey}`, async () => {
      // Read again inside the lock: another tab (or auth-js) may have refreshed already.
      const session = await read();
      if (!session?.refresh_token) return { status: 'signed-out' } as const;
      if (!force && (session.expires_at ?? 0) * 1000 > options.now() + refreshMarginMs) return signedIn(session);
      let response: Response;
      try {
        response = await doFetch(`${options.supabaseUrl.replace(/\/$/, '')}/auth/v1/token?grant_type=refresh_token`, {
          method: 'POST',
          headers: { apikey: options.anonKey, 'Content-Type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01' },
          body: JSON.stringify({ refresh_token: session.refresh_token }),
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
      } catch (error) {
        return { status: 'unreachable', message: error instanceof Error ? error.message : String(error) } as const;
      }
      if (response.status >= 500 || response.status === 429 || response.status === 408) {
        return { status: 'unreachable', message: `Auth answered ${response.status}` } as const;
      }
      if (!response.ok) return { status: 'signed-out' } as const; // revoked or unknown: sign in again
      const fresh = (await response.json()) as StoredSession & { expires_in?: number };
      if (!fresh.expires_at && fresh.expires_in) fresh.expires_at = Math.floor(options.now() / 1000) + fresh.expires_in;
      await options.storage.setItem(options.storageKey, JSON.stringify(fresh));
      return signedIn(fresh);
    });
  }

  return {
    async current() {
      const session = await read();
      if (!session?.refresh_token) return { status: 'signed-out' };
      if ((session.expires_at ?? 0) * 1000 > options.now() + refreshMarginMs) return signedIn(session);
      return refreshStored(false);
    },
    refresh: () => refreshStored(true),
    async credentials() {
      const session = await read();
      return session?.access_token && session.user?.id ? { token: session.access_token, userId: session.user.id } : null;
    },
  };
}
