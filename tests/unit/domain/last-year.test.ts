import { describe, expect, it } from 'vitest';
import { changePercent, formatChange, lastYearText } from '../../../src/domain/last-year.ts';

describe('the same month last year', () => {
  it('gives the change in percent of last year, and none from nothing', () => {
    expect(changePercent(110, 100)).toBe(10);
    expect(changePercent(90, 120)).toBe(-25);
    expect(changePercent(-50, -100)).toBe(50); // a loss halved is an improvement
    expect(changePercent(100, 0)).toBeNull();
    expect(changePercent(null, 100)).toBeNull();
    expect(changePercent(100, null)).toBeNull();
  });

  it('reads as a manager writes it', () => {
    expect(formatChange(4.4)).toBe('+4%');
    expect(formatChange(-12.5)).toBe('−13%');
    expect(formatChange(0)).toBe('0%');
    expect(formatChange(null)).toBe('-');
    expect(lastYearText('$172', 4.4)).toBe('Last year: $172 (+4%)');
    expect(lastYearText('$172', null)).toBe('Last year: $172');
    expect(lastYearText(null, null)).toBe('Last year: no figures');
  });
});
