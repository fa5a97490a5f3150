import { describe, expect, it } from 'vitest';
import { precacheKey, precacheName } from '../../../sw/precache.ts';

const origin = 'https://dash.example.com';

describe('the app shell cache', () => {
  it('keys a file whose name has no content hash by its revision, and a hashed file by its address', () => {
    expect(precacheKey({ url: 'index.html', revision: 'abc' }, origin)).toBe('https://dash.example.com/index.html?__revision=abc');
    expect(precacheKey({ url: 'assets/index-Doh6J8GG.js', revision: null }, origin)).toBe('https://dash.example.com/assets/index-Doh6J8GG.js');
  });

  it('names each build its own cache: the same files in any order share it, a changed file does not', () => {
    const build = [
      { url: 'index.html', revision: 'abc' },
      { url: 'assets/index-Doh6J8GG.js', revision: null },
    ];
    const name = precacheName(build, origin);
    expect(name).toMatch(/^app-shell-[0-9a-f]{8}$/);
    expect(precacheName([...build].reverse(), origin)).toBe(name);
    expect(precacheName([{ url: 'index.html', revision: 'abd' }, build[1] as (typeof build)[number]], origin)).not.toBe(name);
    expect(precacheName([...build, { url: 'assets/more-a1b2c3.js', revision: null }], origin)).not.toBe(name);
  });
});
