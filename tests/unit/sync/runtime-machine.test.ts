import { describe, expect, it } from 'vitest';
import type { SyncReport } from '../../../src/sync/engine.ts';
import type { RuntimeCommand, RuntimeEvent, RuntimeState } from '../../../src/sync/runtime-machine.ts';
import { initialRuntimeState, step } from '../../../src/sync/runtime-machine.ts';

/**
 * Every transition of the sync runtime (docs/architecture.md, "The sync runtime"): from a
 * state, an event gives the next state and the commands to carry out. Expected states and
 * commands are written out by hand.
 */
const following: RuntimeState = { ...initialRuntimeState, engine: 'idle', session: { name: 'signed-in', person: 'ann', realtime: 'authorised' } };
const listening: RuntimeState = { ...following, role: 'leading', channel: 'open' };
const signedOut: RuntimeState = { ...initialRuntimeState, role: 'leading', engine: 'signed-out' };
const report = (overrides: Partial<SyncReport>): SyncReport => ({
  state: 'idle',
  leader: true,
  lastSyncedAt: null,
  lastError: null,
  nextAttemptAt: null,
  initialSync: null,
  ...overrides,
});
const reply = () => undefined;

type Case = [string, RuntimeState, RuntimeEvent, RuntimeState, RuntimeCommand[]];

function check(cases: Case[]) {
  it.each(cases)('%s', (_name, before, event, after, commands) => {
    expect(step(before, event)).toEqual({ state: after, commands });
  });
}

describe('the sync runtime: the leader lock (the engine reports it)', () => {
  check([
    [
      'gaining the lock while signed in and authorised opens the poke channel and stores the report',
      following,
      { type: 'engine-reported', report: report({ state: 'idle', leader: true }), browserOnline: true },
      { ...following, role: 'leading', channel: 'open' },
      [
        { do: 'show', status: { state: 'idle', lastSyncedAt: null, lastError: null, nextAttemptAt: null, initialSync: null, leader: true, inFlight: false, lastSyncedRead: false } },
        { do: 'save-report', report: { state: 'idle', lastSyncedAt: null, lastError: null, nextAttemptAt: null, initialSync: null, leader: true }, synced: null },
        { do: 'open-channel' },
      ],
    ],
    [
      'gaining the lock while signed out opens nothing',
      { ...initialRuntimeState },
      { type: 'engine-reported', report: report({ state: 'idle', leader: true }), browserOnline: true },
      { ...initialRuntimeState, role: 'leading', engine: 'idle' },
      [
        { do: 'show', status: { state: 'idle', lastSyncedAt: null, lastError: null, nextAttemptAt: null, initialSync: null, leader: true, inFlight: false, lastSyncedRead: false } },
        { do: 'save-report', report: { state: 'idle', lastSyncedAt: null, lastError: null, nextAttemptAt: null, initialSync: null, leader: true }, synced: null },
      ],
    ],
    [
      'losing the lock closes the channel; a follower stores no report',
      listening,
      { type: 'engine-reported', report: report({ state: 'stopped', leader: false }), browserOnline: true },
      { ...listening, role: 'following', engine: 'stopped', channel: 'closed' },
      [
        { do: 'show', status: { state: 'stopped', lastSyncedAt: null, lastError: null, nextAttemptAt: null, initialSync: null, leader: false, inFlight: false, lastSyncedRead: false } },
        { do: 'close-channel' },
      ],
    ],
    [
      'a cycle under way shows as in flight, the known last sync kept until the new one is stored',
      { ...listening, lastSyncedAt: 500, lastSyncedRead: true },
      { type: 'engine-reported', report: report({ state: 'syncing', lastSyncedAt: 700 }), browserOnline: true },
      { ...listening, engine: 'syncing', lastSyncedAt: 500, lastSyncedRead: true },
      [
        { do: 'show', status: { state: 'syncing', lastSyncedAt: 500, lastError: null, nextAttemptAt: null, initialSync: null, leader: true, inFlight: true, lastSyncedRead: true } },
        { do: 'save-report', report: { state: 'syncing', lastSyncedAt: 500, lastError: null, nextAttemptAt: null, initialSync: null, leader: true }, synced: 700 },
      ],
    ],
    [
      'the stored report saved: its sync time shows',
      { ...listening, lastSyncedAt: 500, lastSyncedRead: true },
      { type: 'report-saved', synced: 700 },
      { ...listening, lastSyncedAt: 700, lastSyncedRead: true },
      [{ do: 'show', status: { lastSyncedAt: 700, lastSyncedRead: true } }],
    ],
    [
      'a saved report older than what the device knows moves nothing back',
      { ...listening, lastSyncedAt: 900, lastSyncedRead: true },
      { type: 'report-saved', synced: 700 },
      { ...listening, lastSyncedAt: 900, lastSyncedRead: true },
      [{ do: 'show', status: { lastSyncedAt: 900, lastSyncedRead: true } }],
    ],
    ['a saved report of a device never synced shows nothing ("never" waits for the stored report)', listening, { type: 'report-saved', synced: null }, listening, []],
    [
      'a tab not leading shows a newer sync time of its engine at once',
      { ...following, lastSyncedAt: 500 },
      { type: 'engine-reported', report: report({ state: 'stopped', leader: false, lastSyncedAt: 800 }), browserOnline: true },
      { ...following, engine: 'stopped', lastSyncedAt: 800, lastSyncedRead: true },
      [
        { do: 'show', status: { state: 'stopped', lastSyncedAt: 500, lastError: null, nextAttemptAt: null, initialSync: null, leader: false, inFlight: false, lastSyncedRead: true } },
        { do: 'show', status: { lastSyncedAt: 800, lastSyncedRead: true } },
      ],
    ],
    [
      'backing off while the browser is offline with edits waiting asks for Background Sync',
      { ...listening, pending: 2 },
      { type: 'engine-reported', report: report({ state: 'backing-off', lastError: 'Cannot reach the server.', nextAttemptAt: 5_000 }), browserOnline: false },
      { ...listening, pending: 2, engine: 'backing-off' },
      [
        { do: 'show', status: { state: 'backing-off', lastSyncedAt: null, lastError: 'Cannot reach the server.', nextAttemptAt: 5_000, initialSync: null, leader: true, inFlight: false, lastSyncedRead: false } },
        { do: 'save-report', report: { state: 'backing-off', lastSyncedAt: null, lastError: 'Cannot reach the server.', nextAttemptAt: 5_000, initialSync: null, leader: true }, synced: null },
        { do: 'register-background-sync' },
      ],
    ],
    [
      'backing off while the browser is online leaves it to the engine (Background Sync would fire at once)',
      { ...listening, pending: 2 },
      { type: 'engine-reported', report: report({ state: 'backing-off' }), browserOnline: true },
      { ...listening, pending: 2, engine: 'backing-off' },
      [
        { do: 'show', status: { state: 'backing-off', lastSyncedAt: null, lastError: null, nextAttemptAt: null, initialSync: null, leader: true, inFlight: false, lastSyncedRead: false } },
        { do: 'save-report', report: { state: 'backing-off', lastSyncedAt: null, lastError: null, nextAttemptAt: null, initialSync: null, leader: true }, synced: null },
      ],
    ],
  ]);
});

describe('the sync runtime: the device database', () => {
  check([
    [
      'more edits waiting than last counted is a local write',
      { ...listening, pending: 1 },
      { type: 'counts-read', counts: { pending: 2, deadLetters: 0, conflicts: 0 } },
      { ...listening, pending: 2 },
      [
        { do: 'show', status: { pending: 2, deadLetters: 0, conflicts: 0, countsRead: true } },
        { do: 'trigger', reason: 'local-write' },
      ],
    ],
    [
      'fewer edits waiting (pushed) starts nothing',
      { ...listening, pending: 2 },
      { type: 'counts-read', counts: { pending: 0, deadLetters: 1, conflicts: 3 } },
      { ...listening, pending: 0 },
      [{ do: 'show', status: { pending: 0, deadLetters: 1, conflicts: 3, countsRead: true } }],
    ],
    [
      'a sign-in gives Realtime the token and starts a cycle; the channel waits for the token',
      signedOut,
      { type: 'session-stored', token: 't1', person: 'ann' },
      { ...signedOut, session: { name: 'signed-in', person: 'ann', realtime: 'authorising' } },
      [
        { do: 'authorise-realtime', token: 't1' },
        { do: 'trigger', reason: 'start' },
      ],
    ],
    [
      'Realtime holding the token opens the channel of the leading tab',
      { ...listening, channel: 'closed', session: { name: 'signed-in', person: 'ann', realtime: 'authorising' } },
      { type: 'realtime-authorised' },
      listening,
      [{ do: 'open-channel' }],
    ],
    [
      'Realtime holding the token in a tab not leading opens nothing',
      { ...following, session: { name: 'signed-in', person: 'ann', realtime: 'authorising' } },
      { type: 'realtime-authorised' },
      following,
      [],
    ],
    ['a token given for a session that ended meanwhile opens nothing', signedOut, { type: 'realtime-authorised' }, signedOut, []],
    [
      "a renewed token of the same person reaches Realtime, keeps the channel and starts no cycle",
      listening,
      { type: 'session-stored', token: 't2', person: 'ann' },
      listening,
      [{ do: 'authorise-realtime', token: 't2' }],
    ],
    [
      'another person signing in starts a cycle for them',
      listening,
      { type: 'session-stored', token: 't3', person: 'bob' },
      { ...listening, session: { name: 'signed-in', person: 'bob', realtime: 'authorised' } },
      [
        { do: 'authorise-realtime', token: 't3' },
        { do: 'trigger', reason: 'start' },
      ],
    ],
    [
      'the same person signing in again after the server ended the session starts the waiting engine',
      { ...listening, engine: 'signed-out' },
      { type: 'session-stored', token: 't4', person: 'ann' },
      { ...listening, engine: 'signed-out' },
      [
        { do: 'authorise-realtime', token: 't4' },
        { do: 'trigger', reason: 'start' },
      ],
    ],
    ['signing out (no stored session) closes the channel', listening, { type: 'session-cleared' }, { ...listening, session: { name: 'signed-out' }, channel: 'closed' }, [{ do: 'close-channel' }]],
    [
      'no stored report: the device has never synced, and the bar may say so',
      following,
      { type: 'stored-report-read', report: undefined },
      { ...following, lastSyncedRead: true },
      [{ do: 'show', status: { lastSyncedRead: true } }],
    ],
    [
      "a tab not leading shows the leader's stored report",
      { ...following, lastSyncedAt: 100 },
      { type: 'stored-report-read', report: report({ state: 'backing-off', lastSyncedAt: 300, lastError: 'busy' }) },
      { ...following, lastSyncedAt: 300, lastSyncedRead: true },
      [{ do: 'show', status: { state: 'backing-off', lastSyncedAt: 300, lastError: 'busy', nextAttemptAt: null, initialSync: null, lastSyncedRead: true } }],
    ],
    [
      'the leading tab takes only the sync time from the stored report, and never an older one',
      { ...listening, lastSyncedAt: 400 },
      { type: 'stored-report-read', report: report({ state: 'syncing', lastSyncedAt: 300 }) },
      { ...listening, lastSyncedAt: 400, lastSyncedRead: true },
      [{ do: 'show', status: { lastSyncedAt: 400, lastSyncedRead: true } }],
    ],
  ]);
});

describe('the sync runtime: the browser and its service worker', () => {
  check([
    [
      'online: shown, and a cycle at once',
      listening,
      { type: 'online' },
      listening,
      [
        { do: 'show', status: { online: true } },
        { do: 'trigger', reason: 'online' },
      ],
    ],
    [
      'offline with edits waiting: shown, and Background Sync asked to push once the network is back',
      { ...listening, pending: 3 },
      { type: 'offline' },
      { ...listening, pending: 3 },
      [{ do: 'show', status: { online: false } }, { do: 'register-background-sync' }],
    ],
    ['offline with nothing waiting: shown only', listening, { type: 'offline' }, listening, [{ do: 'show', status: { online: false } }]],
    ['the tab shown: a cycle', listening, { type: 'tab-visible' }, listening, [{ do: 'trigger', reason: 'visible' }]],
    ['the tab hidden with edits waiting: Background Sync', { ...listening, pending: 1 }, { type: 'tab-hidden' }, { ...listening, pending: 1 }, [{ do: 'register-background-sync' }]],
    ['the tab hidden with nothing waiting: nothing', listening, { type: 'tab-hidden' }, listening, []],
    ['background sync in the leading tab: it syncs and answers the worker', listening, { type: 'background-sync', reply }, listening, [{ do: 'sync-for-worker', reply }]],
    ['background sync in a tab not leading: a trigger (the engine ignores it)', following, { type: 'background-sync', reply }, following, [{ do: 'trigger', reason: 'background-sync' }]],
    ['background sync with nobody waiting for an answer: a trigger', listening, { type: 'background-sync', reply: null }, listening, [{ do: 'trigger', reason: 'background-sync' }]],
  ]);
});

describe('the sync runtime: Realtime', () => {
  check([
    ['a poke (a synced row changed on the server): a cycle', listening, { type: 'poked' }, listening, [{ do: 'trigger', reason: 'realtime' }]],
    ['the channel joined (again, after an outage): a cycle at once', listening, { type: 'channel-joined' }, listening, [{ do: 'trigger', reason: 'reconnected' }]],
    ['a poke that arrives after the channel closed: nothing', following, { type: 'poked' }, following, []],
    ['a join that arrives after the channel closed: nothing', following, { type: 'channel-joined' }, following, []],
  ]);
});

describe('the sync runtime: stopping', () => {
  check([
    ['stopping closes the channel and keeps it closed', listening, { type: 'stopping' }, { ...listening, running: false, role: 'following', channel: 'closed' }, [{ do: 'close-channel' }]],
    [
      'a stopped runtime opens no channel, even for a late lock report',
      { ...following, running: false },
      { type: 'engine-reported', report: report({ state: 'idle', leader: true }), browserOnline: true },
      { ...following, running: false, role: 'leading' },
      [
        { do: 'show', status: { state: 'idle', lastSyncedAt: null, lastError: null, nextAttemptAt: null, initialSync: null, leader: true, inFlight: false, lastSyncedRead: false } },
        { do: 'save-report', report: { state: 'idle', lastSyncedAt: null, lastError: null, nextAttemptAt: null, initialSync: null, leader: true }, synced: null },
      ],
    ],
  ]);
});
