/**
 * A notice fixed at the bottom of the screen (a goal alert) must never hide the input a
 * person is typing in: while it shows, the page keeps room below its last input for the
 * notice, and an input that gets focus under it is scrolled up to just above it.
 */

export type Rect = { top: number; bottom: number; left: number; right: number };

/** How far to scroll down so `target` ends `gap` px above `cover`; 0 when the cover (with its gap) does not reach it. */
export function scrollToUncover(target: Rect, cover: Rect, gap: number): number {
  const reaches = target.left < cover.right && cover.left < target.right && target.top < cover.bottom && cover.top - gap < target.bottom;
  return reaches ? target.bottom - (cover.top - gap) : 0;
}

/**
 * While `notice` is on screen: the space it takes is reserved at the page's bottom (the
 * CSS variable --notice-space, read by the stylesheet), and the focused input, now and on
 * every focus change or resize, is kept clear of it. Returns the function that stops.
 */
export function keepInputsClearOf(notice: HTMLElement, gap = 8): () => void {
  const root = document.documentElement;
  const keepClear = () => {
    const cover = notice.getBoundingClientRect();
    root.style.setProperty('--notice-space', `${Math.ceil(window.innerHeight - cover.top + gap)}px`);
    const focused = document.activeElement;
    if (!(focused instanceof HTMLInputElement) || notice.contains(focused)) return;
    const by = scrollToUncover(focused.getBoundingClientRect(), cover, gap);
    if (by > 0) window.scrollBy({ top: by, behavior: 'instant' });
  };
  keepClear();
  document.addEventListener('focusin', keepClear);
  window.addEventListener('resize', keepClear);
  return () => {
    document.removeEventListener('focusin', keepClear);
    window.removeEventListener('resize', keepClear);
    root.style.removeProperty('--notice-space');
  };
}
