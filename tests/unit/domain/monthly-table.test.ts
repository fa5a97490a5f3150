import { describe, expect, it } from 'vitest';
import type { LaborEntry, LaborType } from '../../../src/domain/monthly-table.ts';
import { monthlyTable } from '../../../src/domain/monthly-table.ts';

const totals = { CP: { hours: 100, sales: 18_000 }, W: { hours: 20, sales: 3_400 }, I: { hours: 10, sales: 1_450 } };

describe('the monthly table, worked by hand', () => {
  const entries = new Map<LaborType, LaborEntry>([
    ['customerPay', { gross: 13_000, subletSales: null, repairOrders: 50 }],
    ['internal', { gross: 800, subletSales: null, repairOrders: null }],
    ['sublet', { gross: 250, subletSales: 1_000, repairOrders: 3 }],
    ['unappliedTime', { gross: -300, subletSales: null, repairOrders: null }],
  ]);
  const table = monthlyTable(totals, entries, { daysComplete: 10, workDays: 25 }, 17_500);

  it('shows "no figure" rather than 0% where gross or sales are missing', () => {
    const percent = Object.fromEntries(table.rows.map((row) => [row.type, row.grossPercent]));
    expect(percent.customerPay).toBeCloseTo(72.222, 3); // 13,000 / 18,000
    expect(percent.warranty).toBeNull(); // no gross entered
    expect(percent.internal).toBeCloseTo(55.172, 3); // 800 / 1,450
    expect(percent.sublet).toBe(25);
    expect(percent.unappliedTime).toBeNull(); // no sales
  });

  it('adds up exactly the columns it shows, sublet and unapplied time included', () => {
    // SALES: 18,000 + 3,400 + 1,450 + 1,000 = 23,850. GROSS: 13,000 + 800 + 250 - 300 = 13,750.
    expect(table).toMatchObject({ totalSales: 23_850, totalLabour: 13_750, repairOrders: 53, hours: 130 });
    expect(table.totalLabourPercent).toBeCloseTo(57.652, 3);
  });

  it('paces the daily sales to the month end against the sales per day target', () => {
    // 22,850 / 10 × 25 = 57,125; 17,500 × 25 = 437,500.
    expect(table.pacing).toBe(57_125);
    expect(table.target).toBe(437_500);
  });
});
