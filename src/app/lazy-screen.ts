import type { FunctionComponent, LazyExoticComponent } from 'react';
import { lazy } from 'react';
import { loadWithRetry } from './load-with-retry.ts';

export type LazyScreen<P extends object> = LazyExoticComponent<FunctionComponent<P>> & {
  /** Starts loading the screen's module now (the app's start calls it for the screen it opens on). */
  preload(): void;
};

/**
 * A screen loaded on first use: `load` imports its module, `name` is the component it
 * exports. Until it arrives the screen shows the shell's "Loading..." (see Shell).
 */
export function lazyScreen<P extends object, N extends string>(load: () => Promise<Record<N, FunctionComponent<P>>>, name: N): LazyScreen<P> {
  let loading: Promise<Record<N, FunctionComponent<P>>> | null = null;
  const start = () => (loading ??= loadWithRetry(load));
  const screen = lazy(async () => ({ default: (await start())[name] }));
  return Object.assign(screen, { preload: () => void start() });
}
