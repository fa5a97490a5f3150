/**
 * Runs sync in a browser tab: the engine (leading when this tab holds the lock), the
 * event sources that drive it (the engine's own reports; the device database: waiting
 * edits from any tab, the stored session and report; the browser: online, offline, the
 * tab shown or hidden, the service worker's background sync; Realtime: the channel
 * joining and its pokes), the status store, and a Background Sync registration when a
 * push waits for the network. What each event does is decided in runtime-machine.ts;
 * this file listens and carries out its commands. Returns what the screens need; no
 * React here.
 */
import type { RealtimeChannel } from '@supabase/supabase-js';
import type { AppDatabase } from '../data/app-database.ts';
import { clearLocalData, unsyncedCount } from '../data/local-data.ts';
import { authStorageKey, backgroundSyncTag, syncLeaderLock } from '../data/device.ts';
import { observeMeta, observeStoredSession, observeSyncCounts } from '../data/observe.ts';
import { replayUnsavedWrites } from '../data/local-writes.ts';
import { exportUnsynced, updateMeta } from '../data/sync-store.ts';
import { guardClosingPage } from '../data/unsaved-writes.ts';
import { syncedTableNames } from '../data/synced-tables.ts';
import { deviceIdOf } from '../data/device-identity.ts';
import type { CycleResult, SyncReport } from './engine.ts';
import { SyncEngine } from './engine.ts';
import type { LockProvider } from './leader.ts';
import { InProcessLocks, webLocks } from './leader.ts';
import type { RuntimeCommand, RuntimeEvent } from './runtime-machine.ts';
import { initialRuntimeState, newest, step } from './runtime-machine.ts';
import type { SessionKeeper } from './session-keeper.ts';
import type { SyncStatusStore } from './status-store.ts';
import { createSyncStatusStore } from './status-store.ts';
import { supabaseTransport } from './supabase-transport.ts';
import type { SyncTransport } from './transport.ts';
import type { DeviceClient } from './device-client.ts';

export type SignOutOutcome = { signedOut: true } | { signedOut: false; unsynced: number };

export type SyncRuntime = {
  status: SyncStatusStore;
  syncNow(): Promise<CycleResult>;
  /**
   * Signs out and clears the device. With edits not yet on the server it does neither
   * and answers how many there are, unless the person chose to discard them; the screen
   * offers "Sync now", "Export" (exportUnsynced) and "Discard".
   */
  signOut(options: { discardUnsynced: boolean }): Promise<SignOutOutcome>;
  /**
   * The server no longer accepts this session (revoked, deleted, expired for good): forget
   * it so the person can sign in again, keeping everything on the device; the edits wait
   * for the person who typed them.
   */
  endSession(): Promise<void>;
  /** Every edit not yet on the server, as a file's text a person can keep. */
  unsyncedEditsText(): Promise<string>;
  stop(): Promise<void>;
};

/** The Realtime side: the token it listens with, and the channel that pokes the engine. */
export type RealtimePokes = {
  /** Gives Realtime the session's access token; resolves once it holds it. */
  authorise(token: string): Promise<void>;
  /** Joins the channel; `joined` on every join (it joins again by itself after an outage), `poked` on every changed row. */
  open(listener: { joined(): void; poked(): void }): void;
  close(): void;
};

type Listenable = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;

/** The browser's side: where its events arrive, and what it is asked. */
export type BrowserSignals = {
  /** Fires 'online' and 'offline'. */
  window?: Listenable;
  /** Fires 'visibilitychange'. */
  document?: Listenable & { readonly visibilityState: DocumentVisibilityState };
  /** Where the service worker's messages arrive. */
  serviceWorker?: Listenable;
  isOnline(): boolean;
  registerBackgroundSync(): void;
};

export type RuntimeParts = {
  db: AppDatabase;
  status: SyncStatusStore;
  transport: SyncTransport;
  locks: LockProvider;
  realtime: RealtimePokes;
  browser: BrowserSignals;
  /** Forgets the stored session on this device only (other devices stay signed in). */
  forgetSession(): Promise<void>;
  random?: () => number;
};

const reportKey = 'sync-report';

export function startSyncRuntime(options: { db: AppDatabase; client: DeviceClient; sessions: SessionKeeper; status?: SyncStatusStore }): SyncRuntime {
  const { db, client, sessions } = options;
  return runSyncRuntime({
    db,
    // The screens may hold the store from before the runtime was loaded.
    status: options.status ?? createSyncStatusStore(globalThis.navigator?.onLine ?? true),
    transport: supabaseTransport(client, sessions, { deviceId: () => deviceIdOf(db) }),
    locks: webLocks() ?? new InProcessLocks(),
    realtime: supabaseRealtime(client),
    browser: pageSignals(),
    forgetSession: async () => {
      await client.auth.signOut({ scope: 'local' }).catch(() => undefined);
    },
  });
}

/** The runtime over any engine transport, Realtime and browser: the app gives it supabase-js and the page, tests their own. */
export function runSyncRuntime(parts: RuntimeParts): SyncRuntime {
  const { db, status, realtime, browser } = parts;
  let state = initialRuntimeState;
  const queue: RuntimeEvent[] = [];
  let stepping = false;

  /** Events are handled one at a time, in order: one an event's commands cause waits for them to finish. */
  function dispatch(event: RuntimeEvent): void {
    queue.push(event);
    if (stepping) return;
    stepping = true;
    try {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const result = step(state, next);
        state = result.state;
        result.commands.forEach(run);
      }
    } finally {
      stepping = false;
    }
  }

  function run(command: RuntimeCommand): void {
    switch (command.do) {
      case 'trigger':
        return engine.trigger(command.reason);
      case 'sync-for-worker':
        return void engine.runOnce('background-sync').then((result) => command.reply(result.ok));
      case 'show':
        return status.setState(command.status);
      case 'save-report': {
        // Shared with the other tabs through the device database; when storage is full they miss one report, no more.
        const saved = () => dispatch({ type: 'report-saved', synced: command.synced });
        return void updateMeta<SyncReport>(db, reportKey, (stored) => ({ ...command.report, lastSyncedAt: newest(stored?.lastSyncedAt ?? null, command.synced) })).then(saved, saved);
      }
      case 'authorise-realtime':
        return void realtime.authorise(command.token).then(() => dispatch({ type: 'realtime-authorised' }));
      case 'open-channel':
        return realtime.open({ joined: () => dispatch({ type: 'channel-joined' }), poked: () => dispatch({ type: 'poked' }) });
      case 'close-channel':
        return realtime.close();
      case 'register-background-sync':
        return browser.registerBackgroundSync();
    }
  }

  const engine = new SyncEngine({
    db,
    transport: parts.transport,
    clock: { now: () => Date.now() },
    timers: { setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle as number) },
    random: parts.random ?? Math.random,
    locks: parts.locks,
    lockName: syncLeaderLock,
    onReport: (report) => dispatch({ type: 'engine-reported', report, browserOnline: browser.isOnline() }),
  });

  const unsubscribers = [
    observeSyncCounts(db, (counts) => dispatch({ type: 'counts-read', counts })),
    // A sign-in (in any tab), and every new token, including the engine's own refreshes,
    // which auth-js does not announce: Realtime must listen with the current one.
    observeStoredSession(db, authStorageKey, (stored) => dispatch(storedSession(stored))),
    observeMeta<SyncReport>(db, reportKey, (report) => dispatch({ type: 'stored-report-read', report })),
    // Closing the page while a save has not committed asks first.
    guardClosingPage(),
  ];

  const onOnline = () => dispatch({ type: 'online' });
  const onOffline = () => dispatch({ type: 'offline' });
  const onVisibility = () => dispatch({ type: browser.document?.visibilityState === 'visible' ? 'tab-visible' : 'tab-hidden' });
  const onWorkerMessage = (event: Event) => {
    const message = event as MessageEvent;
    if ((message.data as { type?: string } | null)?.type !== 'background-sync') return;
    const [port] = message.ports;
    dispatch({ type: 'background-sync', reply: port ? (ok) => port.postMessage({ ok }) : null });
  };
  browser.window?.addEventListener('online', onOnline);
  browser.window?.addEventListener('offline', onOffline);
  browser.document?.addEventListener('visibilitychange', onVisibility);
  browser.serviceWorker?.addEventListener('message', onWorkerMessage);
  // Saves a page closed too soon noted but never committed: applied before anything else;
  // they reach the outbox, which wakes the engine like any edit.
  void replayUnsavedWrites(db).catch(() => undefined);
  engine.start();

  async function stop() {
    browser.window?.removeEventListener('online', onOnline);
    browser.window?.removeEventListener('offline', onOffline);
    browser.document?.removeEventListener('visibilitychange', onVisibility);
    browser.serviceWorker?.removeEventListener('message', onWorkerMessage);
    unsubscribers.forEach((unsubscribe) => unsubscribe());
    dispatch({ type: 'stopping' });
    await engine.stop();
  }

  return {
    status,
    syncNow: () => engine.runOnce('manual'),
    async signOut({ discardUnsynced }) {
      const unsynced = await unsyncedCount(db);
      if (unsynced > 0 && !discardUnsynced) return { signedOut: false, unsynced };
      // The engine pauses while the device is cleared, then waits for the next sign-in.
      await engine.stop();
      await parts.forgetSession();
      await clearLocalData(db, { discardUnsynced });
      engine.start();
      return { signedOut: true };
    },
    endSession: () => parts.forgetSession(),
    unsyncedEditsText: async () => JSON.stringify(await exportUnsynced(db), null, 2),
    stop,
  };
}

/** The stored session's text as an event: no token (or text nobody can read) is signed out; auth-js replaces it on the next sign-in. */
function storedSession(text: string | null): RuntimeEvent {
  try {
    const stored = text ? (JSON.parse(text) as { access_token?: string; user?: { id?: string } }) : null;
    if (stored?.access_token) return { type: 'session-stored', token: stored.access_token, person: stored.user?.id ?? null };
  } catch {
    // unreadable: signed out
  }
  return { type: 'session-cleared' };
}

/** Realtime through supabase-js: a poke for every change of a synced table. */
function supabaseRealtime(client: DeviceClient): RealtimePokes {
  let channel: RealtimeChannel | null = null;
  return {
    authorise: (token) => client.realtime.setAuth(token),
    open(listener) {
      channel = client.channel('sync-pokes');
      for (const table of syncedTableNames) channel.on('postgres_changes', { event: '*', schema: 'public', table }, () => listener.poked());
      channel.subscribe((state) => {
        if (state === 'SUBSCRIBED') listener.joined();
      });
    },
    close() {
      if (channel) void client.removeChannel(channel);
      channel = null;
    },
  };
}

/** This page's window, document and service worker. */
function pageSignals(): BrowserSignals {
  const navigator = globalThis.navigator as Navigator | undefined;
  return {
    window: typeof globalThis.addEventListener === 'function' ? globalThis : undefined,
    document: globalThis.document,
    serviceWorker: navigator?.serviceWorker,
    isOnline: () => navigator?.onLine !== false,
    registerBackgroundSync: () => void registerBackgroundSync(),
  };
}

async function registerBackgroundSync(): Promise<void> {
  const container = (globalThis.navigator as Navigator | undefined)?.serviceWorker;
  if (!container) return;
  // Only after the worker is active: before that Chromium answers "no active Service Worker".
  const registration = (await container.ready) as ServiceWorkerRegistration & {
    sync?: { register(tag: string): Promise<void> };
  };
  await registration.sync?.register(backgroundSyncTag).catch(() => undefined);
}
