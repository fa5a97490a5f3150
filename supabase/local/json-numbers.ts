/**
 * JSON numbers the stack cannot pass on as sent. Request bodies are parsed in
 * JavaScript, where every number is a 64-bit float: `1e309` becomes Infinity (and was
 * then written as null), `12345678901234567890` becomes 12345678901234567000, `1e-400`
 * becomes 0. Storing a value the client did not send is worse than refusing it, so a
 * body with such a number is refused whole, naming the number.
 *
 * PostgREST itself hands the body to Postgres as text, so on hosted Supabase these
 * numbers reach the column exactly and its precision or CHECK constraint refuses them;
 * either way nothing is stored. Every value a field limit admits has at most 12
 * significant digits, far inside what a float keeps, so no valid write is refused here.
 */

export type UnrepresentableNumber = { literal: string; problem: 'out-of-range' | 'inexact'; becomes: number };

/** A parse failure (so callers that treat any SyntaxError as bad JSON stay right) that names the number. */
export class UnrepresentableNumberError extends SyntaxError {
  constructor(readonly number: UnrepresentableNumber) {
    super(
      number.problem === 'out-of-range'
        ? `The number ${number.literal} is beyond what a JSON number can carry here (about ±1.8e308)`
        : `The number ${number.literal} has more digits than can be kept exactly; it would be stored as ${number.becomes}`,
    );
  }
}

/** Strings are matched whole so that digits inside them are skipped; what remains are the number tokens. */
const tokens = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** A decimal's exact value as sign, significant digits and exponent: equal values give equal forms. */
function exactForm(literal: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!match) return literal;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  let power = Number(exponent) - fraction.length;
  const trailing = /0*$/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(0, digits.length - trailing);
  power += trailing;
  return digits === '' ? '0' : `${sign}${digits}e${power}`;
}

/** A short plain decimal of at most 15 significant digits always survives a float unchanged. */
function surelyExact(token: string): boolean {
  return token.length <= 17 && !/[eE]/.test(token) && token.replace(/[-.]/g, '').replace(/^0+/, '').length <= 15;
}

/** The first number in valid JSON text that a float would not carry exactly, or null. */
export function findUnrepresentableNumber(json: string): UnrepresentableNumber | null {
  for (const [token] of json.matchAll(tokens)) {
    if (token.startsWith('"')) continue;
    if (surelyExact(token)) continue;
    const becomes = Number(token);
    if (!Number.isFinite(becomes)) return { literal: token, problem: 'out-of-range', becomes };
    if (exactForm(token) !== exactForm(String(becomes).replace(/e\+/, 'e'))) return { literal: token, problem: 'inexact', becomes };
  }
  return null;
}

/** JSON.parse, refusing numbers a float would change (see the header). */
export function parseJsonExactly(text: string): unknown {
  const value: unknown = JSON.parse(text);
  const number = findUnrepresentableNumber(text);
  if (number) throw new UnrepresentableNumberError(number);
  return value;
}
