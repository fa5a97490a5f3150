/**
 * The `order=` parameter (`age.desc.nullslast`, `data->>lat`, `directors(last_name).desc`),
 * `limit`/`offset` counts and the `columns=` / `on_conflict=` name lists, as PostgREST 12
 * reads them.
 */
import { RestError } from '../errors.ts';
import { Cursor } from './cursor.ts';
import type { OrderTerm } from './types.ts';

function modifiers(c: Cursor, term: OrderTerm): void {
  if (c.eat('.asc')) term.descending = false;
  else if (c.eat('.desc')) term.descending = true;
  if (c.eat('.nullsfirst')) term.nulls = 'first';
  else if (c.eat('.nullslast')) term.nulls = 'last';
  c.skipBlanks();
  if (!c.done && c.peek() !== ',') c.fail('expecting "asc", "desc", "nullsfirst" or "nullslast"');
}

function term(c: Cursor): OrderTerm {
  c.skipBlanks();
  const related = c.attempt(() => {
    const relation = c.name();
    c.expect('(');
    const field = c.field();
    c.expect(')');
    return { relation, field };
  });
  const t: OrderTerm = related ?? { field: c.field() };
  modifiers(c, t);
  return t;
}

export function parseOrder(raw: string): OrderTerm[] {
  const c = new Cursor(raw, `order (${raw})`);
  const terms = [term(c)];
  while (c.eat(',')) terms.push(term(c));
  if (!c.done) c.fail('expecting "," or end of input');
  return terms;
}

/** `limit` / `offset`: a non-negative whole number. */
export function parseCount(raw: string | null, what: string): number | undefined {
  if (raw === null) return undefined;
  if (!/^\d{1,9}$/.test(raw)) throw new RestError(400, 'PGRST100', `"${what}" must be a non-negative integer`, raw);
  return Number(raw);
}

/** A `columns=` or `on_conflict=` list: names, optionally double-quoted. */
export function parseNameList(raw: string, what: string): string[] {
  const c = new Cursor(raw, `${what} parameter (${raw})`);
  c.skipBlanks();
  const names = [c.name()];
  c.skipBlanks();
  while (c.eat(',')) {
    c.skipBlanks();
    names.push(c.name());
    c.skipBlanks();
  }
  if (!c.done) c.fail('expecting "," or end of input');
  return names;
}
