import { describe, expect, it } from 'vitest';
import { scrollToUncover } from '../../../src/ui/keep-clear.ts';

const input = { left: 20, right: 120, top: 700, bottom: 744 };

describe('keeping the focused input clear of a notice fixed at the bottom of the screen', () => {
  it('scrolls the input up to just above a notice lying over it', () => {
    // The notice starts at 720: the input's bottom (744) must rise 24 px, plus the gap.
    expect(scrollToUncover(input, { left: 8, right: 382, top: 720, bottom: 830 }, 8)).toBe(32);
  });

  it('leaves an input alone that the notice does not reach, beside or above it', () => {
    expect(scrollToUncover(input, { left: 200, right: 382, top: 690, bottom: 830 }, 8)).toBe(0);
    expect(scrollToUncover(input, { left: 8, right: 382, top: 760, bottom: 830 }, 8)).toBe(0);
  });

  it('counts an input touching the gap above the notice as covered', () => {
    expect(scrollToUncover(input, { left: 8, right: 382, top: 748, bottom: 830 }, 8)).toBe(4);
  });
});
