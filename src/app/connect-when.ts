/**
 * When the app loads supabase-js and the sync runtime (main.tsx). The screens read the
 * device database, so nothing on screen waits for them, and starting them is tens of
 * milliseconds of main thread an offline start would otherwise spend before its grid:
 *
 * - someone signed in: once the screen has drawn what it reads from the device (a month's
 *   rows, a team), after that frame is painted; not when the rows are read, which can come
 *   some hundreds of milliseconds before the screen shows them (ui/screen-drawn.ts);
 * - nobody signed in: when the person starts signing in (a touch, a key, a focus, the form
 *   sent). Filling in the form takes longer than they take to arrive, and the login page
 *   loads no more than it shows; meanwhile `whileSignedOut` gives it what it needs from
 *   the device (the count of edits waiting).
 *
 * Whatever comes first, and at the latest `latestMs` after start unless nobody is signed
 * in (a screen without month rows, or a hidden tab, which paints no frames).
 *
 * The login page takes input before the device database has said whether anyone is
 * signed in, so a person's first touch is listened for from the start, not from the
 * moment the answer is "nobody": a form sent in between would otherwise wait for good.
 */

type Status = 'loading' | 'signed-out' | 'signed-in';

export type ConnectWhen = {
  /** Loads them; called once. */
  load(): void;
  /** The account's state: whether someone is signed in. */
  account: { getState(): { status: Status }; subscribe(listener: (state: { status: Status }) => void): () => void };
  /** Calls back each time a screen has drawn what it reads from the device (ui/screen-drawn.ts); answers how to stop. */
  onScreenDrawn(listener: () => void): () => void;
  /** Where a person's touches, keys, focus and form submits arrive (the document). */
  target: EventTarget;
  /** Starts what the login page reads from the device while nobody is signed in; answers how to stop it. */
  whileSignedOut(): () => void;
  /** Runs `work` once the next frame has been painted. */
  afterPaint(work: () => void): void;
  /** The latest they load when someone is (or may be) signed in, in milliseconds. */
  latestMs: number;
};

/** What shows a person starting to sign in. */
const intents = ['pointerdown', 'keydown', 'focusin', 'submit'] as const;

export function connectWhen(when: ConnectWhen): void {
  let loaded = false;
  const stops: Array<() => void> = [];
  const load = () => {
    if (loaded) return;
    loaded = true;
    for (const stop of stops.splice(0)) stop();
    when.load();
  };

  let listening = false;
  const listen = (on: boolean) => {
    if (on === listening) return;
    listening = on;
    for (const type of intents) {
      if (on) when.target.addEventListener(type, load, { capture: true, passive: true });
      else when.target.removeEventListener(type, load, { capture: true });
    }
  };

  let stopSignedOut: (() => void) | null = null;
  const follow = ({ status }: { status: Status }) => {
    // Signed in, the first screen decides (a touch there is no sign-in).
    listen(status !== 'signed-in');
    if (status === 'signed-out' && !stopSignedOut) stopSignedOut = when.whileSignedOut();
  };

  follow(when.account.getState());
  const timer = setTimeout(() => {
    if (when.account.getState().status !== 'signed-out') load();
  }, when.latestMs);
  stops.push(
    when.onScreenDrawn(() => when.afterPaint(load)),
    when.account.subscribe(follow),
    () => listen(false),
    () => stopSignedOut?.(),
    () => clearTimeout(timer),
  );
}
