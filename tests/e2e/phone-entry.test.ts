import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { scrollSettled } from './support/frame-checks.ts';
import { SyncBarModel } from './support/pages.ts';
import { untilScreenSettled } from './support/settled.ts';

/**
 * Where advisors type, on a phone, a tablet and a laptop: today's row of the daily grid
 * under its headings, whole values in every input, no sideways page scroll, a goal alert
 * that never hides the input being typed in, a per-cell "saved on this device" sign, and
 * readable greyed text. Everything is measured in the page; screenshots land in
 * test-results/screenshots/entry-*.png.
 */
const sizes = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1024, height: 768 },
  { width: 1366, height: 768 },
] as const;

/** The widest value a daily input takes (hours and sales up to 99,999.9). */
const widest = '99999.9';

/** Inputs that cannot show the widest value, and how wide the page is against the window. */
function fitProblems(page: Page): Promise<string[]> {
  return page.evaluate((text) => {
    const problems: string[] = [];
    const canvas = document.createElement('canvas').getContext('2d');
    if (!canvas) return ['no canvas'];
    for (const input of document.querySelectorAll<HTMLInputElement>('main input[inputmode="decimal"]')) {
      const box = input.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(input);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const needed = canvas.measureText(text).width;
      if (needed > room + 0.5) problems.push(`"${input.getAttribute('aria-label')}" has ${room.toFixed(1)} px for ${needed.toFixed(1)} px`);
      if (box.right > window.innerWidth + 0.5 || box.left < -0.5) problems.push(`"${input.getAttribute('aria-label')}" lies outside the window (${box.left}-${box.right})`);
    }
    const pageWidth = document.documentElement.scrollWidth;
    if (pageWidth > window.innerWidth) problems.push(`the page scrolls sideways (${pageWidth} > ${window.innerWidth})`);
    return problems;
  }, widest);
}

/** Each input of today's day in the grid against the heading of its column (the list's, or the day's own). */
function todayRowProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const day = document.querySelector<HTMLElement>('.day-grid [aria-current="date"]');
    if (!day) return ['no day marked as today'];
    const problems: string[] = [];
    const shown = (el: Element | null | undefined): el is HTMLElement => !!el && el.getBoundingClientRect().width > 0;
    const listHead = day.closest('.grid-week')?.querySelector('.list-head');
    const inputs = [...day.querySelectorAll('input')];
    if (inputs.length !== 6) problems.push(`today has ${inputs.length} inputs`);
    inputs.forEach((input, index) => {
      const label = input.getAttribute('aria-label') ?? '';
      const metric = label.split(' ')[1] === 'Hours' ? 'hours' : 'sales';
      const candidates = [listHead?.children[index + 1], day.querySelector(`.cell-head.${metric}`)];
      const head = candidates.find(shown);
      if (!head) return problems.push(`"${label}" has no visible heading`);
      const headBox = head.getBoundingClientRect();
      const box = input.getBoundingClientRect();
      if (box.left < headBox.left - 1 || box.right > headBox.right + 1) {
        problems.push(`"${label}" spans ${Math.round(box.left)}-${Math.round(box.right)}, its heading "${head.textContent}" ${Math.round(headBox.left)}-${Math.round(headBox.right)}`);
      }
      if (!new RegExp(`^${metric}$`, 'i').test((head.textContent ?? '').split(' ').pop() ?? '') && !/^[HS]$/.test(head.textContent ?? '')) {
        problems.push(`"${label}" sits under "${head.textContent}"`);
      }
    });
    return problems;
  });
}

/** WCAG contrast of a text colour against what lies behind it, with alpha and opacity composited. */
function contrastProblems(page: Page, selectors: string[]): Promise<string[]> {
  return page.evaluate((selectors) => {
    type Rgba = [number, number, number, number];
    const parse = (text: string): Rgba => {
      const parts = text.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
      return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts.length > 3 ? (parts[3] ?? 1) : 1];
    };
    const over = (top: Rgba, bottom: Rgba): Rgba => {
      const a = top[3];
      return [top[0] * a + bottom[0] * (1 - a), top[1] * a + bottom[1] * (1 - a), top[2] * a + bottom[2] * (1 - a), 1];
    };
    const background = (el: Element): Rgba => {
      const layers: Rgba[] = [];
      for (let node: Element | null = el; node; node = node.parentElement) {
        const colour = parse(getComputedStyle(node).backgroundColor);
        if (colour[3] > 0) layers.push(colour);
        if (colour[3] >= 1) break;
      }
      let result: Rgba = [255, 255, 255, 1];
      for (const layer of layers.reverse()) result = over(layer, result);
      return result;
    };
    const opacity = (el: Element) => {
      let value = 1;
      for (let node: Element | null = el; node; node = node.parentElement) value *= Number(getComputedStyle(node).opacity);
      return value;
    };
    const luminance = ([r, g, b]: Rgba) => {
      const channel = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const ratio = (a: Rgba, b: Rgba) => {
      const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
      return (l1 + 0.05) / (l2 + 0.05);
    };
    const problems: string[] = [];
    let checked = 0;
    for (const selector of selectors) {
      const pseudo = selector.endsWith('::placeholder') ? '::placeholder' : null;
      for (const el of document.querySelectorAll(pseudo ? selector.replace('::placeholder', '') : selector)) {
        const box = el.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        if (pseudo ? !(el as HTMLInputElement).placeholder || (el as HTMLInputElement).value : !(el.textContent ?? '').trim()) continue;
        const back = background(el);
        const fore = parse(getComputedStyle(el, pseudo).color);
        const shown = over([fore[0], fore[1], fore[2], fore[3] * opacity(el)], back);
        const value = ratio(shown, back);
        checked += 1;
        if (value < 4.5) problems.push(`${selector} "${pseudo ? (el as HTMLInputElement).placeholder : el.textContent?.trim().slice(0, 30)}" ${value.toFixed(2)}:1`);
      }
    }
    if (checked === 0) problems.push(`nothing to check for ${selectors.join(', ')}`);
    return problems;
  }, selectors);
}

describe('entering figures on a phone, a tablet and a laptop', () => {
  let e2e: E2E;
  let page: Page;
  /** The day the page counts as today, read when a test starts: a run may pass midnight. */
  const todayOnPage = () =>
    page.evaluate(() => {
      const d = new Date();
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    });
  const focusedLabel = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));

  beforeAll(async () => {
    e2e = await startE2E();
    ({ page } = await e2e.signedInPage('manager@example.com', { width: 1366, height: 768 }));
    await new SyncBarModel(page).waitForSynced();
  });
  afterAll(() => e2e?.close());

  for (const size of sizes) {
    it(`lines today's row up under its headings, shows whole values and never scrolls sideways at ${size.width} x ${size.height}`, async () => {
      await page.setViewportSize(size);
      const today = await todayOnPage();
      await page.goto(`${e2e.appUrl}/daily`);
      await page.getByLabel(`CP Hours ${today}`).first().waitFor();
      await untilScreenSettled(page);
      const problems = [...(await todayRowProblems(page)).map((p) => `/daily: ${p}`), ...(await fitProblems(page)).map((p) => `/daily: ${p}`)];
      await e2e.screenshot(page, `entry-daily-${size.width}x${size.height}`, { fullPage: true });
      await page.goto(`${e2e.appUrl}/today`);
      await page.getByRole('group', { name: "Today's hours and sales" }).getByLabel(`CP Hours ${today}`).waitFor();
      await untilScreenSettled(page);
      problems.push(...(await fitProblems(page)).map((p) => `/today: ${p}`));
      // The Today page's own section is not styled as the grid's "today" cell, nor the other way round.
      const todaySection = await page.locator('main section[aria-labelledby="today-title"]').evaluate((el) => ({ className: el.className, width: el.getBoundingClientRect().width }));
      if (todaySection.className.split(/\s+/).includes('today')) problems.push(`/today: the page's section shares the grid's "today" class (${todaySection.className})`);
      await e2e.screenshot(page, `entry-today-${size.width}x${size.height}`, { fullPage: true });
      expect(problems).toEqual([]);
    });
  }

  it('keeps the arrow keys and Enter moving through the days on a phone', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${e2e.appUrl}/daily?month=2031-03`);
    await page.getByLabel('CP Hours 2031-03-03').click();
    await page.keyboard.press('ArrowRight');
    expect(await focusedLabel()).toBe('CP Sales 2031-03-03');
    await page.keyboard.press('ArrowDown');
    expect(await focusedLabel()).toBe('W Sales 2031-03-03');
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('Enter');
    expect(await focusedLabel()).toBe('CP Hours 2031-03-04');
    await page.keyboard.press('Shift+Enter');
    expect(await focusedLabel()).toBe('I Sales 2031-03-03');
  });

  it('shows a goal alert that fits a phone, with Dismiss in view, and never over the input being typed in', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${e2e.appUrl}/daily?month=2031-07`);
    const enter = async (label: string, value: string) => {
      await page.getByLabel(label).fill(value);
      await page.getByLabel(label).press('Tab');
    };
    await enter('Days Complete Week 1', '5');
    await enter('CP Hours 2031-07-01', '100');
    await enter('CP Sales 2031-07-01', '18000');
    // On target first (the screen has read the entry back): the next entry is what moves it below.
    const elr = page.locator('.kpi-tile').filter({ hasText: /^CP ELR/ });
    await expect.poll(() => elr.textContent()).toContain('Actual: $180');
    // $15,000 over 100 h: $150 an hour against a target of $180 is amber.
    await enter('CP Sales 2031-07-01', '15000');
    const alert = page.locator('.goal-alert');
    await alert.waitFor({ timeout: 20_000 });
    for (const size of [
      { width: 390, height: 844 },
      { width: 768, height: 1024 },
    ]) {
      await page.setViewportSize(size);
      await untilScreenSettled(page);
      const dismiss = await page.getByRole('button', { name: 'Dismiss' }).boundingBox();
      const problems: string[] = [];
      if (!dismiss || dismiss.x < 0 || dismiss.y < 0 || dismiss.x + dismiss.width > size.width || dismiss.y + dismiss.height > size.height) problems.push(`Dismiss at ${JSON.stringify(dismiss)}`);
      // Bring a later day's input under the alert, then move into it with the keyboard.
      const target = await page.evaluate(() => {
        const toast = document.querySelector('.goal-alert')?.getBoundingClientRect();
        if (!toast) return null;
        const inputs = [...document.querySelectorAll<HTMLInputElement>('.day-grid input')].filter((input) => input.getBoundingClientRect().width > 0);
        const chosen = inputs.find((input) => input.getAttribute('aria-label') === 'CP Hours 2031-07-22');
        if (!chosen) return null;
        window.scrollBy(0, chosen.getBoundingClientRect().top - (toast.top + toast.height / 2 - chosen.getBoundingClientRect().height / 2));
        const here = chosen.getBoundingClientRect();
        // The input just above it on screen, not under the alert, to come from.
        const above = inputs
          .filter((input) => Math.abs(input.getBoundingClientRect().left - here.left) < 2 && input.getBoundingClientRect().bottom <= here.top)
          .sort((a, b) => b.getBoundingClientRect().top - a.getBoundingClientRect().top)[0];
        above?.focus();
        return above?.getAttribute('aria-label') ?? null;
      });
      if (!target) problems.push('no input above the alert to start from');
      await page.keyboard.press('ArrowDown');
      // Focus has left the input it came from, and the page has stopped scrolling it clear.
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).not.toBe(target);
      await scrollSettled(page);
      const covered = await page.evaluate(() => {
        const toast = document.querySelector('.goal-alert')?.getBoundingClientRect();
        const focused = document.activeElement;
        if (!toast || !(focused instanceof HTMLInputElement)) return `focus on ${focused?.tagName}`;
        const box = focused.getBoundingClientRect();
        const clear = !(box.left < toast.right && toast.left < box.right && box.top < toast.bottom && toast.top < box.bottom) && box.top >= 0 && box.bottom <= window.innerHeight;
        return clear ? null : `"${focused.getAttribute('aria-label')}" at ${Math.round(box.top)}-${Math.round(box.bottom)} under the alert at ${Math.round(toast.top)}-${Math.round(toast.bottom)}`;
      });
      if (covered) problems.push(covered);
      const toastBox = await alert.boundingBox();
      if (!toastBox || toastBox.x < 0 || toastBox.x + toastBox.width > size.width) problems.push(`the alert spans ${JSON.stringify(toastBox)}`);
      await e2e.screenshot(page, `entry-goal-alert-${size.width}x${size.height}`);
      expect(problems, `at ${size.width}`).toEqual([]);
    }
    // Dismissed, it gives the space back.
    await page.getByRole('button', { name: 'Dismiss' }).click();
    expect(await alert.count()).toBe(0);
  });

  /** The texts the input is described by (its sign or its refusal). */
  const descriptionOf = (label: string, scope = page.locator('main')) =>
    scope.getByLabel(label, { exact: true }).evaluate((input) =>
      (input.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .filter(Boolean)
        .map((id) => {
          const el = document.getElementById(id);
          return el && el.getBoundingClientRect().width > 0 ? (el.textContent ?? '').trim() : '';
        })
        .join(' | '),
    );
  const signShown = (label: string, scope = page.locator('main')) =>
    scope.getByLabel(label, { exact: true }).evaluate((input) => {
      const sign = input.closest('.cell-field')?.querySelector('.cell-saved');
      return !!sign && sign.getBoundingClientRect().width > 0 && getComputedStyle(sign).visibility !== 'hidden';
    });

  /** A refusal's message that runs past the window's edge (it would be cut off, or scroll the page sideways). */
  const messagesOffScreen = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('.cell-error')]
        .map((el) => ({ text: el.textContent ?? '', box: el.getBoundingClientRect() }))
        .filter(({ box }) => box.left < 0 || box.right > window.innerWidth)
        .map(({ text, box }) => `"${text.slice(0, 30)}" spans ${Math.round(box.left)}-${Math.round(box.right)} of ${window.innerWidth}`),
    );

  it('signs each value saved on this device where it was typed, on Today and in the grid, but not a refused one', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const today = await todayOnPage();
    await page.goto(`${e2e.appUrl}/today`);
    const group = page.getByRole('group', { name: "Today's hours and sales" });
    await group.getByLabel(`CP Hours ${today}`).waitFor();
    expect(await descriptionOf(`CP Hours ${today}`, group)).not.toContain('saved on this device');
    await group.getByLabel(`CP Hours ${today}`).fill('12.5');
    await expect.poll(() => descriptionOf(`CP Hours ${today}`, group)).toBe('saved on this device');
    expect(await signShown(`CP Hours ${today}`, group)).toBe(true);
    await e2e.screenshot(page, 'entry-saved-sign-today-390x844');
    // A refused entry shows its reason, never the sign.
    await group.getByLabel(`W Sales ${today}`).fill('12abc');
    await group.getByLabel(`W Sales ${today}`).press('Tab');
    await expect.poll(() => descriptionOf(`W Sales ${today}`, group)).toMatch(/./);
    expect(await descriptionOf(`W Sales ${today}`, group)).not.toContain('saved on this device');
    expect(await signShown(`W Sales ${today}`, group)).toBe(false);
    expect(await messagesOffScreen()).toEqual([]);
    // The next keystroke takes the sign away until that value is stored too.
    await page.goto(`${e2e.appUrl}/daily?month=2031-08`);
    await page.getByLabel('CP Hours 2031-08-04').fill('8');
    await expect.poll(() => descriptionOf('CP Hours 2031-08-04')).toBe('saved on this device');
    expect(await signShown('CP Hours 2031-08-04')).toBe(true);
    await page.getByLabel('CP Sales 2031-08-04').fill('-5');
    await page.getByLabel('CP Sales 2031-08-04').press('Tab');
    await expect.poll(() => descriptionOf('CP Sales 2031-08-04')).toMatch(/./);
    expect(await signShown('CP Sales 2031-08-04')).toBe(false);
    expect(await messagesOffScreen()).toEqual([]);
    // A week's own input signs it too, once the week is stored.
    await page.getByLabel('Days Complete Week 2').fill('3');
    await expect.poll(() => descriptionOf('Days Complete Week 2')).toBe('saved on this device');
    expect(await signShown('Days Complete Week 2')).toBe(true);
    await e2e.screenshot(page, 'entry-saved-sign-daily-390x844');
  });

  it("never hides the input being typed in under a refusal's message", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${e2e.appUrl}/daily?month=2031-10`);
    // A refused CP Sales: its reason floats below it, where W Sales sits on a phone.
    await page.getByLabel('CP Sales 2031-10-06').fill('-5');
    await page.getByLabel('CP Sales 2031-10-06').press('Tab');
    await page.locator('.cell-error').waitFor();
    expect(await focusedLabel()).toBe('W Hours 2031-10-06');
    await page.keyboard.press('ArrowRight');
    expect(await focusedLabel()).toBe('W Sales 2031-10-06');
    const hidden = await page.evaluate(() => {
      const input = document.activeElement as HTMLInputElement;
      const box = input.getBoundingClientRect();
      const points = [
        [box.left + box.width / 2, box.top + box.height / 2],
        [box.right - 8, box.top + 8],
        [box.left + 8, box.top + 8],
      ] as const;
      return points.filter(([x, y]) => document.elementFromPoint(x, y) !== input).map(([x, y]) => `${Math.round(x)},${Math.round(y)}: ${document.elementFromPoint(x, y)?.className}`);
    });
    await e2e.screenshot(page, 'entry-refusal-390x844');
    expect(hidden).toEqual([]);
  });

  it('shows no saved sign in Submit mode, where nothing is saved until Submit Data', async () => {
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.goto(`${e2e.appUrl}/daily-weekly?month=2031-08`);
    await page.getByLabel('CP Hours 2031-08-05').waitFor();
    // Not even for a moment: every sign that appears anywhere is noted.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { signsSeen: string[] }).signsSeen = seen;
      new MutationObserver(() => {
        for (const sign of document.querySelectorAll('.cell-saved')) seen.push(sign.closest('.cell-field')?.querySelector('input')?.getAttribute('aria-label') ?? '?');
      }).observe(document.body, { subtree: true, childList: true });
    });
    await page.getByLabel('CP Hours 2031-08-05').fill('9');
    await page.getByLabel('CP Hours 2031-08-05').press('Tab');
    // Kept for Submit Data, and marked so: the moment a saved sign would have come with it.
    await expect.poll(() => descriptionOf('CP Hours 2031-08-05')).toContain('not submitted');
    expect(await signShown('CP Hours 2031-08-05')).toBe(false);
    expect(await descriptionOf('CP Hours 2031-08-05')).not.toContain('saved on this device');
    expect(await page.evaluate(() => (window as unknown as { signsSeen: string[] }).signsSeen)).toEqual([]);
  });

  it('gives greyed and heading text at least 4.5:1 contrast in both themes', async () => {
    await page.setViewportSize({ width: 1366, height: 768 });
    const problems: string[] = [];
    for (const theme of ['dark', 'light']) {
      await page.goto(`${e2e.appUrl}/daily?month=2031-09`);
      await page.getByLabel('Days Complete Week 2').waitFor();
      await page.evaluate((name) => (document.documentElement.dataset.theme = name), theme);
      await untilScreenSettled(page);
      const selectors = ['.day-grid input::placeholder', '.day-grid .hint', '.day-grid .list-head span', '.day-grid .day-head', '.day-grid .week-title', '.day-grid th'];
      problems.push(...(await contrastProblems(page, selectors)).map((p) => `${theme} /daily: ${p}`));
      await page.setViewportSize({ width: 390, height: 844 });
      await untilScreenSettled(page);
      problems.push(...(await contrastProblems(page, ['.day-grid input::placeholder', '.day-grid .cell-head', '.day-grid .row-label'])).map((p) => `${theme} /daily at 390: ${p}`));
      await page.setViewportSize({ width: 1366, height: 768 });
      await page.goto(`${e2e.appUrl}/today`);
      await page.getByRole('group', { name: "Today's hours and sales" }).waitFor();
      await page.evaluate((name) => (document.documentElement.dataset.theme = name), theme);
      await untilScreenSettled(page);
      problems.push(...(await contrastProblems(page, ['main p', 'main [role="group"] span'])).map((p) => `${theme} /today: ${p}`));
    }
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    expect(problems).toEqual([]);
  });
});
