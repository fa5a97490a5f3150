import { describe, expect, it } from 'vitest';
import type { NumberLimit } from '../../../src/domain/limits.ts';
import type { CellStep, CellTyping } from '../../../src/ui/cell-edit.ts';
import { escaped, left, typed, writeFailed } from '../../../src/ui/cell-edit.ts';

const hours: NumberLimit = { kind: 'hours', label: 'Hours', min: 0, max: 99, whole: false, decimals: 2 } as NumberLimit;
const label = 'CP Hours 2031-09-03';

/** Types `text` one key at a time into a cell showing `shown`; returns every value stored, in order, and the state after. */
function typeKeys(shown: number | null, text: string, start: CellTyping | null = null) {
  let state = start;
  const stored: Array<number | null> = [];
  for (let end = 1; end <= text.length; end += 1) {
    const step = typed(state, label, shown, text.slice(0, end), hours);
    if (step.write) stored.push(step.write.value);
    state = step.next;
  }
  return { stored, state };
}

const written = (step: CellStep) => (step.write ? [step.write.value] : []);

describe('a number cell writes only what was typed', () => {
  it('writes nothing when left without typing (focus alone is no edit)', () => {
    expect(left(null, hours)).toEqual({ next: null });
  });

  it('stores each keystroke that makes a new valid number, in the same event', () => {
    const { stored, state } = typeKeys(100, '42.5');
    // "42." is 42 again: not written twice.
    expect(stored).toEqual([4, 42, 42.5]);
    expect(state).toMatchObject({ draft: '42.5', seen: 100, written: 42.5, error: null });
    // Leaving after the last key writes nothing more: it is stored already.
    expect(left(state, hours)).toEqual({ next: null });
  });

  it('remembers the value shown when typing started, whatever the cell shows later', () => {
    const first = typed(null, label, 100, '1', hours);
    // Another device's 200 reaches the screen while the person types: the start stays 100.
    const second = typed(first.next, label, 200, '15', hours);
    expect(second.next).toMatchObject({ seen: 100, draft: '15' });
    expect(escaped(second.next)).toEqual({ next: null, write: { value: 100 } });
  });

  it('writes nothing when what was typed is the value it started from', () => {
    const { stored, state } = typeKeys(5, '5');
    expect(stored).toEqual([]);
    expect(left(state, hours)).toEqual({ next: null });
  });

  it('stores the value from before typing while an entry is not a valid number, and says why on leaving', () => {
    const { stored, state } = typeKeys(7, '12x');
    expect(stored).toEqual([1, 12, 7]);
    const leaving = left(state, hours);
    expect(written(leaving)).toEqual([]);
    expect(leaving.next).toMatchObject({ draft: '12x', error: expect.stringContaining('is not a number') });
    // Corrected: stored as typed, and the mark goes.
    const fixed = typed(leaving.next, label, 7, '12', hours);
    expect(fixed).toMatchObject({ write: { value: 12 }, next: { error: null } });
  });

  it('refuses a value above the field limit without storing any of it', () => {
    const { stored, state } = typeKeys(null, '-5');
    expect(stored).toEqual([]);
    expect(left(state, hours).next?.error).toMatch(/Hours/);
  });

  it('stores an emptied cell as no value', () => {
    const step = typed(null, label, 8, '', hours);
    expect(step.write).toEqual({ value: null });
  });

  it('Escape goes back to the value from before typing, stored again only if something else was stored', () => {
    expect(escaped(typeKeys(3, '9').state)).toEqual({ next: null, write: { value: 3 } });
    expect(escaped(typeKeys(3, '3').state)).toEqual({ next: null });
    expect(escaped(null)).toEqual({ next: null });
  });

  it('keeps a value the device failed to store, marked, and retries it on leaving', () => {
    const { state } = typeKeys(1, '23');
    const failed = writeFailed(state, label, 1, '23', 'This device is out of storage space');
    expect(failed).toMatchObject({ draft: '23', written: undefined, error: 'Not saved: This device is out of storage space' });
    expect(left(failed, hours)).toEqual({ next: null, write: { value: 23 } });
    // A failure arriving after the cell was left brings the typed text back.
    expect(writeFailed(null, label, 1, '23', 'full')).toMatchObject({ label, seen: 1, draft: '23', written: undefined });
  });
});
