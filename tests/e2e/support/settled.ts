import type { Page } from 'playwright-core';

/**
 * Until the screen has what it will show, without a fixed wait: first the app's own
 * signals that nothing is still on its way (no "Loading..." placeholder, no busy region,
 * no loading screen, fonts loaded, no finite animation running), then the page's size,
 * element count and text unchanged for `quietMs`, checked on every animation frame, so a
 * live query that answered a moment ago has been drawn. Layout measurements (shift,
 * reach, overflow) and screenshots are taken after it.
 */
export async function untilScreenSettled(page: Page, options: { timeout?: number; quietMs?: number } = {}): Promise<void> {
  const { timeout = 20_000, quietMs = 300 } = options;
  await page.evaluate(() => ((window as unknown as { __screenSettle?: unknown }).__screenSettle = { key: '', since: performance.now() }));
  await page.waitForFunction(
    (quiet) => {
      const state = (window as unknown as { __screenSettle: { key: string; since: number } }).__screenSettle;
      const animating = document.getAnimations().some((animation) => {
        if (animation.playState !== 'running') return false;
        return animation.effect?.getComputedTiming().iterations !== Infinity;
      });
      const busy =
        animating ||
        document.fonts.status !== 'loaded' ||
        document.querySelector('.loading-screen, [aria-busy="true"]') !== null ||
        [...document.querySelectorAll('main p')].some((p) => /^Loading\b/.test(p.textContent?.trim() ?? ''));
      const root = document.documentElement;
      const key = busy ? 'busy' : `${root.scrollWidth}x${root.scrollHeight}:${document.getElementsByTagName('*').length}:${document.body.innerText.length}`;
      const now = performance.now();
      if (busy || key !== state.key) Object.assign(state, { key, since: now });
      return now - state.since >= quiet;
    },
    quietMs,
    { polling: 'raf', timeout },
  );
}
