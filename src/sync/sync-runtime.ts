/**
 * Runs sync in a browser tab: the engine (leading when this tab holds the lock), every
 * trigger (local writes seen in the outbox from any tab, online, tab visible, realtime
 * changes, the service worker's background sync, "Sync now"), the status store, and a
 * Background Sync registration when a push waits for the network. Returns what the
 * screens need; no React here.
 */
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import type { AppDatabase } from '../data/app-database.ts';
import { clearLocalData, unsyncedCount } from '../data/local-data.ts';
import { authStorageKey, backgroundSyncTag, syncLeaderLock } from '../data/device.ts';
import { observeMeta, observeStoredSession, observeSyncCounts } from '../data/observe.ts';
import { replayUnsavedWrites } from '../data/local-writes.ts';
import { exportUnsynced, updateMeta } from '../data/sync-store.ts';
import { guardClosingPage } from '../data/unsaved-writes.ts';
import { syncedTableNames } from '../data/synced-tables.ts';
import type { CycleResult, SyncReport } from './engine.ts';
import { SyncEngine } from './engine.ts';
import { InProcessLocks, webLocks } from './leader.ts';
import type { SessionKeeper } from './session-keeper.ts';
import type { SyncStatusStore } from './status-store.ts';
import { createSyncStatusStore } from './status-store.ts';
import { supabaseTransport } from './supabase-transport.ts';
import { deviceIdOf } from '../data/device-identity.ts';

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

const reportKey = 'sync-report';

async function registerBackgroundSync(): Promise<void> {
  const container = (globalThis.navigator as Navigator | undefined)?.serviceWorker;
  if (!container) return;
  // Only after the worker is active: before that Chromium answers "no active Service Worker".
  const registration = (await container.ready) as ServiceWorkerRegistration & {
    sync?: { register(tag: string): Promise<void> };
  };
  await registration.sync?.register(backgroundSyncTag).catch(() => undefined);
}

export function startSyncRuntime(options: { db: AppDatabase; client: SupabaseClient; sessions: SessionKeeper; status?: SyncStatusStore }): SyncRuntime {
  const { db, client, sessions } = options;
  // The screens may hold the store from before the runtime was loaded.
  const status = options.status ?? createSyncStatusStore(globalThis.navigator?.onLine ?? true);
  // Background Sync is for when no open page can push: the device is offline, or the app
  // is hidden or closing. Registering while online fires the worker's sync event at once;
  // registering after every failed push made a loop of pushes tens of milliseconds apart
  // while the backend was down, defeating the engine's backoff.
  const registerIfWaiting = () => {
    if (status.getState().pending > 0) void registerBackgroundSync();
  };
  // The newest sync this device knows of, from this page's engine or the stored report
  // (another tab's, or this tab's before a reload): "Last synced" never goes back.
  let lastSyncedAt: number | null = null;
  const newest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
  let pokes: RealtimeChannel | null = null;
  let lastPending = 0;
  // The person of the stored session: a renewed token of the same person wakes nothing
  // (see the session observer).
  let sessionUser: string | null = null;
  let leading = false;
  // The poke channel joins only once realtime holds the session's token: a join carries
  // the token set before it, and realtime-js re-sends a token only when it changes.
  let tokenReady = false;

  function followLeadership() {
    if (leading && tokenReady && !pokes) {
      pokes = client.channel('sync-pokes');
      for (const table of syncedTableNames) {
        pokes.on('postgres_changes', { event: '*', schema: 'public', table }, () => engine.trigger('realtime'));
      }
      // Each time the channel joins (it joins again by itself after a network or backend
      // outage) a cycle runs: changes made while it was away came with no poke, and
      // edits waiting should not sit out the rest of a backoff of up to a minute.
      pokes.subscribe((state) => {
        if (state === 'SUBSCRIBED') engine.trigger('reconnected');
      });
    } else if ((!leading || !tokenReady) && pokes) {
      void client.removeChannel(pokes);
      pokes = null;
    }
  }

  const engine = new SyncEngine({
    db,
    transport: supabaseTransport(client, sessions, { deviceId: () => deviceIdOf(db) }),
    clock: { now: () => Date.now() },
    timers: { setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: (handle) => clearTimeout(handle as number) },
    random: Math.random,
    locks: webLocks() ?? new InProcessLocks(),
    lockName: syncLeaderLock,
    onReport: (report: SyncReport) => {
      // This tab's own report shows at once (through the device database it would wait
      // behind every screen's re-read after a sync), except a new "Last synced" time: that
      // shows once it is stored, so a page reloaded right after still knows it.
      const { leader, ...shared } = { ...report, lastSyncedAt };
      const synced = newest(lastSyncedAt, report.lastSyncedAt);
      const showSynced = () => {
        if (synced === null) return; // nothing new: "never" waits for the stored report's read
        lastSyncedAt = newest(lastSyncedAt, synced);
        status.setState({ lastSyncedAt, lastSyncedRead: true });
      };
      status.setState({ ...shared, leader, inFlight: report.state === 'syncing', lastSyncedRead: status.getState().lastSyncedRead || lastSyncedAt !== null });
      leading = leader;
      followLeadership();
      // Shared with the other tabs through the device database; when storage is full they
      // miss one report, no more. A page just loaded may report before it has read the
      // stored report: the device's last sync is kept, not overwritten by this page's "never".
      if (leader) {
        void updateMeta<SyncReport>(db, reportKey, (stored) => ({ ...shared, leader, lastSyncedAt: newest(stored?.lastSyncedAt ?? null, synced) })).then(
          showSynced,
          showSynced,
        );
      } else if (synced !== lastSyncedAt) showSynced();
      if (report.state === 'backing-off' && globalThis.navigator?.onLine === false) registerIfWaiting();
    },
  });

  const unsubscribers = [
    observeSyncCounts(db, (counts) => {
      status.setState({ ...counts, countsRead: true });
      if (counts.pending > lastPending) engine.trigger('local-write');
      lastPending = counts.pending;
    }),
    // A sign-in (in any tab) wakes the engine: edits may have waited for it. Realtime gets
    // every new token, including the engine's own refreshes, which auth-js does not
    // announce; without it the channel would stay anonymous and RLS would hide all changes.
    observeStoredSession(db, authStorageKey, (session) => {
      let token: string | null = null;
      let userId: string | null = null;
      try {
        const stored = session ? (JSON.parse(session) as { access_token?: string; user?: { id?: string } }) : null;
        token = stored?.access_token ?? null;
        userId = stored?.user?.id ?? null;
      } catch {
        // Unreadable: treated as signed out; auth-js replaces it on the next sign-in.
      }
      if (!token) {
        sessionUser = null;
        tokenReady = false;
        followLeadership();
        return;
      }
      void client.realtime.setAuth(token).then(() => {
        tokenReady = true;
        followLeadership();
      });
      // A cycle for a new person, or for an engine that stopped for want of a session (the
      // same person signed in again). Not for a renewed token of the same person: a cycle
      // renews tokens itself, and where tokens live shorter than auth-js's renewal margin
      // (90 s) every cycle would renew one and so start the next, without end.
      const newPerson = userId !== sessionUser;
      sessionUser = userId;
      if (newPerson || status.getState().state === 'signed-out') engine.trigger('start');
    }),
    observeMeta<SyncReport>(db, reportKey, (report) => {
      if (!report) return status.setState({ lastSyncedRead: true });
      lastSyncedAt = newest(lastSyncedAt, report.lastSyncedAt);
      // The leading tab shows its own reports as they come (a stored one may be older),
      // but a page just loaded learns from the stored one when the device last synced.
      if (leading) return status.setState({ lastSyncedAt, lastSyncedRead: true });
      const { leader: _ignored, ...shared } = report;
      status.setState({ ...shared, lastSyncedAt, lastSyncedRead: true });
    }),
    // Closing the page while a save has not committed asks first.
    guardClosingPage(),
  ];

  const onOnline = () => {
    status.setState({ online: true });
    engine.trigger('online');
  };
  const onOffline = () => {
    status.setState({ online: false });
    registerIfWaiting();
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') engine.trigger('visible');
    else registerIfWaiting();
  };
  const onWorkerMessage = (event: MessageEvent) => {
    if ((event.data as { type?: string } | null)?.type !== 'background-sync') return;
    const [port] = event.ports;
    // The worker waits for the leading tab's answer before it lets the browser consider the sync done.
    if (!port || !engine.isLeader) return engine.trigger('background-sync');
    void engine.runOnce('background-sync').then((result) => port.postMessage({ ok: result.ok }));
  };
  globalThis.addEventListener?.('online', onOnline);
  globalThis.addEventListener?.('offline', onOffline);
  globalThis.document?.addEventListener('visibilitychange', onVisible);
  globalThis.navigator?.serviceWorker?.addEventListener('message', onWorkerMessage);
  // Saves a page closed too soon noted but never committed: applied before anything else;
  // they reach the outbox, which wakes the engine like any edit.
  void replayUnsavedWrites(db).catch(() => undefined);
  engine.start();

  async function stop() {
    globalThis.removeEventListener?.('online', onOnline);
    globalThis.removeEventListener?.('offline', onOffline);
    globalThis.document?.removeEventListener('visibilitychange', onVisible);
    globalThis.navigator?.serviceWorker?.removeEventListener('message', onWorkerMessage);
    unsubscribers.forEach((unsubscribe) => unsubscribe());
    leading = false;
    followLeadership();
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
      await client.auth.signOut({ scope: 'local' }).catch(() => undefined);
      await clearLocalData(db, { discardUnsynced });
      engine.start();
      return { signedOut: true };
    },
    async endSession() {
      await client.auth.signOut({ scope: 'local' }).catch(() => undefined);
    },
    unsyncedEditsText: async () => JSON.stringify(await exportUnsynced(db), null, 2),
    stop,
  };
}
