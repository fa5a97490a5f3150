import { createElement, Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { lazyScreen } from '../../../src/app/lazy-screen.ts';

const Greeting = ({ who }: { who: string }) => createElement('p', null, `Hello ${who}`);

const inSuspense = (element: ReturnType<typeof createElement>) => renderToString(createElement(Suspense, { fallback: createElement('p', null, 'Loading...') }, element));

const flush = () => new Promise((resolve) => setTimeout(resolve));

describe('lazyScreen', () => {
  it('renders a screen whose module has arrived at once, without suspending', async () => {
    const Screen = lazyScreen(async () => ({ Greeting }), 'Greeting');
    Screen.preload();
    await flush();
    expect(inSuspense(createElement(Screen, { who: 'Ada' }))).toMatch(/^<!--\$--><p>Hello Ada<\/p><!--\/\$-->$/);
  });

  it('suspends until a screen not yet loaded arrives, and loads it once', async () => {
    let loads = 0;
    const Screen = lazyScreen(async () => {
      loads += 1;
      return { Greeting };
    }, 'Greeting');
    expect(inSuspense(createElement(Screen, { who: 'Ada' }))).toContain('Loading...');
    await flush();
    expect(inSuspense(createElement(Screen, { who: 'Grace' }))).toMatch(/^<!--\$--><p>Hello Grace<\/p><!--\/\$-->$/);
    Screen.preload();
    expect(loads).toBe(1);
  });

  it('settles its preload once the module has arrived, so the app can draw the screen at once', async () => {
    let arrive: (module: { Greeting: typeof Greeting }) => void = () => undefined;
    const Screen = lazyScreen(() => new Promise<{ Greeting: typeof Greeting }>((resolve) => (arrive = resolve)), 'Greeting');
    let settled = false;
    const preloaded = Screen.preload().then(() => (settled = true));
    await flush();
    expect(settled).toBe(false);
    arrive({ Greeting });
    await preloaded;
    expect(inSuspense(createElement(Screen, { who: 'Ada' }))).toMatch(/^<!--\$--><p>Hello Ada<\/p><!--\/\$-->$/);
  });

  it('settles its preload when the first try to fetch the module fails, and keeps trying behind it', async () => {
    vi.useFakeTimers();
    try {
      let tries = 0;
      const Screen = lazyScreen(async () => {
        tries += 1;
        if (tries === 1) throw new TypeError('Failed to fetch dynamically imported module');
        return { Greeting };
      }, 'Greeting');
      let settled = false;
      const preloaded = Screen.preload().then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(true);
      await preloaded;
      // Not there yet: the screen suspends, as the shell's "Loading..." shows.
      expect(inSuspense(createElement(Screen, { who: 'Ada' }))).toContain('Loading...');
      // The next try, a second later, brings it.
      await vi.advanceTimersByTimeAsync(1_000);
      expect(tries).toBe(2);
      expect(inSuspense(createElement(Screen, { who: 'Ada' }))).toMatch(/^<!--\$--><p>Hello Ada<\/p><!--\/\$-->$/);
    } finally {
      vi.useRealTimers();
    }
  });
});
