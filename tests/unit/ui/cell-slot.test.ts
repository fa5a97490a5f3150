import { describe, expect, it } from 'vitest';
import type { CellShown } from '../../../src/ui/NumberCell.tsx';
import { CellSlot } from '../../../src/ui/NumberCell.tsx';

const march: CellShown = { label: 'CP Hours 2031-03-03', value: 50, unsubmitted: false };
const april: CellShown = { label: 'CP Hours 2031-04-07', value: null, unsubmitted: false };

describe('CellSlot: what a cell kept across months shows', () => {
  it('shows what it was made with until the grid writes something else', () => {
    const slot = new CellSlot(march);
    expect(slot.shown).toEqual(march);
    slot.write(april);
    expect(slot.shown).toEqual(april);
  });

  it('tells the cell on the page of each change, with what it showed before', () => {
    const slot = new CellSlot(march);
    const seen: Array<[string, string]> = [];
    slot.attach((before, next) => seen.push([before.label, next.label]));
    slot.write(april);
    slot.write(march);
    expect(seen).toEqual([
      ['CP Hours 2031-03-03', 'CP Hours 2031-04-07'],
      ['CP Hours 2031-04-07', 'CP Hours 2031-03-03'],
    ]);
  });

  it('stays quiet when the same label, value and mark are written again (a grid writes every cell on each drawing)', () => {
    const slot = new CellSlot(march);
    let changes = 0;
    slot.attach(() => (changes += 1));
    slot.write({ ...march });
    expect(changes).toBe(0);
    slot.write({ ...march, value: 51 });
    slot.write({ ...march, value: 51, unsubmitted: true });
    expect(changes).toBe(2);
  });

  it('keeps what is written while no cell is attached, and a cell that let go hears nothing', () => {
    const slot = new CellSlot(march);
    let first = 0;
    let second = 0;
    const letGoFirst = slot.attach(() => (first += 1));
    letGoFirst();
    slot.write(april);
    expect([first, slot.shown.label]).toEqual([0, april.label]);
    // A cell drawn again attaches anew; the old one letting go late does not detach it.
    const letGoAgain = slot.attach(() => (first += 1));
    slot.attach(() => (second += 1));
    letGoAgain();
    slot.write(march);
    expect([first, second]).toEqual([0, 1]);
  });
});
