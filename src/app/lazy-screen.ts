import type { FunctionComponent, LazyExoticComponent } from 'react';
import { lazy } from 'react';
import { loadWithRetry } from './load-with-retry.ts';

/**
 * A screen loaded on first use: `load` imports its module, `name` is the component it
 * exports. Until it arrives the screen shows the shell's "Loading..." (see Shell).
 */
export function lazyScreen<P extends object, N extends string>(
  load: () => Promise<Record<N, FunctionComponent<P>>>,
  name: N,
): LazyExoticComponent<FunctionComponent<P>> {
  return lazy(async () => ({ default: (await loadWithRetry(load))[name] }));
}
