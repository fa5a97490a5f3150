/**
 * The sync runtime's states and every way they change, in one place. Pure: an event and
 * the state it meets give the next state and the commands to carry out; sync-runtime.ts
 * listens to the event sources and carries the commands out. docs/architecture.md ("The
 * sync runtime") names the states and events and says why each transition is so.
 */
import type { SyncCounts } from '../data/observe.ts';
import type { SyncReport, SyncTrigger } from './engine.ts';
import type { SyncStatus } from './status-store.ts';

/**
 * The session stored on the device. `realtime`: whether Realtime was given its token yet.
 * The poke channel joins only once it was: a join carries the token set before it, and
 * realtime-js sends a token again only when it changes, so a channel joined early would
 * stay anonymous and row-level security would hide every change from it.
 */
export type SessionState = { name: 'signed-out' } | { name: 'signed-in'; person: string | null; realtime: 'authorising' | 'authorised' };

export type RuntimeState = {
  /** Until the runtime is stopped (the app closing it). */
  running: boolean;
  /** Whether this tab holds the sync-leader lock and runs the engine (one tab per browser does). */
  role: 'following' | 'leading';
  /** The engine's state as it last reported it. */
  engine: SyncReport['state'];
  session: SessionState;
  /** The Realtime channel whose notices of changed rows poke the engine: open only while leading, signed in and authorised. */
  channel: 'closed' | 'open';
  /** Edits waiting on the device, as last counted: a rise is a local write. */
  pending: number;
  /** The newest sync this device knows of, from this tab's engine or the stored report: "Last synced" never goes back. */
  lastSyncedAt: number | null;
  /** Whether the device's last sync is known yet; until then the bar shows neither a time nor "never". */
  lastSyncedRead: boolean;
};

export const initialRuntimeState: RuntimeState = {
  running: true,
  role: 'following',
  engine: 'stopped',
  session: { name: 'signed-out' },
  channel: 'closed',
  pending: 0,
  lastSyncedAt: null,
  lastSyncedRead: false,
};

/** What happens to the runtime, grouped by where it comes from. */
export type RuntimeEvent =
  // The engine: a report after each change of its state, and this tab's report stored for the other tabs.
  | { type: 'engine-reported'; report: SyncReport; browserOnline: boolean }
  | { type: 'report-saved'; synced: number | null }
  // The device database, as any tab changes it.
  | { type: 'counts-read'; counts: SyncCounts }
  | { type: 'session-stored'; token: string; person: string | null }
  | { type: 'session-cleared' }
  | { type: 'stored-report-read'; report: SyncReport | undefined }
  // The browser and its service worker.
  | { type: 'online' }
  | { type: 'offline' }
  | { type: 'tab-visible' }
  | { type: 'tab-hidden' }
  | { type: 'background-sync'; reply: ((ok: boolean) => void) | null }
  // Realtime.
  | { type: 'realtime-authorised' }
  | { type: 'channel-joined' }
  | { type: 'poked' }
  // The app.
  | { type: 'stopping' };

export type RuntimeCommand =
  | { do: 'trigger'; reason: SyncTrigger }
  | { do: 'sync-for-worker'; reply: (ok: boolean) => void }
  | { do: 'show'; status: Partial<SyncStatus> }
  | { do: 'save-report'; report: SyncReport; synced: number | null }
  | { do: 'authorise-realtime'; token: string }
  | { do: 'open-channel' }
  | { do: 'close-channel' }
  | { do: 'register-background-sync' };

export type Step = { state: RuntimeState; commands: RuntimeCommand[] };

export const newest = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.max(a, b));

/** The next state and what to do, for one event. */
export function step(state: RuntimeState, event: RuntimeEvent): Step {
  const result = transition(state, event);
  return withChannel(result.state, result.commands);
}

function transition(state: RuntimeState, event: RuntimeEvent): Step {
  switch (event.type) {
    case 'engine-reported':
      return engineReported(state, event.report, event.browserOnline);
    case 'report-saved':
      return syncedShown(state, event.synced, []);
    case 'counts-read': {
      const { counts } = event;
      const commands: RuntimeCommand[] = [{ do: 'show', status: { ...counts, countsRead: true } }];
      // More edits waiting than before: this tab or another wrote one.
      if (counts.pending > state.pending) commands.push({ do: 'trigger', reason: 'local-write' });
      return { state: { ...state, pending: counts.pending }, commands };
    }
    case 'session-stored': {
      const signedIn = state.session.name === 'signed-in' ? state.session : null;
      const commands: RuntimeCommand[] = [{ do: 'authorise-realtime', token: event.token }];
      // A cycle for a new person, or for an engine that stopped for want of a session (the
      // same person signed in again); not for a renewed token of the same person: a cycle
      // renews tokens itself, and where tokens live shorter than auth-js's renewal margin
      // every cycle would renew one and so start the next, without end.
      if (event.person !== (signedIn?.person ?? null) || state.engine === 'signed-out') commands.push({ do: 'trigger', reason: 'start' });
      const session: SessionState = { name: 'signed-in', person: event.person, realtime: signedIn?.realtime ?? 'authorising' };
      return { state: { ...state, session }, commands };
    }
    case 'session-cleared':
      return { state: { ...state, session: { name: 'signed-out' } }, commands: [] };
    case 'realtime-authorised':
      // A token given for a session that ended meanwhile opens nothing.
      if (state.session.name !== 'signed-in') return { state, commands: [] };
      return { state: { ...state, session: { ...state.session, realtime: 'authorised' } }, commands: [] };
    case 'stored-report-read':
      return storedReportRead(state, event.report);
    case 'online':
      return { state, commands: [{ do: 'show', status: { online: true } }, { do: 'trigger', reason: 'online' }] };
    case 'offline':
      return { state, commands: [{ do: 'show', status: { online: false } }, ...registerIfWaiting(state)] };
    case 'tab-visible':
      return { state, commands: [{ do: 'trigger', reason: 'visible' }] };
    case 'tab-hidden':
      return { state, commands: registerIfWaiting(state) };
    case 'background-sync':
      // The worker waits for the leading tab's answer before it lets the browser consider the sync done.
      if (event.reply && state.role === 'leading') return { state, commands: [{ do: 'sync-for-worker', reply: event.reply }] };
      return { state, commands: [{ do: 'trigger', reason: 'background-sync' }] };
    case 'channel-joined':
      // Each join (the channel joins again by itself after an outage) runs a cycle: changes
      // made while it was away came with no poke, and waiting edits should not sit out a backoff.
      return { state, commands: state.channel === 'open' ? [{ do: 'trigger', reason: 'reconnected' }] : [] };
    case 'poked':
      return { state, commands: state.channel === 'open' ? [{ do: 'trigger', reason: 'realtime' }] : [] };
    case 'stopping':
      return { state: { ...state, running: false, role: 'following' }, commands: [] };
  }
}

/**
 * This tab's engine reported: the bar shows it at once (through the device database it
 * would wait behind every screen's re-read), except a new "Last synced" time, which shows
 * once it is stored so a page reloaded right after still knows it. The leader stores its
 * report for the other tabs; a page just loaded may report before it read the stored one,
 * and its "never" must not replace the device's last sync.
 */
function engineReported(state: RuntimeState, report: SyncReport, browserOnline: boolean): Step {
  const { leader, ...shared } = { ...report, lastSyncedAt: state.lastSyncedAt };
  const synced = newest(state.lastSyncedAt, report.lastSyncedAt);
  const lastSyncedRead = state.lastSyncedRead || state.lastSyncedAt !== null;
  const next: RuntimeState = { ...state, role: leader ? 'leading' : 'following', engine: report.state, lastSyncedRead };
  const commands: RuntimeCommand[] = [{ do: 'show', status: { ...shared, leader, inFlight: report.state === 'syncing', lastSyncedRead } }];
  const afterward: RuntimeCommand[] = report.state === 'backing-off' && !browserOnline ? registerIfWaiting(next) : [];
  if (leader) return { state: next, commands: [...commands, { do: 'save-report', report: { ...shared, leader }, synced }, ...afterward] };
  if (synced !== state.lastSyncedAt) return syncedShown(next, synced, commands, afterward);
  return { state: next, commands: [...commands, ...afterward] };
}

function syncedShown(state: RuntimeState, synced: number | null, before: RuntimeCommand[], after: RuntimeCommand[] = []): Step {
  // Nothing new: "never" waits for the stored report's read.
  if (synced === null) return { state, commands: [...before, ...after] };
  const lastSyncedAt = newest(state.lastSyncedAt, synced);
  return {
    state: { ...state, lastSyncedAt, lastSyncedRead: true },
    commands: [...before, { do: 'show', status: { lastSyncedAt, lastSyncedRead: true } }, ...after],
  };
}

/** The leading tab shows its own reports as they come (a stored one may be older); any tab learns when the device last synced. */
function storedReportRead(state: RuntimeState, report: SyncReport | undefined): Step {
  if (!report) return { state: { ...state, lastSyncedRead: true }, commands: [{ do: 'show', status: { lastSyncedRead: true } }] };
  const lastSyncedAt = newest(state.lastSyncedAt, report.lastSyncedAt);
  const next = { ...state, lastSyncedAt, lastSyncedRead: true };
  if (state.role === 'leading') return { state: next, commands: [{ do: 'show', status: { lastSyncedAt, lastSyncedRead: true } }] };
  const { leader: _theirs, ...shared } = report;
  return { state: next, commands: [{ do: 'show', status: { ...shared, lastSyncedAt, lastSyncedRead: true } }] };
}

/**
 * Background Sync is for when no open page can push: the device is offline, or the app
 * is hidden or closing. Registered while online it fires the worker at once, and after
 * every failed push it made a loop of pushes that defeated the engine's backoff.
 */
function registerIfWaiting(state: RuntimeState): RuntimeCommand[] {
  return state.pending > 0 ? [{ do: 'register-background-sync' }] : [];
}

/** The poke channel follows the state: open while running, leading, signed in and authorised; closed otherwise. */
function withChannel(state: RuntimeState, commands: RuntimeCommand[]): Step {
  const wanted = state.running && state.role === 'leading' && state.session.name === 'signed-in' && state.session.realtime === 'authorised';
  if (wanted && state.channel === 'closed') return { state: { ...state, channel: 'open' }, commands: [...commands, { do: 'open-channel' }] };
  if (!wanted && state.channel === 'open') return { state: { ...state, channel: 'closed' }, commands: [...commands, { do: 'close-channel' }] };
  return { state, commands };
}
