/**
 * A reading position in one query-string value, and the lexical pieces every part of
 * the PostgREST grammar shares: field names (quoted or bare, with inner dashes and
 * spaces), JSON paths and quoted values. Parsing follows PostgREST 12's
 * ApiRequest/QueryParams.hs; a refusal names the value and the position, as its
 * PGRST100 errors do.
 */
import { RestError } from '../errors.ts';
import type { Field, JsonStep } from './types.ts';

const identifierChar = /[\p{L}0-9_ $]/u;
/** Characters a bare JSON key may not hold (PostgREST's pJsonKeyIdentifier). */
const jsonKeyStop = new Set(['(', '-', ':', '.', ',', '>', ')']);

export class Cursor {
  i = 0;
  constructor(
    readonly text: string,
    /** What is being parsed, as PostgREST's messages say it: "select parameter (...)", "filter (...)". */
    readonly what: string,
  ) {}

  get done(): boolean {
    return this.i >= this.text.length;
  }

  peek(offset = 0): string {
    return this.text[this.i + offset] ?? '';
  }

  startsWith(s: string): boolean {
    return this.text.startsWith(s, this.i);
  }

  eat(s: string): boolean {
    if (!this.startsWith(s)) return false;
    this.i += s.length;
    return true;
  }

  expect(s: string): void {
    if (!this.eat(s)) this.fail(`expecting "${s}"`);
  }

  skipBlanks(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.i += 1;
  }

  fail(why: string): never {
    const found = this.done ? 'end of input' : `"${this.peek()}"`;
    throw new RestError(
      400,
      'PGRST100',
      `"failed to parse ${this.what}" (line 1, column ${this.i + 1})`,
      `unexpected ${found} ${why}`,
    );
  }

  /** Runs `parse`; on failure puts the position back and returns null (PostgREST's `try`). */
  attempt<T>(parse: () => T): T | null {
    const start = this.i;
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof RestError)) throw error;
      this.i = start;
      return null;
    }
  }

  /** `"..."` with backslash escapes. */
  quoted(): string {
    this.expect('"');
    let out = '';
    for (;;) {
      if (this.done) this.fail('expecting closing quote');
      const ch = this.peek();
      this.i += 1;
      if (ch === '"') return out;
      if (ch === '\\') {
        if (this.done) this.fail('expecting an escaped character');
        out += this.peek();
        this.i += 1;
      } else out += ch;
    }
  }

  /** Bare words separated by single dashes not followed by `>` (`identifier-with-dashes`). */
  private dashed(isChar: (ch: string) => boolean, what: string): string {
    const parts: string[] = [];
    for (;;) {
      const start = this.i;
      while (!this.done && isChar(this.peek())) this.i += 1;
      if (this.i === start) this.fail(`expecting ${what}`);
      parts.push(this.text.slice(start, this.i).trim());
      if (this.peek() === '-' && this.peek(1) !== '>') this.i += 1;
      else return parts.join('-');
    }
  }

  /** A column, table, alias or hint name: quoted, or letters, digits, `_`, `$` and inner spaces. */
  name(): string {
    if (this.peek() === '"') return this.quoted();
    const name = this.dashed((ch) => identifierChar.test(ch), 'field name (* or [a..z0..9_$])');
    if (name === '') this.fail('expecting field name (* or [a..z0..9_$])');
    return name;
  }

  /** A cast or aggregate-cast type name: letters, digits, `_`, `$` and spaces. */
  identifier(): string {
    const start = this.i;
    while (!this.done && identifierChar.test(this.peek())) this.i += 1;
    const word = this.text.slice(start, this.i).trim();
    if (word === '') this.fail('expecting letter or digit');
    return word;
  }

  jsonPath(): JsonStep[] {
    const steps: JsonStep[] = [];
    for (;;) {
      const arrow = this.eat('->>') ? '->>' : this.eat('->') ? '->' : null;
      if (!arrow) return steps;
      const index = /^-?\d+/.exec(this.text.slice(this.i));
      const after = index ? this.text.slice(this.i + index[0].length) : '';
      if (index && (after === '' || /^(->|::|\.|,|\))/.test(after))) {
        this.i += index[0].length;
        steps.push({ arrow, key: index[0], index: true });
      } else if (this.peek() === '"') {
        steps.push({ arrow, key: this.quoted(), index: false });
      } else {
        steps.push({ arrow, key: this.dashed((ch) => !jsonKeyStop.has(ch), 'a JSON key'), index: false });
      }
    }
  }

  field(): Field {
    this.skipBlanks();
    const name = this.name();
    const path = this.jsonPath();
    this.skipBlanks();
    return { name, path };
  }
}
