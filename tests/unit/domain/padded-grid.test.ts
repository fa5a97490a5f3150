import { describe, expect, it } from 'vitest';
import { maxGridWeeks, monthGrid, paddedGrid } from '../../../src/domain/month-grid.ts';

describe('paddedGrid: six weeks for every month, for a grid that keeps its inputs', () => {
  it.each([
    // month, its own weeks, the last padded week's first and last day (read off a calendar)
    ['2026-11', 5, '2026-12-06', '2026-12-12'], // starts on a Sunday
    ['2026-02', 4, '2026-03-08', '2026-03-14'], // 28 days from a Sunday: two weeks added
    ['2026-08', 6, '2026-08-30', '2026-09-05'], // starts on a Saturday: six already
    ['2024-12', 5, '2025-01-05', '2025-01-11'], // across a year's end
  ])('%s: its %i weeks, then weeks after them up to the sixth, %s to %s', (month, own, lastFrom, lastTo) => {
    const grid = paddedGrid(month);
    expect(grid).toHaveLength(maxGridWeeks);
    expect(maxGridWeeks).toBe(6);
    // The month's own weeks unchanged.
    expect(grid.slice(0, own)).toEqual(monthGrid(month));
    const last = grid[5];
    expect([last?.index, last?.start, last?.end]).toEqual([6, lastFrom, lastTo]);
    // The added weeks lie wholly outside the month, Sunday to Saturday, named by their place.
    for (const [offset, week] of grid.slice(own).entries()) {
      expect(week.index).toBe(own + offset + 1);
      expect(week.days).toHaveLength(7);
      expect(week.days.every((day) => !day.inMonth)).toBe(true);
      expect(new Date(`${week.start}T12:00:00`).getDay()).toBe(0);
    }
  });

  it('has 42 days in a row, each date once', () => {
    const days = paddedGrid('2026-02').flatMap((week) => week.days);
    expect(days).toHaveLength(42);
    const first = new Date(2026, 1, 1);
    const expected = days.map((_, offset) => {
      const date = new Date(first.getFullYear(), first.getMonth(), first.getDate() + offset);
      return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
    });
    expect(days.map((day) => day.date)).toEqual(expected);
    expect(days.map((day) => day.day).slice(26, 32)).toEqual([27, 28, 1, 2, 3, 4]);
  });
});
