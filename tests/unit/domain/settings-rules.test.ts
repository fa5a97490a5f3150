import { describe, expect, it } from 'vitest';
import { allKpiIds, orderedSelection } from '../../../src/domain/kpis.ts';
import { targetShown } from '../../../src/domain/targets.ts';

describe('targets shown in Settings', () => {
  it('use the stored value, an empty stored value, or the spec default', () => {
    expect(targetShown({ cpElr: 190 }, 'cpElr')).toBe(190);
    expect(targetShown({ cpElr: null }, 'cpElr')).toBeNull();
    expect(targetShown({}, 'salesPerDay')).toBe(17500);
    expect(targetShown({}, 'hoursPerDay')).toBe(100);
    expect(targetShown({}, 'totalElr')).toBeNull();
    expect(targetShown({}, 'cpHoursPerRo')).toBe(2.5);
  });
});

describe('orderedSelection', () => {
  it('keeps the saved order, adds selected tiles it lacks, drops unknown ids', () => {
    expect(orderedSelection(['cpElr', 'hoursPerDay', 'bogus'], ['hoursPerDay', 'salesPerDay', 'cpElr'])).toEqual(['hoursPerDay', 'cpElr']);
    expect(orderedSelection(['cpElr', 'totalElr'], null)).toEqual(['cpElr', 'totalElr']);
    expect(allKpiIds).toHaveLength(12);
  });
});
