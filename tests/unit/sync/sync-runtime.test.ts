// Live queries (the runtime's view of the device database) watch the global IndexedDB, as in a browser.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppDatabase } from '../../../src/data/app-database.ts';
import { authStorageKey } from '../../../src/data/device.ts';
import { saveRows } from '../../../src/data/local-writes.ts';
import type { Row } from '../../../src/data/synced-tables.ts';
import { InProcessLocks } from '../../../src/sync/leader.ts';
import type { BrowserSignals, RealtimePokes, SyncRuntime } from '../../../src/sync/sync-runtime.ts';
import { runSyncRuntime } from '../../../src/sync/sync-runtime.ts';
import { createSyncStatusStore } from '../../../src/sync/status-store.ts';
import type { PullManyOutcome, PushOutcome, SessionState, SyncTransport } from '../../../src/sync/transport.ts';

/**
 * The sync runtime below the browser: its real engine on a device database, driven by
 * each of its event sources as the browser tests drive it (the network dropping and
 * returning, the tab shown, a Realtime poke, a token renewed, the leader lock passing to
 * another tab, signing out), on vitest's fake clock. The server is a script; Realtime and
 * the browser are stand-ins that record what they were asked.
 */

// IndexedDB (fake-indexeddb) schedules its work with setImmediate, which stays real; Dexie's
// live queries run on zero-delay timers, which the fake clock runs when they fall due. (The
// fake clock moves a zero-delay timer set during an asynchronous advance 1 ms on, so the
// due ones are run synchronously here.)
const realTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Lets the device database, its live queries and a cycle finish, without moving the clock.
 * Counted in turns of the event loop, not in time: on the fake clock nothing else moves,
 * and a busy machine makes each turn slower, not the work more.
 */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 300; turn += 1) {
    vi.advanceTimersByTime(0);
    await realTurn();
  }
}

/** Moves the fake clock, running what falls due, then lets what it started finish. */
async function advance(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  await settle();
}

/** A server that answers as the script says; each cycle starts by asking for the session, so `cycles` counts them. */
function scriptedServer(db: AppDatabase) {
  const server = { cycles: 0, failing: false, refuseTokenOnce: false, refreshes: 0, pushed: [] as Row[] };
  const stored = async (): Promise<SessionState> => {
    const text = (await db.authStorage.get(authStorageKey))?.value;
    const person = text ? (JSON.parse(text) as { user?: { id?: string } }).user?.id : undefined;
    return person ? { status: 'signed-in', userId: person } : { status: 'signed-out' };
  };
  const transport: SyncTransport = {
    session: async () => {
      server.cycles += 1;
      return stored();
    },
    // The session keeper stores the renewed session where auth-js keeps it.
    refreshSession: async () => {
      server.refreshes += 1;
      await signIn(db, 'u1', `renewed-${server.refreshes}`);
      return stored();
    },
    push: async (_table, rows): Promise<PushOutcome> => {
      if (server.failing) return { ok: false, kind: 'transient', status: 503, code: '', message: 'Service Unavailable' };
      server.pushed.push(...rows);
      return { ok: true, rows, before: [] };
    },
    pull: async () => ({ ok: true, page: { rows: [], cursor: 'c', hasMore: false } }),
    pullMany: async (requests): Promise<PullManyOutcome> => {
      if (server.refuseTokenOnce) {
        server.refuseTokenOnce = false;
        return { ok: false, kind: 'auth', status: 401, code: 'PGRST301', message: 'JWT expired' };
      }
      if (server.failing) return { ok: false, kind: 'transient', status: 503, code: '', message: 'Service Unavailable' };
      return { ok: true, pages: requests.map(({ table }) => ({ table, rows: [], cursor: 'c', hasMore: false })) };
    },
  };
  return { server, transport };
}

function signIn(db: AppDatabase, person: string, token: string): Promise<string> {
  return db.authStorage.put({ key: authStorageKey, value: JSON.stringify({ access_token: token, refresh_token: 'r', user: { id: person } }) });
}

/** Realtime as the runtime sees it: the tokens it was given and whether its poke channel is joined. */
function standInRealtime() {
  const realtime = {
    tokens: [] as string[],
    opened: 0,
    closed: 0,
    listener: null as { joined(): void; poked(): void } | null,
  };
  const pokes: RealtimePokes = {
    authorise: async (token) => void realtime.tokens.push(token),
    open(listener) {
      realtime.opened += 1;
      realtime.listener = listener;
    },
    close() {
      realtime.closed += 1;
      realtime.listener = null;
    },
  };
  return { realtime, pokes };
}

/** The page's window, document and service worker as plain event targets the test fires. */
function standInBrowser() {
  const page = {
    online: true,
    registrations: 0,
    window: new EventTarget(),
    document: Object.assign(new EventTarget(), { visibilityState: 'visible' as DocumentVisibilityState }),
    serviceWorker: new EventTarget(),
  };
  const signals: BrowserSignals = {
    window: page.window,
    document: page.document,
    serviceWorker: page.serviceWorker,
    isOnline: () => page.online,
    registerBackgroundSync: () => void (page.registrations += 1),
  };
  const goOffline = () => {
    page.online = false;
    page.window.dispatchEvent(new Event('offline'));
  };
  const goOnline = () => {
    page.online = true;
    page.window.dispatchEvent(new Event('online'));
  };
  const showTab = (visibility: DocumentVisibilityState) => {
    page.document.visibilityState = visibility;
    page.document.dispatchEvent(new Event('visibilitychange'));
  };
  return { page, signals, goOffline, goOnline, showTab };
}

const edit = (db: AppDatabase, sales: number) =>
  saveRows(db, [{ table: 'yearly_financial_inputs', row: { store_id: 's1', year: 2031, month: 1, sales } }], { userId: 'u1', now: Date.now() });

let databases = 0;

describe('the sync runtime, driven by its event sources', () => {
  let db: AppDatabase;
  let runtimes: SyncRuntime[];

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: new Date('2031-03-02T09:00:00Z') });
    databases += 1;
    db = new AppDatabase(`sync-runtime-${databases}`);
    runtimes = [];
  });
  afterEach(async () => {
    for (const runtime of runtimes) await runtime.stop();
    db.close();
    vi.useRealTimers();
  });

  /** One tab's runtime on the shared device database; tabs share `locks` as one browser's do. */
  function openTab(locks = new InProcessLocks()) {
    const { server, transport } = scriptedServer(db);
    const { realtime, pokes } = standInRealtime();
    const browser = standInBrowser();
    const status = createSyncStatusStore(true);
    const runtime = runSyncRuntime({
      db,
      status,
      transport,
      locks,
      realtime: pokes,
      browser: browser.signals,
      forgetSession: () => db.authStorage.delete(authStorageKey),
      random: () => 0.5,
    });
    runtimes.push(runtime);
    return { runtime, status, server, realtime, browser };
  }

  it('a tab signed in takes the lock, syncs, and joins the poke channel once Realtime holds its token', async () => {
    await signIn(db, 'u1', 't1');
    const { status, server, realtime } = openTab();
    await settle();
    expect(status.getState()).toMatchObject({ leader: true, state: 'idle', countsRead: true, lastSyncedRead: true, lastSyncedAt: Date.now() });
    expect(server.cycles).toBeGreaterThanOrEqual(1);
    expect(realtime.tokens).toEqual(['t1']);
    expect(realtime.opened).toBe(1);
    expect(realtime.listener).not.toBeNull();
  });

  it('offline: edits wait and Background Sync is asked for; online again: they go at once, whatever the backoff', async () => {
    await signIn(db, 'u1', 't1');
    const { status, server, browser } = openTab();
    await settle();
    server.failing = true;
    await advance(60_000); // the idle minute's cycle fails: the engine backs off
    expect(status.getState().state).toBe('backing-off');
    await edit(db, 120);
    await settle();
    const cycles = server.cycles;
    await advance(0);
    expect(server.cycles).toBe(cycles); // the local write waits out the backoff
    expect(browser.page.registrations).toBe(0); // online, the page itself will push

    browser.goOffline();
    await settle();
    expect(status.getState()).toMatchObject({ online: false, pending: 1 });
    expect(browser.page.registrations).toBe(1);
    // The retry fails while offline: Background Sync is asked for again.
    await advance((status.getState().nextAttemptAt ?? 0) - Date.now());
    expect(server.cycles).toBe(cycles + 1);
    expect(browser.page.registrations).toBe(2);

    server.failing = false;
    browser.goOnline();
    await advance(0);
    expect(server.cycles).toBe(cycles + 2);
    expect(server.pushed).toEqual([{ store_id: 's1', year: 2031, month: 1, sales: 120 }]);
    expect(status.getState()).toMatchObject({ online: true, pending: 0, state: 'idle' });
  });

  it('offline with nothing waiting asks for no Background Sync', async () => {
    await signIn(db, 'u1', 't1');
    const { browser } = openTab();
    await settle();
    browser.goOffline();
    await settle();
    expect(browser.page.registrations).toBe(0);
  });

  it('a local write pushes once typing pauses', async () => {
    await signIn(db, 'u1', 't1');
    const { server } = openTab();
    await settle();
    const cycles = server.cycles;
    await edit(db, 130);
    await settle();
    expect(server.cycles).toBe(cycles);
    await advance(400);
    expect(server.cycles).toBe(cycles + 1);
    expect(server.pushed).toEqual([{ store_id: 's1', year: 2031, month: 1, sales: 130 }]);
  });

  it('the tab shown runs a cycle; hidden with an edit waiting, Background Sync is asked for', async () => {
    await signIn(db, 'u1', 't1');
    const { server, browser } = openTab();
    await settle();
    const cycles = server.cycles;
    browser.showTab('visible');
    await advance(0);
    expect(server.cycles).toBe(cycles + 1);

    browser.showTab('hidden');
    await settle();
    expect(browser.page.registrations).toBe(0);
    await edit(db, 140);
    await settle();
    browser.showTab('hidden');
    await settle();
    expect(browser.page.registrations).toBe(1);
  });

  it('a Realtime poke runs a cycle; the channel joining again after an outage runs one at once, even in a backoff', async () => {
    await signIn(db, 'u1', 't1');
    const { status, server, realtime } = openTab();
    await settle();
    const cycles = server.cycles;
    realtime.listener?.poked();
    await advance(0);
    expect(server.cycles).toBe(cycles + 1);

    server.failing = true;
    realtime.listener?.poked();
    await advance(0);
    expect(status.getState().state).toBe('backing-off');
    realtime.listener?.poked();
    await advance(0);
    expect(server.cycles).toBe(cycles + 2); // a poke waits out the backoff
    server.failing = false;
    realtime.listener?.joined();
    await advance(0);
    expect(server.cycles).toBe(cycles + 3);
    expect(status.getState().state).toBe('idle');
  });

  it('an expired token is renewed by the cycle; Realtime gets the new one, the channel stays, and no cycle follows', async () => {
    await signIn(db, 'u1', 't1');
    const { status, server, realtime } = openTab();
    await settle();
    const cycles = server.cycles;
    server.refuseTokenOnce = true;
    realtime.listener?.poked();
    await advance(0);
    expect(server.refreshes).toBe(1);
    expect(status.getState()).toMatchObject({ state: 'idle', lastError: null });
    expect(realtime.tokens).toEqual(['t1', 'renewed-1']);
    expect(realtime).toMatchObject({ opened: 1, closed: 0 });
    await advance(1_000);
    expect(server.cycles).toBe(cycles + 1);
  });

  it('another person signing in starts a cycle for them', async () => {
    await signIn(db, 'u1', 't1');
    const { server, realtime } = openTab();
    await settle();
    const cycles = server.cycles;
    await signIn(db, 'u2', 't9');
    await advance(0);
    expect(server.cycles).toBe(cycles + 1);
    expect(realtime.tokens).toEqual(['t1', 't9']);
  });

  it('the leader lock passes to the next tab when the leading one stops: its channel closes, the other joins', async () => {
    await signIn(db, 'u1', 't1');
    const locks = new InProcessLocks();
    const first = openTab(locks);
    await settle();
    const second = openTab(locks);
    await settle();
    expect(first.status.getState().leader).toBe(true);
    expect(second.status.getState().leader).toBe(false);
    expect(second.realtime.opened).toBe(0);
    // A tab not leading does not sync: its triggers reach the leader through the device database.
    const secondCycles = second.server.cycles;
    second.browser.goOnline();
    await advance(0);
    expect(second.server.cycles).toBe(secondCycles);

    await first.runtime.stop();
    await settle();
    expect(first.realtime).toMatchObject({ opened: 1, closed: 1 });
    expect(second.status.getState().leader).toBe(true);
    expect(second.realtime.opened).toBe(1);
    expect(second.server.cycles).toBeGreaterThan(secondCycles);
  });

  it('the service worker asks the leading tab to sync, and gets its answer', async () => {
    await signIn(db, 'u1', 't1');
    const { server, browser } = openTab();
    await settle();
    await edit(db, 150);
    const channel = new MessageChannel();
    const answered = new Promise((resolve) => channel.port2.addEventListener('message', (event) => resolve(event.data), { once: true }));
    channel.port2.start();
    browser.page.serviceWorker.dispatchEvent(new MessageEvent('message', { data: { type: 'background-sync' }, ports: [channel.port1] }));
    await settle();
    await expect(answered).resolves.toEqual({ ok: true });
    expect(server.pushed).toEqual([{ store_id: 's1', year: 2031, month: 1, sales: 150 }]);
    channel.port1.close();
  });

  it('signing out with an edit waiting is refused; discarding signs out, closes the channel and waits for the next sign-in', async () => {
    await signIn(db, 'u1', 't1');
    const { runtime, status, server, realtime } = openTab();
    await settle();
    await edit(db, 160);
    await settle();
    expect(await runtime.signOut({ discardUnsynced: false })).toEqual({ signedOut: false, unsynced: 1 });
    expect(await db.outbox.count()).toBe(1);

    expect(await runtime.signOut({ discardUnsynced: true })).toEqual({ signedOut: true });
    await settle();
    expect(await db.outbox.count()).toBe(0);
    expect(await db.authStorage.count()).toBe(0);
    expect(realtime.closed).toBe(1);
    expect(realtime.listener).toBeNull();
    expect(status.getState()).toMatchObject({ leader: true, state: 'signed-out' });
    expect(server.pushed).toEqual([]);

    const cycles = server.cycles;
    await signIn(db, 'u1', 't2');
    await advance(0);
    expect(server.cycles).toBe(cycles + 1);
    expect(status.getState().state).toBe('idle');
    expect(realtime.opened).toBe(2);
  });

  it('once stopped, no event source reaches the engine', async () => {
    await signIn(db, 'u1', 't1');
    const { runtime, server, realtime, browser } = openTab();
    await settle();
    await runtime.stop();
    const cycles = server.cycles;
    browser.goOnline();
    browser.showTab('visible');
    await edit(db, 170);
    await advance(60_000);
    expect(server.cycles).toBe(cycles);
    expect(realtime.listener).toBeNull();
  });
});
