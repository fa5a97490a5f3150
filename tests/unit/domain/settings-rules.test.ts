import { describe, expect, it } from 'vitest';
import { allKpiIds, orderedSelection } from '../../../src/domain/kpis.ts';
import { parseNumberInput } from '../../../src/domain/number-input.ts';
import { targetShown } from '../../../src/domain/targets.ts';

describe('parseNumberInput', () => {
  it.each([
    ['', { ok: true, value: null }],
    ['  ', { ok: true, value: null }],
    ['180', { ok: true, value: 180 }],
    ['17,500', { ok: true, value: 17500 }],
    ['189.95', { ok: true, value: 189.95 }],
    ['-3', { ok: true, value: -3 }],
  ])('reads "%s"', (text, parsed) => {
    expect(parseNumberInput(text)).toEqual(parsed);
  });
  it('refuses text and, where whole numbers are wanted, fractions', () => {
    expect(parseNumberInput('abc', { label: 'Stalls' })).toEqual({ ok: false, message: 'Stalls: "abc" is not a number.' });
    expect(parseNumberInput('2.5', { integer: true, label: 'Stalls' })).toEqual({ ok: false, message: 'Stalls: enter a whole number.' });
  });
});

describe('targets shown in Settings', () => {
  it('use the stored value, an empty stored value, or the spec default', () => {
    expect(targetShown({ cpElr: 190 }, 'cpElr')).toBe(190);
    expect(targetShown({ cpElr: null }, 'cpElr')).toBeNull();
    expect(targetShown({}, 'salesPerDay')).toBe(17500);
    expect(targetShown({}, 'hoursPerDay')).toBe(100);
    expect(targetShown({}, 'daysComplete')).toBeNull();
  });
});

describe('orderedSelection', () => {
  it('keeps the saved order, adds selected tiles it lacks, drops unknown ids', () => {
    expect(orderedSelection(['cpElr', 'hoursPerDay', 'bogus'], ['hoursPerDay', 'salesPerDay', 'cpElr'])).toEqual(['hoursPerDay', 'cpElr']);
    expect(orderedSelection(['cpElr', 'totalElr'], null)).toEqual(['cpElr', 'totalElr']);
    expect(allKpiIds).toHaveLength(12);
  });
});
