import type { FunctionComponent } from 'react';
import { createElement, use } from 'react';
import { loadWithRetry } from '../ui/load-with-retry.ts';

export type LazyScreen<P extends object> = FunctionComponent<P> & {
  /**
   * Starts loading the screen's module now (the app's start calls it for the screen it
   * opens on); settles once it has arrived, or once the first try has failed (the tries
   * go on).
   */
  preload(): Promise<void>;
};

/**
 * A screen loaded on first use: `load` imports its module, `name` is the component it
 * exports. Until it arrives the screen suspends and shows the shell's "Loading..." (see
 * Shell). Once it has arrived (the app's start preloads the screen it opens on) the screen
 * renders at once: React.lazy would suspend on its first render even then, and React holds
 * back content revealed after a suspension for up to 300 ms, which an offline start
 * spent doing nothing.
 */
export function lazyScreen<P extends object, N extends string>(load: () => Promise<Record<N, FunctionComponent<P>>>, name: N): LazyScreen<P> {
  let loaded: FunctionComponent<P> | null = null;
  let loading: Promise<FunctionComponent<P>> | null = null;
  // Whether the first try brought the module: a start that cannot fetch it (offline, before
  // the service worker holds the app) draws at once, while the tries go on behind it.
  let firstTry: Promise<boolean> | null = null;
  const tryLoading = () => {
    const attempt = load();
    firstTry ??= attempt.then(
      () => true,
      () => false,
    );
    return attempt;
  };
  const start = () =>
    (loading ??= loadWithRetry(tryLoading).then((module) => {
      loaded = module[name];
      return loaded;
    }));
  function Screen(props: P) {
    return createElement(loaded ?? use(start()), props);
  }
  Screen.displayName = name;
  // On success it settles once the screen is kept (`loaded` set), so a render right after
  // it does not suspend.
  const preload = async () => {
    const arrived = start();
    if (await firstTry) await arrived;
  };
  return Object.assign(Screen, { preload });
}
