import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectWhen } from '../../../src/app/connect-when.ts';
import { connectWhen } from '../../../src/app/connect-when.ts';

type Status = 'loading' | 'signed-out' | 'signed-in';

/** The app's start as connectWhen sees it: the account's answer, a screen drawn, the page's events, frames painted. */
function start(initial: Status = 'loading') {
  let status = initial;
  const accountListeners = new Set<(state: { status: Status }) => void>();
  const drawnListeners = new Set<() => void>();
  const painted: Array<() => void> = [];
  const target = new EventTarget();
  const counts = { started: 0, stopped: 0 };
  const load = vi.fn();
  const when: ConnectWhen = {
    load,
    account: {
      getState: () => ({ status }),
      subscribe: (listener) => {
        accountListeners.add(listener);
        return () => accountListeners.delete(listener);
      },
    },
    onScreenDrawn: (listener) => {
      drawnListeners.add(listener);
      return () => drawnListeners.delete(listener);
    },
    target,
    whileSignedOut: () => {
      counts.started += 1;
      return () => (counts.stopped += 1);
    },
    afterPaint: (work) => painted.push(work),
    latestMs: 1_000,
  };
  connectWhen(when);
  return {
    load,
    counts,
    answer(next: Status) {
      status = next;
      for (const listener of [...accountListeners]) listener({ status });
    },
    screenDrawn: () => [...drawnListeners].forEach((listener) => listener()),
    paint: () => painted.splice(0).forEach((work) => work()),
    person: (type: 'pointerdown' | 'keydown' | 'focusin' | 'submit') => target.dispatchEvent(new Event(type)),
    listeners: () => ({ account: accountListeners.size, screenDrawn: drawnListeners.size }),
  };
}

describe('when supabase-js and the sync runtime load', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('with nobody signed in, when the person starts signing in, and not before', () => {
    const app = start();
    app.answer('signed-out');
    vi.advanceTimersByTime(60_000);
    expect(app.load).not.toHaveBeenCalled();
    // Meanwhile the login page reads its count of edits waiting from the device.
    expect(app.counts).toEqual({ started: 1, stopped: 0 });
    app.person('focusin');
    app.person('keydown');
    app.person('submit');
    expect(app.load).toHaveBeenCalledTimes(1);
    // Everything it listened to lets go once they load.
    expect(app.counts).toEqual({ started: 1, stopped: 1 });
    expect(app.listeners()).toEqual({ account: 0, screenDrawn: 0 });
  });

  it('when the login form is sent before the device database has said nobody is signed in', () => {
    // The login page takes input while the account is still being read.
    const app = start('loading');
    app.person('pointerdown');
    expect(app.load).toHaveBeenCalledTimes(1);
    app.answer('signed-out');
    vi.advanceTimersByTime(1_000);
    expect(app.load).toHaveBeenCalledTimes(1);
    // Loaded already: the device's count comes with them, not from a watcher of its own.
    expect(app.counts.started).toBe(0);
  });

  it('with someone signed in, after the frame in which the screen has drawn its month, not at a touch', () => {
    const app = start();
    app.answer('signed-in');
    app.person('pointerdown');
    expect(app.load).not.toHaveBeenCalled();
    app.screenDrawn();
    expect(app.load).not.toHaveBeenCalled();
    app.paint();
    expect(app.load).toHaveBeenCalledTimes(1);
    app.screenDrawn();
    app.paint();
    expect(app.load).toHaveBeenCalledTimes(1);
    expect(app.counts.started).toBe(0);
  });

  it('at the latest a second after start when someone is, or may be, signed in', () => {
    const signedIn = start('signed-in');
    vi.advanceTimersByTime(999);
    expect(signedIn.load).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(signedIn.load).toHaveBeenCalledTimes(1);
    // The device database has not answered yet: a screen may need them.
    const unknown = start('loading');
    vi.advanceTimersByTime(1_000);
    expect(unknown.load).toHaveBeenCalledTimes(1);
  });

  it('listens for a sign-in again when the person signs out before they loaded', () => {
    const app = start('signed-in');
    app.answer('signed-out');
    vi.advanceTimersByTime(1_000);
    expect(app.load).not.toHaveBeenCalled();
    app.person('submit');
    expect(app.load).toHaveBeenCalledTimes(1);
  });
});
