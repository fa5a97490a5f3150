import { describe, expect, it } from 'vitest';
import { firstSyncText } from '../../../src/features/sync-status/SyncIndicator.tsx';

describe("a first sync's progress in words", () => {
  it.each([
    [{ done: 0, total: 4324, unit: 'rows' as const }, 'Fetching data: 0 of 4,324 rows (0%)'],
    [{ done: 1234, total: 4324, unit: 'rows' as const }, 'Fetching data: 1,234 of 4,324 rows (28%)'],
    [{ done: 4324, total: 4324, unit: 'rows' as const }, 'Fetching data: 4,324 of 4,324 rows (100%)'],
    [{ done: 0, total: 0, unit: 'rows' as const }, 'Fetching data: 0 of 0 rows (0%)'],
    [{ done: 3, total: 18, unit: 'tables' as const }, 'Fetching data: 3 of 18 tables (16%)'],
  ])('%o reads %s', (progress, text) => {
    expect(firstSyncText(progress)).toBe(text);
  });
});
