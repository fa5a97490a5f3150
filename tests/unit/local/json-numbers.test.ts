import { describe, expect, it } from 'vitest';
import { findUnrepresentableNumber, parseJsonExactly, UnrepresentableNumberError } from '../../../supabase/local/json-numbers.ts';

describe('numbers a JSON body may carry through the backend', () => {
  it.each([
    ['0', 0],
    ['-0', -0],
    ['17500', 17500],
    ['189.95', 189.95],
    ['0.1', 0.1],
    ['1e3', 1000],
    ['1.5E-7', 1.5e-7],
    ['123456789012.34', 123456789012.34],
    ['9007199254740991', 9007199254740991],
    ['100000000000000000000', 1e20],
    ['0.30000000000000004', 0.30000000000000004],
    ['1.7976931348623157e308', Number.MAX_VALUE],
  ])('passes %s unchanged', (literal, value) => {
    expect(findUnrepresentableNumber(`{"value":${literal}}`)).toBeNull();
    expect(parseJsonExactly(`[${literal}]`)).toEqual([value]);
  });

  it.each([
    ['1e309', 'out-of-range'],
    ['-1e309', 'out-of-range'],
    ['1.8e308', 'out-of-range'],
    ['12345678901234567890', 'inexact'],
    ['9007199254740993', 'inexact'],
    ['0.1000000000000000000001', 'inexact'],
    ['1e-400', 'inexact'],
  ])('refuses %s (%s)', (literal, problem) => {
    expect(findUnrepresentableNumber(`{"rows":[{"a":"1e309","value":${literal}}]}`)).toMatchObject({ literal, problem });
    expect(() => parseJsonExactly(`[${literal}]`)).toThrow(UnrepresentableNumberError);
  });

  it('skips digits inside strings, escaped quotes included', () => {
    expect(findUnrepresentableNumber(String.raw`{"note":"say \"1e309\" and 12345678901234567890","n":1}`)).toBeNull();
  });

  it('is still a SyntaxError, so callers that refuse bad JSON refuse it too', () => {
    expect(() => parseJsonExactly('[1e309]')).toThrow(SyntaxError);
    expect(() => parseJsonExactly('{"a":')).toThrow(SyntaxError);
  });
});
