import { describe, expect, it } from 'vitest';
import { monthKeyOf, monthLabel, readMonth, shiftMonth, yearAndMonth } from '../../../src/domain/month.ts';
import { greeting, isAdminFlag, personName, storeIdOf } from '../../../src/domain/people.ts';

describe('greeting', () => {
  it.each([
    [0, 'Good morning'],
    [11, 'Good morning'],
    [12, 'Good afternoon'],
    [16, 'Good afternoon'],
    [17, 'Good evening'],
    [23, 'Good evening'],
  ])('at %i:00 says %s', (hour, text) => {
    expect(greeting(hour)).toBe(text);
  });
});

describe('personName', () => {
  it.each([
    [{ displayName: 'Mo', firstName: 'Morgan' }, 'm@x.io', 'Mo'],
    [{ displayName: '  ', firstName: 'Morgan' }, 'm@x.io', 'Morgan'],
    [{ displayName: null, firstName: null }, 'morgan.s@x.io', 'morgan.s'],
    [{}, '', 'User'],
    [null, null, 'User'],
  ])('%j with %s -> %s', (metadata, email, name) => {
    expect(personName(metadata, email)).toBe(name);
  });
});

describe('account flags', () => {
  it('reads the admin flag as true or "true" only', () => {
    expect([true, 'true', 'TRUE', 1, false, 'false', undefined].map(isAdminFlag)).toEqual([true, true, false, false, false, false, false]);
  });
  it('accepts only a UUID as store id', () => {
    expect(storeIdOf({ store_id: '11111111-1111-4111-8111-111111111111' })).toBe('11111111-1111-4111-8111-111111111111');
    expect(storeIdOf({ store_id: 'store-1' })).toBeNull();
    expect(storeIdOf(null)).toBeNull();
  });
});

describe('the selected month', () => {
  const today = new Date(2026, 10, 22);
  it('comes from the URL when valid, else is the current month', () => {
    expect(readMonth('2025-02', today)).toBe('2025-02');
    expect(readMonth('2025-13', today)).toBe('2026-11');
    expect(readMonth('junk', today)).toBe('2026-11');
    expect(readMonth(null, today)).toBe('2026-11');
    // A month of two digits from 01 to 12 and a year of four, nothing around them.
    for (const invalid of ['2025-00', '2025-1', '25-01', '2025-011', ' 2025-01', '2025/01', '2025-01-01', '']) expect(readMonth(invalid, today)).toBe('2026-11');
    expect(readMonth('2025-12', today)).toBe('2025-12');
    expect(readMonth('2025-10', today)).toBe('2025-10');
  });
  it("is written from a date's year and month, as the device's clock reads them", () => {
    expect(monthKeyOf(today)).toBe('2026-11');
    expect(monthKeyOf(new Date(2027, 0, 1))).toBe('2027-01');
    expect(monthKeyOf(new Date(2026, 11, 31, 23, 59))).toBe('2026-12');
    expect(monthKeyOf(new Date(987, 4, 2))).toBe('0987-05');
  });
  it('moves one month at a time across year ends', () => {
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2026-11', -12)).toBe('2025-11');
    expect(shiftMonth('2026-11', -23)).toBe('2024-12');
    expect(shiftMonth('2026-11', 14)).toBe('2028-01');
    expect(shiftMonth('2026-11', 0)).toBe('2026-11');
    expect(monthLabel('2026-11')).toBe('November 2026');
    expect(monthLabel('2027-01')).toBe('January 2027');
    expect(yearAndMonth('2026-03')).toEqual({ year: 2026, month: 3 });
  });
});
