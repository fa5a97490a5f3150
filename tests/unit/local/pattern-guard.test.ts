import { describe, expect, it } from 'vitest';
import type { Condition } from '../../../supabase/local/rest/grammar/types.ts';
import { arrayLiteralElements, checkPatterns, regexCost } from '../../../supabase/local/rest/pattern-guard.ts';
import { RestError } from '../../../supabase/local/rest/errors.ts';

const filter = (op: 'match' | 'imatch' | 'like' | 'fts', value: string, quantifier?: 'any' | 'all'): Condition =>
  ({ kind: 'filter', field: { name: 'note', path: [] }, negate: false, operation: { op, value, quantifier } }) as Condition;

function refusal(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof RestError) return error.message;
    throw error;
  }
}

describe('the cost of a regular expression: its length with every bounded repetition written out', () => {
  it.each([
    ['abc', 3],
    ['^North', 6],
    ['(.*)(.*)', 8],
    ['a{5}', 5 + 3],
    ['a{2,7}', 7 + 5],
    ['a{3,}', 4 + 4],
    ['(ab){3}', 12 + 3],
    ['((a{2}){2}){2}', 2 * (2 + 2 * (2 + 2 * 1 + 3) + 3) + 3],
    ['[a-z{}]{4}', 7 * 4 + 3],
    ['\\d{3}', 6 + 3],
    ['a{x}', 4],
    ['***=(a)\\1', 5],
  ])('%s costs %i', (pattern, cost) => {
    expect(regexCost(pattern)).toBe(cost);
  });

  it.each([
    ['(a)\\1', 'back-reference'],
    ['(?=a)', 'lookahead'],
    ['(?!a)', 'lookahead'],
    ['(?<=a)b', 'lookahead'],
    ['(?<!a)b', 'lookahead'],
    ['(?b)\\(a\\)\\1', 'basic'],
    ['***:(?e)a', 'basic'],
    ['(?x)a {50}', 'basic'],
  ])('refuses %s', (pattern, word) => {
    expect(refusal(() => regexCost(pattern))).toContain(word);
  });

  it.each([['\\\\1'], ['[\\1]'], ['(?i)abc'], ['(?:ab)+']])('lets %s through', (pattern) => {
    expect(refusal(() => regexCost(pattern))).toBeNull();
  });
});

describe('array literals, read as Postgres reads them', () => {
  it.each([
    ['{a,b}', ['a', 'b']],
    ['{ a , b }', ['a', 'b']],
    ['{"a,b","c\\"d"}', ['a,b', 'c"d']],
    ['{(a)\\\\1}', ['(a)\\1']],
    ['{"(a)\\\\1"}', ['(a)\\1']],
    ['{(a)\\1}', ['(a)1']],
    ['{}', []],
  ])('%s has %j', (literal, elements) => {
    expect(arrayLiteralElements(literal)).toEqual(elements);
  });

  it.each([['a,b'], ['{{a},{b}}'], ['{"a}']])('%s is not one', (literal) => {
    expect(arrayLiteralElements(literal)).toBeNull();
  });
});

describe('the budget of a request', () => {
  it('counts every element of a quantified filter, and refuses a back-reference among them', () => {
    expect(refusal(() => checkPatterns([filter('match', '{North,"(a)\\\\1"}', 'any')], 100))).toContain('back-reference');
    expect(refusal(() => checkPatterns([filter('match', '{{"(a)\\\\1"}}', 'any')], 100))).toContain('array literal');
  });

  it('counts each pattern at least 10 and a full-text query at least 100, inside logic trees too', () => {
    const tenLikes = Array.from({ length: 10 }, (_, i) => filter('like', String(i)));
    expect(refusal(() => checkPatterns([{ kind: 'logic', op: 'or', negate: false, conditions: tenLikes }], 100))).toBeNull();
    const eleven = [...tenLikes, filter('like', 'x')];
    expect(refusal(() => checkPatterns([{ kind: 'logic', op: 'or', negate: false, conditions: eleven }], 100))).toContain('110 characters together');
    expect(refusal(() => checkPatterns([filter('fts', 'cat')], 100))).toBeNull();
    expect(refusal(() => checkPatterns([filter('fts', 'cat'), filter('like', 'x')], 100))).toContain('together');
  });
});
