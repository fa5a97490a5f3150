/**
 * What a synced row's field is, in the words its screen uses, for the sync details' lists
 * (a value another device changed too): "CP Hours, Mon 30 Nov 2026" rather than the
 * table's name and a key holding the store's id.
 */
import { format } from 'date-fns';
import type { SyncedTable } from '../../data/synced-tables.ts';
import { syncedTables } from '../../data/synced-tables.ts';
import { parseDate } from '../../domain/calendar.ts';
import { monthNames } from '../../domain/month.ts';
import { laborRows } from '../../domain/monthly-table.ts';

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const day = (value: unknown) => (typeof value === 'string' && isoDate.test(value) ? format(parseDate(value), 'EEE d MMM yyyy') : String(value));
const monthOf = (year: unknown, month: unknown) => `${monthNames[Number(month) - 1] ?? month} ${year}`;
/** A column's name as words: `days_complete` reads "days complete". */
const words = (name: string) => name.replaceAll('_', ' ');

const monthlyFields: Record<string, string> = { return_on_sales: "RO's", direct_sales_value: 'Sales', gross_value: 'Gross' };
const yearlyFields: Record<string, string> = { sales: 'Sales', gp_net: 'GP Net', ros: 'Hours', personnel_exp: 'Personnel Exp', semi_fixed_exp: 'Semi Fixed', fixed_exp: 'Fixed' };
const weekFields: Record<string, string> = { days_complete: 'Days Complete', work_days: 'Work Days' };

/** The key's values by column, from the key's stored text; empty when the text is not one. */
function keyValues(table: SyncedTable, keyText: string): Record<string, unknown> {
  try {
    const values: unknown = JSON.parse(keyText);
    if (!Array.isArray(values)) return {};
    return Object.fromEntries(syncedTables[table].key.map((column, index) => [column, values[index]]));
  } catch {
    return {};
  }
}

/** A field of a synced row as a person reads it on its screen. */
export function syncedFieldName(table: SyncedTable, keyText: string, field: string): string {
  const key = keyValues(table, keyText);
  if (Object.keys(key).length === 0) return `${words(table)}: ${words(field)}`;
  switch (table) {
    case 'daily_inputs':
      return `${String(key.row_identifier)} ${key.metric_type === 'sales' ? 'Sales' : 'Hours'}, ${day(key.entry_date)}`;
    case 'weekly_store_performance':
      return `${weekFields[field] ?? words(field)}, week from ${day(key.week_start_date)}`;
    case 'monthly_labor_gross_inputs': {
      const month = typeof key.month_year === 'string' ? key.month_year : '';
      const labour = laborRows.find((row) => row.type === key.labor_type)?.label ?? String(key.labor_type);
      return `${monthlyFields[field] ?? words(field)} ${labour}, ${monthOf(month.slice(0, 4), month.slice(5, 7))}`;
    }
    case 'yearly_financial_inputs':
      return `${yearlyFields[field] ?? words(field)}, ${monthOf(key.year, key.month)}`;
    default: {
      // Other tables: their name and the parts of the key a person can read (dates, months,
      // names), not the ids.
      const readable = Object.entries(key)
        .filter(([column]) => column !== 'id' && !column.endsWith('_id'))
        .map(([, value]) => day(value));
      return [`${words(table)}${readable.length ? ` (${readable.join(', ')})` : ''}`, words(field)].join(': ');
    }
  }
}

/** A value as the list shows it: a number or text as it is, nothing as "empty". */
export function shownValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return 'empty';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
