/**
 * Refuses, before any SQL runs, the patterns whose matching could hold the database for
 * seconds: PGlite cannot interrupt a statement, and a regular expression with
 * back-references is exponential in its groups. Every `match`, `imatch`, `like` and
 * `ilike` pattern of a request (top-level, negated, inside `or`/`and`, on an embedded
 * resource, each element of `(any)`/`(all)`, on an RPC's result), and every full-text
 * query, is checked here: back-references, lookaround constraints and the other
 * syntaxes are refused, and the patterns together may be at most `maxPatternLength`
 * characters long, a repetition `{m,n}` counting n times what it repeats
 * (docs/security.md, "Cost limits").
 */
import { refuse } from './errors.ts';
import type { Condition } from './grammar/types.ts';

const patternOperators = new Set(['match', 'imatch', 'like', 'ilike', 'fts', 'plfts', 'phfts', 'wfts']);

/**
 * The least a pattern counts, whatever its length: each one is a pass over every row's
 * text, and a full-text filter turns every row's text into a tsvector first (most of its
 * cost), so it takes the whole budget.
 */
const leastCost = { pattern: 10, fullText: 100 } as const;

const excerpt = (pattern: string) => (pattern.length > 60 ? `${pattern.slice(0, 60)}...` : pattern);

function refusePattern(pattern: string, what: string, hint: string): never {
  throw refuse(`The pattern ${what}.`, `Pattern: ${excerpt(pattern)}`, hint);
}

/** The elements of a Postgres array literal `{a,"b,c"}`, as the server would read them; null when it is not one. */
export function arrayLiteralElements(literal: string): string[] | null {
  const text = literal.trim();
  if (!text.startsWith('{') || !text.endsWith('}')) return null;
  const elements: string[] = [];
  let i = 1;
  const end = text.length - 1;
  while (i < end) {
    while (i < end && /\s/.test(text[i] as string)) i += 1;
    let element = '';
    if (text[i] === '"') {
      i += 1;
      while (i < end && text[i] !== '"') {
        if (text[i] === '\\') i += 1;
        element += text[i] ?? '';
        i += 1;
      }
      if (text[i] !== '"') return null;
      i += 1;
    } else {
      while (i < end && text[i] !== ',') {
        if (text[i] === '{' || text[i] === '}' || text[i] === '"') return null;
        if (text[i] === '\\') i += 1;
        element += text[i] ?? '';
        i += 1;
      }
      element = element.trim();
    }
    elements.push(element);
    while (i < end && /\s/.test(text[i] as string)) i += 1;
    if (i < end && text[i] !== ',') return null;
    i += 1;
  }
  return elements;
}

/** A bound `{m}`, `{m,}` or `{m,n}` at `i`: its length in the pattern and how many copies it makes. */
function readBound(pattern: string, i: number): { length: number; copies: number } | null {
  const bound = /^\{(\d{1,5})(,(\d{0,5}))?\}/.exec(pattern.slice(i));
  if (!bound) return null;
  const low = Number(bound[1]);
  const copies = bound[2] === undefined ? low : bound[3] ? Number(bound[3]) : low + 1;
  return { length: bound[0].length, copies: Math.max(copies, 1) };
}

/** The end (exclusive) of the bracket expression opening at `i`. */
function bracketEnd(pattern: string, i: number): number {
  let j = i + 1;
  if (pattern[j] === '^') j += 1;
  if (pattern[j] === ']') j += 1;
  while (j < pattern.length && pattern[j] !== ']') {
    if (pattern[j] === '[' && /[:.=]/.test(pattern[j + 1] ?? '')) {
      const close = pattern.indexOf(`${pattern[j + 1]}]`, j + 2);
      j = close < 0 ? pattern.length : close + 2;
    } else j += pattern[j] === '\\' ? 2 : 1;
  }
  return Math.min(j + 1, pattern.length);
}

/**
 * A regular expression's length with every bounded repetition written out, refusing the
 * constructs whose cost that length does not bound. The count errs on the high side
 * (an escape counts its characters), never low.
 */
export function regexCost(pattern: string): number {
  if (pattern.startsWith('***=')) return pattern.length - 4;
  let body = pattern.startsWith('***:') ? pattern.slice(4) : pattern;
  const options = /^\(\?([a-z]*)\)/.exec(body);
  if (options) {
    // Other syntaxes would be read differently from how they are counted here.
    if (/[bex]/.test(options[1] as string)) {
      refusePattern(pattern, 'uses the basic, extended or expanded syntax ((?b), (?e), (?x))', 'Write it in the default (advanced) syntax.');
    }
    if (options[1]?.includes('q')) return body.length - options[0].length;
    body = body.slice(options[0].length);
  }
  // Each open group's cost so far, and the cost of the atom just read (for a quantifier).
  const groups: number[] = [0];
  let last = 0;
  let i = 0;
  while (i < body.length) {
    const c = body[i] as string;
    if (c === '\\') {
      if (/[1-9]/.test(body[i + 1] ?? '')) {
        refusePattern(pattern, 'uses a back-reference (\\1 to \\9), which can take exponential time', 'Match without back-references.');
      }
      last = 2;
      i += 2;
    } else if (c === '[') {
      const end = bracketEnd(body, i);
      last = end - i;
      i = end;
    } else if (c === '(') {
      if (/^\(\?<?[=!]/.test(body.slice(i))) {
        refusePattern(pattern, 'uses a lookahead or lookbehind constraint ((?=, (?!, (?<=, (?<!)', 'Match without lookaround constraints.');
      }
      const opening = body.startsWith('(?:', i) ? 3 : 1;
      groups.push(opening + 1);
      last = 0;
      i += opening;
      continue;
    } else if (c === ')' && groups.length > 1) {
      last = groups.pop() as number;
      i += 1;
    } else if (c === '{' && readBound(body, i)) {
      const bound = readBound(body, i) as { length: number; copies: number };
      // The atom is already counted once: add the further copies and the bound's text.
      const added = last * (bound.copies - 1) + bound.length;
      groups[groups.length - 1] = (groups[groups.length - 1] as number) + added;
      last += added;
      i += bound.length;
      if (body[i] === '?') i += 1;
      continue;
    } else {
      last = 1;
      i += 1;
    }
    groups[groups.length - 1] = (groups[groups.length - 1] as number) + last;
  }
  // Unclosed groups are Postgres's error to report; their text still counts.
  return groups.reduce((sum, cost) => sum + cost, 0);
}

function patternsOf(condition: Condition): Array<{ op: string; pattern: string }> {
  if (condition.kind === 'logic') return condition.conditions.flatMap(patternsOf);
  const { operation } = condition;
  if (!patternOperators.has(operation.op) || !('value' in operation)) return [];
  const quantified = 'quantifier' in operation && operation.quantifier;
  if (!quantified) return [{ op: operation.op, pattern: operation.value }];
  const elements = arrayLiteralElements(operation.value);
  if (!elements) {
    refusePattern(operation.value, 'list is not a one-dimensional array literal', 'Write the patterns as {a,b,"c,d"}.');
  }
  return elements.map((pattern) => ({ op: operation.op, pattern }));
}

function patternCost(op: string, pattern: string): number {
  if (op === 'match' || op === 'imatch') return Math.max(regexCost(pattern), leastCost.pattern);
  if (op === 'like' || op === 'ilike') return Math.max(pattern.length, leastCost.pattern);
  return Math.max(pattern.length, leastCost.fullText);
}

/** Refuses the request when one of its patterns, or all of them together, cost more than `maxPatternLength`. */
export function checkPatterns(conditions: Condition[], maxPatternLength: number): number {
  let total = 0;
  for (const { op, pattern } of conditions.flatMap(patternsOf)) {
    const cost = patternCost(op, pattern);
    if (cost > maxPatternLength) {
      refusePattern(pattern, `is ${cost} characters long${op.endsWith('match') ? ' with its repetitions written out' : ''}; at most ${maxPatternLength} are allowed`,
        'Use a shorter pattern, or fewer or smaller repetitions {m,n}.');
    }
    total += cost;
    if (total > maxPatternLength) {
      refusePattern(pattern, `brings the request's patterns to ${total} characters together; at most ${maxPatternLength} are allowed`,
        `Use fewer or shorter patterns in one request (each counts at least ${leastCost.pattern}, a full-text query ${leastCost.fullText}).`);
    }
  }
  return total;
}
