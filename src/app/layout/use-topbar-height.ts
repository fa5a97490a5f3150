import type { RefObject } from 'react';
import { useLayoutEffect } from 'react';

/**
 * Keeps the CSS variable --topbar-height equal to the top bar's height. On wide screens
 * the bar is fixed above the content, which starts below it, and the page's scroll
 * padding keeps anything scrolled to (a quick jump, a focused input) out from under it.
 * Measured before the first paint, so the content does not move once shown: a resize
 * observer reports an element's first size in the frame that lays it out, before that
 * frame is painted (measuring here at once would make the browser lay out the whole page
 * inside React's commit, in the same long task).
 */
export function useTopbarHeight(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    const root = document.documentElement;
    const apply = () => root.style.setProperty('--topbar-height', `${Math.ceil(bar.getBoundingClientRect().height)}px`);
    const observer = new ResizeObserver(apply);
    observer.observe(bar);
    return () => observer.disconnect();
  }, [ref]);
}
