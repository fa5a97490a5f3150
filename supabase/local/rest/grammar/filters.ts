/**
 * Filters (`col=op.value`, `col->>key=not.like(any).{a*,b*}`), logic trees
 * (`or=(a.eq.1,not.and(b.gt.2,c.is.null))`) and their keys, as PostgREST 12's
 * pOpExpr / pLogicTree / pTreePath read them. A top-level filter's value is the rest of
 * the parameter, quotes included; inside a logic tree a value ends at `,` or `)` unless
 * quoted or an array literal in braces.
 */
import { Cursor } from './cursor.ts';
import type { Condition, Field, FtsOperator, Operation, QuantOperator, SimpleOperator } from './types.ts';

const simpleOperators: SimpleOperator[] = ['neq', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj'];
// Longer names first where one is the prefix of another (gte before gt).
const quantOperators: QuantOperator[] = ['eq', 'gte', 'gt', 'lte', 'lt', 'like', 'ilike', 'match', 'imatch'];
const ftsOperators: FtsOperator[] = ['fts', 'plfts', 'phfts', 'wfts'];
const trilean = ['null', 'not_null', 'unknown', 'true', 'false'] as const;

type ValueReader = (c: Cursor) => string;

/** The rest of the parameter: a top-level filter's value. */
const restOfValue: ValueReader = (c) => {
  const value = c.text.slice(c.i);
  c.i = c.text.length;
  return value;
};

/** A value inside a logic tree: quoted, an array literal `{...}`, or up to `,` / `)`. */
const logicValue: ValueReader = (c) => {
  const quoted = c.attempt(() => {
    const value = c.quoted();
    if (!c.done && c.peek() !== ',' && c.peek() !== ')') c.fail('expecting "," or ")"');
    return value;
  });
  if (quoted !== null) return quoted;
  if (c.peek() === '{') {
    const end = c.text.indexOf('}', c.i);
    const inner = end < 0 ? '' : c.text.slice(c.i + 1, end);
    if (end >= 0 && !inner.includes('{')) {
      c.i = end + 1;
      return `{${inner}}`;
    }
  }
  const start = c.i;
  while (!c.done && c.peek() !== ',' && c.peek() !== ')') c.i += 1;
  return c.text.slice(start, c.i);
};

/** `(a,"b,c",d)`: the list of `in`. */
function listValue(c: Cursor): string[] {
  c.skipBlanks();
  c.expect('(');
  c.skipBlanks();
  const values: string[] = [];
  for (;;) {
    const quoted = c.attempt(() => {
      const value = c.quoted();
      if (c.peek() !== ',' && c.peek() !== ')') c.fail('expecting "," or ")"');
      return value;
    });
    if (quoted !== null) values.push(quoted);
    else {
      const start = c.i;
      while (!c.done && c.peek() !== ',' && c.peek() !== ')') c.i += 1;
      values.push(c.text.slice(start, c.i));
    }
    if (!c.eat(',')) break;
  }
  c.skipBlanks();
  c.expect(')');
  c.skipBlanks();
  return values;
}

function word<T extends string>(c: Cursor, words: readonly T[]): T | null {
  // The longest match wins, so `gte` is not read as `gt` followed by `e`.
  const found = [...words].sort((a, b) => b.length - a.length).find((w) => c.startsWith(w));
  if (!found) return null;
  c.i += found.length;
  return found;
}

function operation(c: Cursor, value: ValueReader): Operation {
  const start = c.i;
  if (c.eat('in.')) return { op: 'in', values: listValue(c) };
  if (c.eat('isdistinct.')) return { op: 'isdistinct', value: value(c) };
  if (c.eat('is.')) {
    const rest = c.text.slice(c.i).toLowerCase();
    const found = trilean.find((t) => rest.startsWith(t) && (rest.length === t.length || /^[,)]/.test(rest.slice(t.length))));
    if (!found) c.fail('expecting null or trilean value (unknown, true, false)');
    c.i += found.length;
    return { op: 'is', value: found };
  }
  const fts = word(c, ftsOperators);
  if (fts) {
    let language: string | undefined;
    if (c.eat('(')) {
      language = c.identifier();
      c.expect(')');
    }
    c.expect('.');
    return { op: fts, language, value: value(c) };
  }
  c.i = start;
  const simple = word(c, simpleOperators);
  if (simple && c.eat('.')) return { op: simple, value: value(c) };
  c.i = start;
  const quant = word(c, quantOperators);
  if (quant) {
    let quantifier: 'any' | 'all' | undefined;
    if (c.eat('(any)')) quantifier = 'any';
    else if (c.eat('(all)')) quantifier = 'all';
    if (c.eat('.')) return { op: quant, quantifier, value: value(c) };
  }
  c.i = start;
  return c.fail('expecting "not" or operator (eq, gt, ...)');
}

function opExpression(c: Cursor, value: ValueReader): { negate: boolean; operation: Operation } {
  const negate = c.eat('not.');
  return { negate, operation: operation(c, value) };
}

/** `a.b.col->key`: the embed path and the field a filter, order or option key names. */
export function parseTreePath(key: string): { path: string[]; field: Field } {
  const c = new Cursor(key, `tree path (${key})`);
  const names = [c.name()];
  while (c.eat('.')) names.push(c.name());
  const jsonPath = c.jsonPath();
  if (!c.done) c.fail('expecting "." or end of input');
  return { path: names.slice(0, -1), field: { name: names[names.length - 1] as string, path: jsonPath } };
}

/** A top-level filter's value (`not.eq.5`, `fts(english).cat`) for `field`. */
export function parseFilter(field: Field, raw: string): Condition {
  const c = new Cursor(raw, `filter (${raw})`);
  const { negate, operation: op } = opExpression(c, restOfValue);
  if (!c.done) c.fail('expecting end of input');
  return { kind: 'filter', field, negate, operation: op };
}

/** Whether a value looks like a filter at all (for GET /rpc, where other parameters are arguments). */
export function isFilterValue(raw: string): boolean {
  try {
    parseFilter({ name: 'x', path: [] }, raw);
    return true;
  } catch {
    return false;
  }
}

function logicTree(c: Cursor, maxDepth: number, depth: number): Condition {
  if (depth > maxDepth) c.fail(`expecting logic nested at most ${maxDepth} levels deep`);
  const filter = c.attempt(() => {
    const field = c.field();
    c.expect('.');
    const { negate, operation: op } = opExpression(c, logicValue);
    c.skipBlanks();
    return { kind: 'filter' as const, field, negate, operation: op };
  });
  if (filter) return filter;
  const negate = c.eat('not.');
  const op = c.eat('and') ? 'and' : c.eat('or') ? 'or' : c.fail('expecting logic operator (and, or)');
  c.skipBlanks();
  c.expect('(');
  const conditions = [logicTree(c, maxDepth, depth + 1)];
  while (c.eat(',')) conditions.push(logicTree(c, maxDepth, depth + 1));
  c.skipBlanks();
  c.expect(')');
  c.skipBlanks();
  return { kind: 'logic', op, negate, conditions };
}

/** The value of an `or=` / `not.and=` parameter, the key's operator and negation given. */
export function parseLogic(op: 'and' | 'or', negate: boolean, raw: string, maxDepth: number): Condition {
  const text = `${negate ? 'not.' : ''}${op}${raw}`;
  const c = new Cursor(text, `logic tree (${raw})`);
  const tree = logicTree(c, maxDepth, 0);
  if (!c.done) c.fail('expecting end of input');
  return tree;
}

/** `a.b.not.or`: the embed path and the logic operator of a logic key, or null for another key. */
export function parseLogicKey(key: string): { path: string[]; op: 'and' | 'or'; negate: boolean } | null {
  const parts = key.split('.');
  const last = parts[parts.length - 1];
  if (last !== 'and' && last !== 'or') return null;
  const path = parts.slice(0, -1);
  const negate = path[path.length - 1] === 'not';
  return { path: negate ? path.slice(0, -1) : path, op: last, negate };
}
