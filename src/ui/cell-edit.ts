/**
 * What a number cell writes, and when: only what the person typed, as they type it.
 *
 * - Focus alone writes nothing, and neither does leaving a cell nobody typed in: a cell
 *   that copied its shown value into an edit on focus would write that old value back
 *   over whatever another device stored meanwhile.
 * - The first keystroke remembers the value shown then (`seen`); every keystroke that
 *   makes a valid number different from the last one written stores it at once, so a
 *   page closed a moment after the last key loses nothing. An entry that is not (yet) a
 *   valid number stores `seen` again: what is kept is always either what the person typed
 *   or what was there before, never a half-typed prefix of a refused entry.
 * - Leaving the cell shows why an entry is refused; Escape goes back to `seen`.
 *
 * Pure functions over the cell's state, so the rules are tested without a browser.
 */
import type { NumberLimit } from '../domain/limits.ts';
import { parseNumberInput } from '../domain/number-input.ts';

export type CellTyping = {
  /** The cell this belongs to: cells are reused across months, keyed by position. */
  label: string;
  /** What is in the input while typing or refused; null: the cell shows its value. */
  draft: string | null;
  /** The value shown when the person started typing: what Escape and a refused entry go back to. */
  seen: number | null;
  /** The last value this cell asked to store; undefined when that write failed (the next leave retries). */
  written: number | null | undefined;
  error: string | null;
};

/** A state change, and the value to store now (synchronously, in the same event) if any. */
export type CellStep = { next: CellTyping | null; write?: { value: number | null } };

const needsWrite = (typing: CellTyping, value: number | null) => typing.written === undefined || typing.written !== value;

/** A keystroke (any input event): `shown` is what the cell displays right now. */
export function typed(current: CellTyping | null, label: string, shown: number | null, text: string, limit: NumberLimit): CellStep {
  const start: CellTyping = current ?? { label, draft: null, seen: shown, written: shown, error: null };
  const parsed = parseNumberInput(text, limit, label);
  const value = parsed.ok ? parsed.value : start.seen;
  // A refusal is said when the cell is left; typing on clears it.
  const next: CellTyping = { ...start, draft: text, error: null };
  if (!needsWrite(start, value)) return { next };
  return { next: { ...next, written: value }, write: { value } };
}

/** The cell loses focus. */
export function left(current: CellTyping | null, limit: NumberLimit): CellStep {
  if (current === null || current.draft === null) return { next: null };
  const parsed = parseNumberInput(current.draft, limit, current.label);
  if (!parsed.ok) return { next: { ...current, error: parsed.message } };
  if (!needsWrite(current, parsed.value)) return { next: null };
  return { next: null, write: { value: parsed.value } };
}

/** Escape: back to the value shown before typing (stored again if something else was stored). */
export function escaped(current: CellTyping | null): CellStep {
  if (current === null || current.draft === null) return { next: current };
  if (!needsWrite(current, current.seen)) return { next: null };
  return { next: null, write: { value: current.seen } };
}

/**
 * A write failed (the device could not store it): the cell keeps `text`, marked, with the
 * reason, and leaving it again retries. `typing` is the state now (the failure comes later
 * than the keystroke), or null once the cell was left.
 */
export function writeFailed(typing: CellTyping | null, label: string, seen: number | null, text: string, reason: string): CellTyping {
  return { label, seen, ...(typing ?? {}), draft: typing?.draft ?? text, written: undefined, error: `Not saved: ${reason}` };
}

/**
 * Whether the cell signs "saved on this device": its newest write reached the device
 * (`stored`) and the cell shows that value, not an entry being refused (which says why
 * instead, and whose write only put back the value from before typing).
 */
export function showsSaved(typing: CellTyping | null, stored: boolean, limit: NumberLimit): boolean {
  if (!stored) return false;
  if (typing === null || typing.draft === null) return true;
  return typing.error === null && parseNumberInput(typing.draft, limit, typing.label).ok;
}
