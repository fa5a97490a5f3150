/**
 * Layout measurements taken inside the page, for the every-route, every-size suite.
 * Each check returns readable problems ("button "Save" 120x44 at (-30, 200): ...") rather
 * than a yes or no, so a failing run lists everything that is wrong at once.
 */
import type { BrowserContext, Page } from 'playwright-core';

type ShiftWindow = { __layoutShift: { total: number; sources: string[] } };

/**
 * Sums every layout shift from the first paint on (buffered, so shifts before the
 * observer started count too), leaving out those a person caused by typing or clicking.
 */
export async function recordLayoutShifts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const record = { total: 0, sources: [] as string[] };
    (window as unknown as ShiftWindow).__layoutShift = record;
    type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node | null }> };
    const describe = (node: Node | null | undefined) => {
      if (!(node instanceof Element)) return node?.nodeName.toLowerCase() ?? '?';
      const classes = [...node.classList].slice(0, 2).map((c) => `.${c}`).join('');
      return `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${classes}`;
    };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Shift[]) {
        if (entry.hadRecentInput) continue;
        record.total += entry.value;
        const nodes = (entry.sources ?? []).map((source) => describe(source.node)).join(', ');
        record.sources.push(`${entry.value.toFixed(3)} at ${Math.round(entry.startTime)} ms (${nodes})`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

export function layoutShift(page: Page): Promise<{ total: number; sources: string[] }> {
  return page.evaluate(() => (window as unknown as ShiftWindow).__layoutShift ?? { total: 0, sources: ['no layout-shift record in this page'] });
}

export type Reachability = { problems: string[]; checked: number };

/**
 * Every visible input, button, link, select and table header cell: scrolled into view, it
 * must lie whole inside the window and inside every box that clips it, and be the thing
 * under its own centre (not the sidebar, a sticky bar or a toast). Inputs must show their
 * whole value. Something placed off-screen until it has focus (a skip link) is measured
 * with focus.
 */
export function checkReachable(page: Page): Promise<Reachability> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const selector = 'input, button, a[href], select, textarea, th';
    const clipsOverflow = (style: CSSStyleDeclaration) => style.overflowX !== 'visible' || style.overflowY !== 'visible';
    const short = (el: Element) => {
      const id = el.id ? `#${el.id}` : '';
      const cls = [...el.classList].slice(0, 2).map((c) => `.${c}`).join('');
      const label = el.getAttribute('aria-label') ?? (el instanceof HTMLInputElement || el instanceof HTMLSelectElement ? el.labels?.[0]?.textContent : el.textContent) ?? '';
      const text = label.replace(/\s+/g, ' ').trim().slice(0, 40);
      return `${el.tagName.toLowerCase()}${id}${cls}${text ? ` "${text}"` : ''}`;
    };
    const boxText = (r: DOMRect) => `${Math.round(r.width)}x${Math.round(r.height)} at (${Math.round(r.left + window.scrollX)}, ${Math.round(r.top + window.scrollY)})`;
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      if (r.width < 2 || r.height < 2) return false; // nothing drawn, or visually hidden for screen readers
      const style = getComputedStyle(el);
      if (style.visibility !== 'visible' || Number(style.opacity) === 0) return false;
      if (el.closest('[aria-hidden="true"], [inert]')) return false;
      return true;
    };
    /** The visible part of an element once clipped by the window and every scrolling or clipping ancestor. */
    const visiblePart = (el: Element) => {
      const r = el.getBoundingClientRect();
      let left = Math.max(r.left, 0);
      let top = Math.max(r.top, 0);
      let right = Math.min(r.right, window.innerWidth);
      let bottom = Math.min(r.bottom, window.innerHeight);
      const clippers: Element[] = [];
      for (let parent = el.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        if (!clipsOverflow(style)) continue;
        const p = parent.getBoundingClientRect();
        // The inside of the clipping box: its borders do not show content.
        const innerLeft = p.left + parent.clientLeft;
        const innerTop = p.top + parent.clientTop;
        left = Math.max(left, innerLeft);
        top = Math.max(top, innerTop);
        right = Math.min(right, innerLeft + parent.clientWidth);
        bottom = Math.min(bottom, innerTop + parent.clientHeight);
        clippers.push(parent);
      }
      return { left, top, right, bottom, width: Math.max(0, right - left), height: Math.max(0, bottom - top), clippers };
    };
    const underCentre = (el: Element, part: { left: number; top: number; right: number; bottom: number }) => {
      const hit = document.elementFromPoint((part.left + part.right) / 2, (part.top + part.bottom) / 2);
      if (!hit) return null;
      if (hit === el || el.contains(hit)) return 'ok';
      if (el instanceof HTMLInputElement && [...(el.labels ?? [])].some((label) => label === hit || label.contains(hit))) return 'ok';
      return hit;
    };

    /** Scrolls the element into view as a person would and says what keeps it from being seen or used, if anything. */
    const unreachable = (el: Element): string | null => {
      el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      const r = el.getBoundingClientRect();
      const part = visiblePart(el);
      // A box with overflow hidden scrolls for scrollIntoView but not for a finger or a wheel.
      const unscrollable = part.clippers.find((c) => {
        const style = getComputedStyle(c);
        return (c.scrollLeft !== 0 && ['hidden', 'clip'].includes(style.overflowX)) || (c.scrollTop !== 0 && ['hidden', 'clip'].includes(style.overflowY));
      });
      if (unscrollable) {
        unscrollable.scrollTo({ left: 0, top: 0, behavior: 'instant' });
        return `${short(el)} ${boxText(r)}: hidden in ${short(unscrollable)}, which cuts off what overflows and cannot be scrolled by hand`;
      }
      // Whole, or as much of it as the window (or its scroller) can hold at once.
      const roomX = Math.min(r.width, window.innerWidth, ...part.clippers.map((c) => c.clientWidth));
      const roomY = Math.min(r.height, window.innerHeight, ...part.clippers.map((c) => c.clientHeight));
      if (part.width < roomX - 1 || part.height < roomY - 1) {
        const where = r.left + window.scrollX < -1 ? 'left of the page' : r.top + window.scrollY < -1 ? 'above the page' : 'clipped';
        return `${short(el)} ${boxText(r)}: ${where}, only ${Math.round(part.width)}x${Math.round(part.height)} can be seen`;
      }
      const hit = underCentre(el, part);
      return hit === 'ok' ? null : `${short(el)} ${boxText(r)}: covered by ${hit ? short(hit) : 'nothing (outside the window)'}`;
    };

    const candidates = [...document.querySelectorAll(selector)].filter(shown);
    const startX = window.scrollX;
    const startY = window.scrollY;
    for (const el of candidates) {
      let problem = unreachable(el);
      if (problem && el instanceof HTMLElement) {
        // Placed out of sight until it has focus (a skip link): measured again with focus.
        el.focus({ preventScroll: true });
        if (document.activeElement === el && !unreachable(el)) problem = null;
        el.blur();
      }
      if (problem) problems.push(problem);
      if (el instanceof HTMLInputElement && !['checkbox', 'radio', 'date', 'month', 'color', 'range', 'file', 'hidden'].includes(el.type)) {
        if (el.scrollWidth > el.clientWidth + 1) problems.push(`${short(el)} ${boxText(el.getBoundingClientRect())}: shows only part of "${el.value}" (${el.scrollWidth} > ${el.clientWidth} px)`);
      }
    }
    window.scrollTo({ left: startX, top: startY, behavior: 'instant' });
    return { problems, checked: candidates.length };
  });
}

/** The page itself scrolls sideways (its content is wider than the window). */
export function pageOverflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number; widest: string[] }> {
  return page.evaluate(() => {
    const scrollWidth = document.documentElement.scrollWidth;
    const widest: string[] = [];
    const past = (el: Element) => el.getBoundingClientRect().right + window.scrollX > window.innerWidth + 1;
    if (scrollWidth > window.innerWidth + 1) {
      // Name the outermost elements that reach past the window, so the cause is in the report.
      for (const el of document.querySelectorAll('body *')) {
        const r = el.getBoundingClientRect();
        if (r.right + window.scrollX <= window.innerWidth + 1 || r.width === 0) continue;
        const parent = el.parentElement?.getBoundingClientRect();
        if (parent && parent.right + window.scrollX > window.innerWidth + 1) continue;
        // Inside a box that clips or scrolls it, it does not widen the page.
        let clipped = false;
        for (let up = el.parentElement; up && up !== document.body && !clipped; up = up.parentElement) clipped = getComputedStyle(up).overflowX !== 'visible';
        if (clipped) continue;
        const cls = [...el.classList].slice(0, 2).map((c) => `.${c}`).join('');
        widest.push(`${el.tagName.toLowerCase()}${cls} to x=${Math.round(r.right + window.scrollX)}`);
        if (widest.length >= 5) break;
      }
      // Something placed outside its scroller's hold (absolutely, say): name the last ones past the edge.
      if (!widest.length) {
        const deepest = [...document.querySelectorAll('body *')].filter((el) => past(el) && ![...el.children].some(past));
        widest.push(...deepest.slice(0, 5).map((el) => `${el.tagName.toLowerCase()}${[...el.classList].slice(0, 2).map((c) => `.${c}`).join('')} to x=${Math.round(el.getBoundingClientRect().right + window.scrollX)}`));
      }
    }
    return { scrollWidth, innerWidth: window.innerWidth, widest };
  });
}

/**
 * Whether an element (the sidebar, the sync bar, the Menu button) is in view: present,
 * not cut by the window's edges (a tall sidebar may fill the window's height), and not
 * covered at its centre. Checked at the top of the page and, unless told otherwise, again
 * scrolled to the page's far end (the frame that must stay put).
 */
export function frameInView(page: Page, selector: string, what: string, { alsoScrolled = true } = {}): Promise<string[]> {
  return page.evaluate(
    ({ selector, what, alsoScrolled }) => {
      const problems: string[] = [];
      const el = document.querySelector(selector);
      const check = (where: string) => {
        if (!el) return void problems.push(`${what} (${selector}) is missing`);
        const r = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        const box = `${Math.round(r.width)}x${Math.round(r.height)} at (${Math.round(r.left)}, ${Math.round(r.top)}) in the window`;
        if (r.width < 2 || r.height < 2 || style.display === 'none' || style.visibility !== 'visible') return void problems.push(`${what} not shown ${where}: ${box}`);
        const seenWidth = Math.min(r.right, window.innerWidth) - Math.max(r.left, 0);
        const seenHeight = Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0);
        if (seenWidth < r.width - 1 || seenHeight < Math.min(r.height, window.innerHeight) - 1) return void problems.push(`${what} out of view ${where}: ${box}`);
        const x = (Math.max(r.left, 0) + Math.min(r.right, window.innerWidth)) / 2;
        const y = (Math.max(r.top, 0) + Math.min(r.bottom, window.innerHeight)) / 2;
        const hit = document.elementFromPoint(x, y);
        if (!hit || !(el === hit || el.contains(hit))) problems.push(`${what} covered ${where} by ${hit ? `${hit.tagName.toLowerCase()}.${[...hit.classList].join('.')}` : 'nothing'}: ${box}`);
      };
      const startX = window.scrollX;
      const startY = window.scrollY;
      window.scrollTo({ left: 0, top: 0, behavior: 'instant' });
      check('at the top of the page');
      const root = document.documentElement;
      if (alsoScrolled && (root.scrollHeight > window.innerHeight + 1 || root.scrollWidth > window.innerWidth + 1)) {
        window.scrollTo({ left: root.scrollWidth, top: root.scrollHeight, behavior: 'instant' });
        check('scrolled to the end of the page');
      }
      window.scrollTo({ left: startX, top: startY, behavior: 'instant' });
      return problems;
    },
    { selector, what, alsoScrolled },
  );
}

/**
 * Controls a finger cannot hit reliably on a tablet: buttons, inputs, selects and the
 * sidebar's links under 44 px either way (rounded, so 43.5 passes).
 */
export function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const name = (el: Element) => el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 40) ?? el.tagName;
    const visible = (el: Element) => {
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && !el.closest('[aria-hidden="true"]');
    };
    const small: string[] = [];
    for (const el of document.querySelectorAll('button, input, select, a.sidebar-link, .sidebar a')) {
      if (!visible(el)) continue;
      const box = el.getBoundingClientRect();
      if (box.width < 43.5 || box.height < 43.5) small.push(`${el.tagName.toLowerCase()} "${name(el)}" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
    return small;
  });
}
