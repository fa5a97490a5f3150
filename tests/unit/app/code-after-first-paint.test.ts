import { describe, expect, it } from 'vitest';
import { codeAfterFirstPaint } from '../../../scripts/code-after-first-paint.ts';

describe("the page's code fetched after what paints first", () => {
  it('marks the entry module and every preloaded module low priority, and nothing else', () => {
    const html = [
      '<head>',
      '<script type="module" crossorigin src="/assets/index-a1.js"></script>',
      '<link rel="modulepreload" crossorigin href="/assets/jsx-runtime-b2.js">',
      '<link rel="stylesheet" crossorigin href="/assets/index-c3.css">',
      '<link rel="manifest" href="/manifest.webmanifest">',
      '<link rel="icon" href="/icons/icon-192.png" />',
      '</head>',
    ].join('\n');
    expect(codeAfterFirstPaint(html).split('\n')).toEqual([
      '<head>',
      '<script fetchpriority="low" type="module" crossorigin src="/assets/index-a1.js"></script>',
      '<link fetchpriority="low" rel="modulepreload" crossorigin href="/assets/jsx-runtime-b2.js">',
      '<link rel="stylesheet" crossorigin href="/assets/index-c3.css">',
      '<link rel="manifest" href="/manifest.webmanifest">',
      '<link rel="icon" href="/icons/icon-192.png" />',
      '</head>',
    ]);
  });

  it('leaves a priority already given, and a module written inline, as they are', () => {
    const html = '<script type="module" fetchpriority="high" src="/a.js"></script><script type="module">import "/b.js"</script><LINK REL=modulepreload HREF=/c.js>';
    expect(codeAfterFirstPaint(html)).toBe('<script type="module" fetchpriority="high" src="/a.js"></script><script type="module">import "/b.js"</script><LINK fetchpriority="low" REL=modulepreload HREF=/c.js>');
  });

  it('reads the type and rel whole: a module-like name is not a module', () => {
    const html = '<script type="module-shim" src="/a.js"></script><link rel="modulepreloader" href="/b.js">';
    expect(codeAfterFirstPaint(html)).toBe(html);
  });

  it('changes the built page once: a second pass finds nothing to do', () => {
    const once = codeAfterFirstPaint('<script type="module" src="/x.js"></script><link rel="modulepreload" href="/y.js">');
    expect(codeAfterFirstPaint(once)).toBe(once);
  });
});
