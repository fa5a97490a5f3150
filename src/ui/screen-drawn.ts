/**
 * The moment a screen has drawn what it reads from the device (its month, its team): the
 * app's start loads supabase-js and the sync runtime only after it (app/connect-when.ts),
 * so on a slow link they do not share the network and the main thread with the screen's
 * own first drawing. Not the moment the rows are read: a screen shows them a commit or a
 * transition later, or up to 300 ms later when React reveals it after its code arrived.
 */
import { useEffect } from 'react';

const listeners = new Set<() => void>();

/** Calls back each time a screen has drawn what it read; answers how to stop. */
export function onScreenDrawn(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Said by a screen: `drawn` once what it reads from the device is on screen (after that commit). */
export function useScreenDrawn(drawn: boolean): void {
  useEffect(() => {
    if (!drawn) return;
    for (const listener of [...listeners]) listener();
  }, [drawn]);
}
