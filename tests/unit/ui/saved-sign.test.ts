import { describe, expect, it } from 'vitest';
import type { NumberLimit } from '../../../src/domain/limits.ts';
import type { CellTyping } from '../../../src/ui/cell-edit.ts';
import { left, showsSaved, typed, writeFailed } from '../../../src/ui/cell-edit.ts';

const hours: NumberLimit = { kind: 'hours', label: 'Hours', min: 0, max: 99, whole: false, decimals: 2 } as NumberLimit;
const label = 'CP Hours 2031-09-03';

/** Types `text` one key at a time into a cell showing `shown`; the state after the last key. */
function typeKeys(shown: number | null, text: string): CellTyping | null {
  let state: CellTyping | null = null;
  for (let end = 1; end <= text.length; end += 1) state = typed(state, label, shown, text.slice(0, end), hours).next;
  return state;
}

describe('the "saved on this device" sign on a cell', () => {
  it('shows once the newest write reached the device, while typing and after leaving', () => {
    const state = typeKeys(null, '42.5');
    expect(showsSaved(state, true, hours)).toBe(true);
    expect(showsSaved(left(state, hours).next, true, hours)).toBe(true);
  });

  it('does not show before the write is stored', () => {
    expect(showsSaved(typeKeys(null, '42.5'), false, hours)).toBe(false);
    expect(showsSaved(null, false, hours)).toBe(false);
  });

  it('does not show for an entry being refused, though the value from before typing was stored again', () => {
    // "4" was stored, then "4x" put the value from before back: that write resolves too.
    const state = typeKeys(7, '4x');
    expect(state?.draft).toBe('4x');
    expect(showsSaved(state, true, hours)).toBe(false);
    // Leaving says why (over the limit), and still no sign.
    const over = left(typeKeys(7, '120'), hours).next;
    expect(over?.error).toMatch(/./);
    expect(showsSaved(over, true, hours)).toBe(false);
  });

  it('does not show for a write the device failed to store', () => {
    const failed = writeFailed(typeKeys(null, '5'), label, null, '5', 'storage full');
    expect(showsSaved(failed, true, hours)).toBe(false);
  });
});
