/**
 * Which stored field an input is, from its accessible name (the label a person and a
 * screen reader see), for "History of ...": a day's cell, a monthly table entry, a yearly one.
 */
import type { Row, SyncedTable } from '../../data/synced-tables.ts';
import { monthNames } from '../../domain/month.ts';
import { laborRows } from '../../domain/monthly-table.ts';

export type CellRef = { label: string; table: SyncedTable; key: Row; field: string };

/** "CP Hours 2031-07-01" on Daily or Today. */
export function dailyCellRef(label: string, storeId: string): CellRef | null {
  const match = /^(CP|W|I) (Hours|Sales) (\d{4}-\d{2}-\d{2})$/.exec(label);
  if (!match) return null;
  const [, row, metric, date] = match;
  return {
    label,
    table: 'daily_inputs',
    key: { store_id: storeId, entry_date: date, row_identifier: row, metric_type: metric === 'Hours' ? 'hours' : 'sales' },
    field: 'value',
  };
}

const monthlyFields: Record<string, string> = { "RO's": 'return_on_sales', Sales: 'direct_sales_value', Gross: 'gross_value' };

/** "Gross CUSTOMER PAY" in the Monthly table of `month` ('YYYY-MM'). */
export function monthlyCellRef(label: string, storeId: string, month: string): CellRef | null {
  const match = /^(RO's|Sales|Gross) (.+)$/.exec(label);
  const row = laborRows.find((r) => r.label === match?.[2]);
  if (!match || !row) return null;
  return { label, table: 'monthly_labor_gross_inputs', key: { store_id: storeId, month_year: `${month}-01`, labor_type: row.type }, field: monthlyFields[match[1] as string] as string };
}

const yearlyFields: Record<string, string> = { Sales: 'sales', 'GP Net': 'gp_net', Hours: 'ros', 'Personnel Exp': 'personnel_exp', 'Semi Fixed': 'semi_fixed_exp', Fixed: 'fixed_exp' };

/** "Sales March 2031" on Yearly. */
export function yearlyCellRef(label: string, storeId: string): CellRef | null {
  const match = /^(Sales|GP Net|Hours|Personnel Exp|Semi Fixed|Fixed) ([A-Z][a-z]+) (\d{4})$/.exec(label);
  const month = monthNames.indexOf(match?.[2] ?? '') + 1;
  if (!match || month === 0) return null;
  return { label, table: 'yearly_financial_inputs', key: { store_id: storeId, year: Number(match[3]), month }, field: yearlyFields[match[1] as string] as string };
}
