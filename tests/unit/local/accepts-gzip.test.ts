import { describe, expect, it } from 'vitest';
import { acceptsGzip } from '../../../supabase/local/http.ts';

describe('whether a request takes a gzip-compressed reply', () => {
  it.each([
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.8, *;q=0.1', true],
    ['GZIP', true],
    ['x-gzip', true],
    ['*', true],
    [' deflate , gzip ; q=0.5', true],
    [['deflate', 'gzip'], true],
  ])('takes it for %j', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });

  it.each([
    [undefined, false],
    ['', false],
    ['identity', false],
    ['br, deflate', false],
    ['gzip;q=0', false],
    ['gzip;q=0.0, identity', false],
    ['*;q=0', false],
    ['*, gzip;q=0', false],
    ['gzipper', false],
  ])('does not for %j', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});
