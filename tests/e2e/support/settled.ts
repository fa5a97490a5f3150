import type { Page } from 'playwright-core';

/**
 * Until the screen has what it will show: the app's own signals that nothing is still on
 * its way (no "Loading..." placeholder, no busy region, the route's chunk in, fonts loaded),
 * then the page's size and element count unchanged over a few animation frames, so a live
 * query that answered a moment ago has been drawn. Measures a screen without a fixed wait.
 */
export async function untilScreenSettled(page: Page, timeout = 20_000): Promise<void> {
  await page.evaluate(() => ((window as unknown as { __screenSettle?: unknown }).__screenSettle = { key: '', same: 0 }));
  await page.waitForFunction(
    () => {
      const state = (window as unknown as { __screenSettle: { key: string; same: number } }).__screenSettle;
      const busy =
        document.fonts.status !== 'loaded' ||
        document.querySelector('.loading-screen, [aria-busy="true"]') !== null ||
        [...document.querySelectorAll('main p')].some((p) => /^Loading\b/.test(p.textContent?.trim() ?? ''));
      const root = document.documentElement;
      const key = busy ? 'busy' : `${root.scrollWidth}x${root.scrollHeight}:${document.getElementsByTagName('*').length}:${document.body.innerText.length}`;
      if (busy || key !== state.key) Object.assign(state, { key, same: 0 });
      else state.same += 1;
      return state.same >= 3;
    },
    undefined,
    { polling: 'raf', timeout },
  );
}
