/**
 * The PostgREST query grammar supabase-js produces: select lists with aliases, casts and
 * embedded resources; filters with operators, `not.`, `in.(...)`, `is.`; nested
 * `or=(...)`/`and(...)` logic; and order terms. Parsing only: names are checked against
 * the schema later, and values never become SQL text.
 */
import { parseError, RestError } from './errors.ts';

export type SelectItem =
  | { kind: 'star' }
  | { kind: 'column'; name: string; alias?: string; cast?: string }
  | { kind: 'embed'; relation: string; alias?: string; hint?: string; inner: boolean; select: SelectItem[] };

export type Operator = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'like' | 'ilike' | 'is' | 'in' | 'cs' | 'cd';

export type Condition =
  | { kind: 'filter'; column: string; op: Operator; negate: boolean; value: string | string[] }
  | { kind: 'logic'; op: 'and' | 'or'; negate: boolean; conditions: Condition[] };

export type OrderTerm = { column: string; descending: boolean; nulls?: 'first' | 'last' };

const operators = new Set<Operator>(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'is', 'in', 'cs', 'cd']);
const identifierChar = /[A-Za-z0-9_$]/;

/** The text without whitespace outside double quotes, in one pass (a regular expression would take quadratic time). */
function withoutBlanks(input: string): string {
  let out = '';
  let quoted = false;
  for (const ch of input) {
    if (ch === '"') quoted = !quoted;
    if (quoted || !/\s/.test(ch)) out += ch;
  }
  return out;
}

export function parseSelect(input: string): SelectItem[] {
  const text = withoutBlanks(input);
  if (text === '') return [{ kind: 'star' }];
  let i = 0;
  const fail = (why: string): never => {
    throw parseError('select parameter', `${why} at position ${i} of "${input}"`);
  };

  function name(): string {
    if (text[i] === '"') {
      let out = '';
      i += 1;
      for (;;) {
        if (i >= text.length) fail('unterminated quoted name');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            out += '"';
            i += 2;
            continue;
          }
          i += 1;
          return out;
        }
        out += text[i];
        i += 1;
      }
    }
    const start = i;
    while (i < text.length && identifierChar.test(text[i] as string)) i += 1;
    if (i === start) fail('expected a name');
    return text.slice(start, i);
  }

  function item(): SelectItem {
    if (text[i] === '*') {
      i += 1;
      return { kind: 'star' };
    }
    let first = name();
    let alias: string | undefined;
    if (text[i] === ':' && text[i + 1] !== ':') {
      i += 1;
      alias = first;
      first = name();
    }
    let cast: string | undefined;
    if (text.startsWith('::', i)) {
      i += 2;
      cast = name();
    }
    let hint: string | undefined;
    let inner = false;
    while (text[i] === '!') {
      i += 1;
      const word = name();
      if (word === 'inner') inner = true;
      else if (word !== 'left') hint = word;
    }
    if (text[i] === '(') {
      i += 1;
      const select = text[i] === ')' ? [] : list();
      if (text[i] !== ')') fail('expected ")"');
      i += 1;
      return { kind: 'embed', relation: first, alias, hint, inner, select };
    }
    if (hint || inner) fail('a hint needs an embedded resource');
    return { kind: 'column', name: first, alias, cast };
  }

  function list(): SelectItem[] {
    const items = [item()];
    while (text[i] === ',') {
      i += 1;
      items.push(item());
    }
    return items;
  }

  const items = list();
  if (i !== text.length) fail('unexpected character');
  return items;
}

/** Splits on commas that are outside parentheses and double quotes. */
function splitTopLevel(text: string, what: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '\\' && quoted) i += 1;
    else if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === '(') depth += 1;
    else if (!quoted && ch === ')') {
      depth -= 1;
      if (depth < 0) throw parseError(what, `unbalanced ")" in "${text}"`);
    } else if (!quoted && depth === 0 && ch === ',') {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0 || quoted) throw parseError(what, `unbalanced parentheses or quotes in "${text}"`);
  parts.push(text.slice(start));
  return parts;
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return value;
}

/** Parses `op.value` (optionally `not.op.value`) for `column`. */
export function parseFilter(column: string, raw: string): Condition {
  let rest = raw;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const dot = rest.indexOf('.');
  const op = (dot < 0 ? rest : rest.slice(0, dot)) as Operator;
  if (!operators.has(op)) {
    throw parseError('filter', `unknown operator "${dot < 0 ? rest : rest.slice(0, dot)}" for "${column}"`);
  }
  if (dot < 0) throw parseError('filter', `"${column}" needs a value after "${op}."`);
  const value = rest.slice(dot + 1);
  if (op === 'in') {
    if (!value.startsWith('(') || !value.endsWith(')')) {
      throw parseError('filter', `"in" needs a list in parentheses for "${column}"`);
    }
    const inner = value.slice(1, -1);
    const items = inner === '' ? [] : splitTopLevel(inner, 'filter').map(unquote);
    return { kind: 'filter', column, op, negate, value: items };
  }
  if (op === 'is' && !['null', 'not_null', 'true', 'false', 'unknown'].includes(value.toLowerCase())) {
    throw parseError('filter', `"is" takes null, not_null, true, false or unknown, not "${value}"`);
  }
  return { kind: 'filter', column, op, negate, value: unquote(value) };
}

/** Parses the value of `or=`/`and=` (the key's operator and negation given), nested at most `maxDepth` deep. */
export function parseLogic(op: 'and' | 'or', negate: boolean, raw: string, maxDepth: number, depth = 0): Condition {
  if (depth > maxDepth) throw parseError('logic tree', `nested deeper than ${maxDepth} levels`);
  if (!raw.startsWith('(') || !raw.endsWith(')')) {
    throw parseError('logic tree', `"${op}" needs its conditions in parentheses`);
  }
  const inner = raw.slice(1, -1);
  if (inner === '') throw parseError('logic tree', `"${op}" needs at least one condition`);
  const conditions = splitTopLevel(inner, 'logic tree').map((part) => {
    const nested = /^(not\.)?(and|or)(\(.*\))$/s.exec(part);
    if (nested) return parseLogic(nested[2] as 'and' | 'or', !!nested[1], nested[3] as string, maxDepth, depth + 1);
    const dot = part.indexOf('.');
    if (dot <= 0) throw parseError('logic tree', `expected "column.operator.value" in "${part}"`);
    return parseFilter(part.slice(0, dot), part.slice(dot + 1));
  });
  return { kind: 'logic', op, negate, conditions };
}

export function parseOrder(raw: string): OrderTerm[] {
  return splitTopLevel(raw, 'order').map((term) => {
    const [column, ...modifiers] = term.split('.');
    if (!column || !/^[A-Za-z0-9_$]+$/.test(column)) throw parseError('order', `bad order term "${term}"`);
    const order: OrderTerm = { column, descending: false };
    for (const modifier of modifiers) {
      if (modifier === 'asc') order.descending = false;
      else if (modifier === 'desc') order.descending = true;
      else if (modifier === 'nullsfirst') order.nulls = 'first';
      else if (modifier === 'nullslast') order.nulls = 'last';
      else throw parseError('order', `unknown modifier "${modifier}" in "${term}"`);
    }
    return order;
  });
}

export function parseCount(raw: string | null, what: string): number | undefined {
  if (raw === null) return undefined;
  if (!/^\d{1,9}$/.test(raw)) throw new RestError(400, 'PGRST100', `"${what}" must be a non-negative integer`, raw);
  return Number(raw);
}

/** A `columns=` or `on_conflict=` list: names, optionally double-quoted. */
export function parseNameList(raw: string, what: string): string[] {
  const names = splitTopLevel(raw, what).map((part) => unquote(part.trim()));
  if (names.some((name) => name === '')) throw parseError(what, `empty name in "${raw}"`);
  return names;
}
