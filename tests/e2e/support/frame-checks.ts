/**
 * The frame around every screen (sidebar, its month control, theme toggle and logout, the
 * sync bar and its Sync now), measured inside the page, and scrolling the way a person
 * does. Shared by the every-route, every-size pass (layouts.test.ts), which checks the
 * frame on each screen it loads, and the frame's own behaviours (desktop-frame.test.ts).
 */
import type { Page } from 'playwright-core';
import { until } from '../../support/poll.ts';

/**
 * What of the frame is not wholly inside the window, or is covered by something else at
 * its centre: the sidebar, its month control, theme toggle and logout, and the sync bar.
 */
export function frameProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const check = (label: string, el: Element | null | undefined) => {
      if (!el) return void problems.push(`${label}: missing`);
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) return void problems.push(`${label}: not shown`);
      if (box.left < -0.5 || box.top < -0.5 || box.right > innerWidth + 0.5 || box.bottom > innerHeight + 0.5) {
        return void problems.push(`${label}: at ${Math.round(box.left)},${Math.round(box.top)}-${Math.round(box.right)},${Math.round(box.bottom)} outside ${innerWidth}x${innerHeight}`);
      }
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (!hit || !(el === hit || el.contains(hit))) problems.push(`${label}: covered by ${hit?.tagName ?? 'nothing'}.${hit?.className ?? ''}`);
    };
    const sidebar = document.querySelector('nav#sidebar');
    check('sidebar', sidebar);
    const buttons = [...(sidebar?.querySelectorAll('button') ?? [])];
    check('sidebar month control', sidebar?.querySelector('[role="group"][aria-label="Month"]'));
    check('theme toggle', buttons.find((b) => /mode$/.test(b.textContent ?? '')));
    check('logout', buttons.find((b) => b.textContent === 'Logout'));
    check('sync bar', document.querySelector('.sync-indicator'));
    check('Sync now', [...document.querySelectorAll('.sync-indicator button')].find((b) => /^Sync(ing)? ?now|Syncing/.test(b.textContent ?? '')));
    return problems;
  });
}

/**
 * The frame checked on load, after the wheel has scrolled the screen far down, and after
 * it has scrolled far sideways: the frame must stay in view however the content moves.
 */
export async function frameProblemsScrolled(page: Page): Promise<string[]> {
  const problems = (await frameProblems(page)).map((p) => `on load: ${p}`);
  await wheel(page, 0, 4000);
  problems.push(...(await frameProblems(page)).map((p) => `scrolled down: ${p}`));
  await wheel(page, 4000, 0);
  problems.push(...(await frameProblems(page)).map((p) => `scrolled sideways: ${p}`));
  return problems;
}

/** Scrolls the way a person does, with the wheel over the screen's content. */
export async function wheel(page: Page, dx: number, dy: number): Promise<void> {
  const size = page.viewportSize() ?? { width: 1366, height: 768 };
  await page.mouse.move(Math.round(size.width * 0.7), Math.round(size.height * 0.6));
  // The wheel's reply can come before the page has handled the event and its scroll has
  // begun; on a busy machine the scroll then started only after scrollSettled had seen two
  // equal positions. So the page reports the event, and two frames later its scroll runs.
  const received = page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        addEventListener('wheel', () => requestAnimationFrame(() => requestAnimationFrame(() => resolve())), { once: true, passive: true, capture: true });
      }),
  );
  await page.evaluate(() => undefined);
  await page.mouse.wheel(dx, dy);
  await received;
  await scrollSettled(page);
}

/** Waits until a smooth scroll has come to rest (two equal readings in a row, 150 ms apart). */
export async function scrollSettled(page: Page): Promise<void> {
  let last = '';
  await until(
    () => page.evaluate(() => `${scrollX},${scrollY},${document.querySelector('main')?.scrollLeft},${document.querySelector('main')?.scrollTop}`),
    (now) => {
      const still = now === last;
      last = now;
      return still;
    },
    6_000,
    'the scroll at rest',
    150,
  );
}
