/**
 * Reading a number a person typed into a field: empty is "no value" (null); a plain
 * number within the field's limit is a number; anything else is refused with a message
 * naming the field and what it takes, never guessed at. Commas are read only as
 * thousands separators ("17,500"), so "1,5" is refused rather than read as 15.
 */
import { numberProblem, rangeText, shorten } from './field-rules.ts';
import type { NumberLimit } from './limits.ts';

export type ParsedNumber = { ok: true; value: number | null } | { ok: false; message: string };

/** Optional sign, digits (grouped by commas in threes, or not at all), optional decimals. No exponents, no words. */
const plainNumber = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d*)?$/;

export function parseNumberInput(text: string, limit: NumberLimit, label: string): ParsedNumber {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  if (!plainNumber.test(trimmed) || !/\d/.test(trimmed)) {
    return { ok: false, message: `${label}: "${shorten(trimmed)}" is not a number; enter ${rangeText(limit)}.` };
  }
  // "-0" is 0; Number() of a plain decimal is the nearest double, exact for every value a limit admits.
  const value = Number(trimmed.replaceAll(',', '')) + 0;
  // Counted on the typed text: a double may round extra decimals away ("1.0000000000000001" reads as 1).
  const typedDecimals = (trimmed.split('.')[1] ?? '').replace(/0+$/, '').length;
  const problem = typedDecimals > limit.decimals ? decimalsProblem(limit) : numberProblem(limit, value);
  return problem ? { ok: false, message: `${label}: ${problem}.` } : { ok: true, value };
}

function decimalsProblem(limit: NumberLimit): string {
  return limit.whole ? `enter ${rangeText(limit)}` : `enter ${rangeText(limit)} with at most ${limit.decimals} decimals`;
}
