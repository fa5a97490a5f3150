/**
 * The `select=` parameter: fields with aliases, JSON paths and casts, aggregates
 * (`amount.sum()`, `count()`), embedded resources with hints and join types
 * (`alias:table!hint!inner(...)`) and spread embeds (`...table(...)`), as PostgREST 12's
 * pFieldForest reads them.
 */
import { Cursor } from './cursor.ts';
import type { AggregateName, JoinType, SelectItem } from './types.ts';

const aggregates: AggregateName[] = ['sum', 'avg', 'count', 'max', 'min'];

function atItemEnd(c: Cursor): boolean {
  return c.done || c.peek() === ',' || c.peek() === ')';
}

function endItem(c: Cursor): void {
  c.skipBlanks();
  if (!atItemEnd(c)) c.fail('expecting "," ")" or end of input');
}

/** An alias before `:` (but not `::`), or nothing. */
function alias(c: Cursor): string | undefined {
  return (
    c.attempt(() => {
      const name = c.name();
      if (c.peek() !== ':' || c.peek(1) === ':') c.fail('expecting ":"');
      c.i += 1;
      return name;
    }) ?? undefined
  );
}

/** Up to two `!hint` / `!inner` / `!left` parameters of an embed. */
function embedParams(c: Cursor): { hint?: string; join?: JoinType } {
  const out: { hint?: string; join?: JoinType } = {};
  for (let n = 0; n < 2 && c.eat('!'); n += 1) {
    const word = c.name();
    if (word === 'inner' || word === 'left') out.join ??= word;
    else out.hint ??= word;
  }
  return out;
}

/**
 * Deeper than this the parser refuses before its own recursion could exhaust the stack;
 * the embed-depth cost limit, far lower, refuses such a request anyway.
 */
const maxNesting = 32;

function embed(c: Cursor, spread: boolean, depth: number): Extract<SelectItem, { kind: 'embed' }> {
  c.skipBlanks();
  if (depth >= maxNesting) c.fail(`expecting at most ${maxNesting} levels of embedded resources`);
  const as = spread ? undefined : alias(c);
  if (spread) c.expect('...');
  const relation = c.name();
  // `count(...)` is the aggregate, never a relation (PostgREST's `guard (name /= "count")`).
  if (!spread && relation === 'count') c.fail('expecting a relation name other than count');
  const params = embedParams(c);
  if (c.peek() !== '(') c.fail('expecting "("');
  c.i += 1;
  const select = forest(c, depth + 1);
  c.expect(')');
  c.skipBlanks();
  return { kind: 'embed', relation, alias: as, hint: params.hint, join: params.join, spread, select };
}

function field(c: Cursor): SelectItem {
  c.skipBlanks();
  if (c.eat('*')) {
    endItem(c);
    return { kind: 'field', field: { name: '*', path: [] } };
  }
  const counted = c.attempt(() => {
    const as = alias(c);
    c.expect('count()');
    const aggregateCast = c.eat('::') ? c.identifier() : undefined;
    endItem(c);
    return { kind: 'field' as const, field: { name: '*', path: [] }, alias: as, aggregate: 'count' as const, aggregateCast };
  });
  if (counted) return counted;
  const as = alias(c);
  const f = c.field();
  const cast = c.eat('::') ? c.identifier() : undefined;
  let aggregate: AggregateName | undefined;
  const dotted = c.attempt(() => {
    c.expect('.');
    const name = aggregates.find((a) => c.startsWith(`${a}()`));
    if (!name) c.fail('expecting an aggregate (sum(), avg(), count(), max(), min())');
    c.i += name.length + 2;
    return name;
  });
  if (dotted) aggregate = dotted;
  const aggregateCast = aggregate && c.eat('::') ? c.identifier() : undefined;
  endItem(c);
  return { kind: 'field', field: f, alias: as, cast, aggregate, aggregateCast };
}

function item(c: Cursor, depth: number): SelectItem {
  return c.attempt(() => embed(c, true, depth)) ?? c.attempt(() => embed(c, false, depth)) ?? field(c);
}

function forest(c: Cursor, depth: number): SelectItem[] {
  c.skipBlanks();
  if (atItemEnd(c)) return [];
  const items = [item(c, depth)];
  while (c.eat(',')) items.push(item(c, depth));
  return items;
}

/** The select tree; an empty parameter selects every column, as `*` does. */
export function parseSelect(input: string): SelectItem[] {
  const c = new Cursor(input, `select parameter (${input})`);
  if (input.trim() === '') return [{ kind: 'field', field: { name: '*', path: [] } }];
  const items = forest(c, 0);
  if (!c.done) c.fail('expecting "," or end of input');
  return items;
}
