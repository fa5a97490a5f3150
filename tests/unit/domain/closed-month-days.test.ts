import { describe, expect, it } from 'vitest';
import type { EnteredDays } from '../../../src/domain/work-days.ts';
import { monthDays, withClosedMonths, workPattern } from '../../../src/domain/work-days.ts';

// October 2026: 31 days, Thursday the 1st; 4 Sundays and 5 Saturdays. November 2026:
// 30 days, Sunday the 1st; 5 Sundays and 4 Saturdays (read off a printed calendar).
const none = new Map<string, EnteredDays>();
const afterBoth = '2026-12-15';

describe("a closed month's work days come from the pattern it was closed with", () => {
  it('keeps October at 27 work days (Monday to Saturday, as closed) after the store moves to Monday to Friday', () => {
    const now = workPattern('1111100');
    const closed = withClosedMonths(now, new Map([['2026-10', '1111110']]));
    expect(monthDays('2026-10', none, now, afterBoth).workDays).toBe(22);
    expect(monthDays('2026-10', none, closed, afterBoth)).toMatchObject({ workDays: 27, daysComplete: 27 });
    // A month not closed follows the store's pattern of today.
    expect(monthDays('2026-11', none, closed, afterBoth).workDays).toBe(21);
  });

  it("still takes the month's calendar days and entered weeks", () => {
    const thanksgiving = workPattern('1111100', new Map([['2026-11-26', false]]));
    const closed = withClosedMonths(thanksgiving, new Map([['2026-11', '1111110']]));
    expect(monthDays('2026-11', none, closed, afterBoth).workDays).toBe(24);
    const entered = new Map<string, EnteredDays>([['2026-11-01', { daysComplete: 5, workDays: 5 }]]);
    expect(monthDays('2026-11', entered, closed, afterBoth)).toMatchObject({ workDays: 23, pattern: { workDays: 24 } });
  });

  it('ignores a closure without a kept pattern or with a malformed one', () => {
    const now = workPattern('1111100');
    const closed = withClosedMonths(now, new Map<string, unknown>([['2026-10', null], ['2026-11', '11']]));
    expect(monthDays('2026-10', none, closed, afterBoth).workDays).toBe(22);
    expect(monthDays('2026-11', none, closed, afterBoth).workDays).toBe(21);
  });
});
