import { useDevice } from '../../data/device-context.tsx';
import type { OperationalFields } from '../../data/repositories/store-month.ts';
import { saveOperationalInputs } from '../../data/repositories/store-month.ts';
import type { Row } from '../../data/synced-tables.ts';
import { numberOrNull } from '../../data/values.ts';
import { numberLimitOf } from '../../domain/field-rules.ts';
import type { MonthKey } from '../../domain/month.ts';
import { yearAndMonth } from '../../domain/month.ts';
import { monthBounds } from '../../domain/work-days.ts';
import { NumberCell } from '../../ui/NumberCell.tsx';
import { todayIso } from '../../data/month-view.ts';
import { errorText } from '../../sync/errors.ts';

const fields = [
  { column: 'ros_over_30_days', label: 'ROs Over 30 Days', help: 'repair orders open more than 30 days' },
  { column: 'due_bills_over_30_days', label: 'Due Bills Over 30 Days', help: 'due bills (we-owes) open more than 30 days' },
  { column: 'shop_supplies', label: 'Shop Supplies', help: 'shop supplies sold this month so far, in dollars' },
] as const;

/**
 * The month's counts from the dealer system that the ROs Over 30 Days, Due Bills Over 30
 * Days and Shop Supplies tiles read. Each save stamps the day it was counted (today, or
 * the month's last day for a past month), so the tile says "as of" that day.
 */
export function MonthEndFigures({ storeId, month, operational, onStatus }: { storeId: string | null; month: MonthKey; operational: Row | null; onStatus(text: string): void }) {
  const device = useDevice();
  const { year, month: monthNumber } = yearAndMonth(month);
  const { first, last } = monthBounds(month);
  const today = todayIso();
  const countedOn = today < first ? first : today > last ? last : today;

  async function save(column: (typeof fields)[number]['column'], value: number | null) {
    if (!storeId) return onStatus('Store ID is not available. Cannot auto-save.');
    onStatus('Saving...');
    try {
      const change: OperationalFields = { [column]: value, as_of_date: countedOn };
      await saveOperationalInputs(device, storeId, year, monthNumber, change);
      onStatus('Saved');
    } catch (error) {
      onStatus(`Error saving: ${errorText(error)}`);
    }
  }

  const asOf = typeof operational?.as_of_date === 'string' ? operational.as_of_date : null;
  return (
    <section className="month-end" aria-labelledby="month-end-title" data-grid>
      <h2 id="month-end-title">Month-end figures</h2>
      <p className="hint">From the dealer system: the KPI tiles of the same names read them.{asOf ? ` Last counted on ${asOf}.` : ''}</p>
      <div className="month-end-fields">
        {fields.map((field, index) => (
          <label key={field.column}>
            <span>
              {field.label} <span className="hint">({field.help})</span>
            </span>
            <NumberCell
              label={field.label}
              value={numberOrNull(operational?.[field.column])}
              limit={numberLimitOf('monthly_operational_inputs', field.column)}
              row={100}
              column={index}
              history={storeId ? { table: 'monthly_operational_inputs', key: { store_id: storeId, year, month: monthNumber }, field: field.column } : undefined}
              onCommit={(value) => void save(field.column, value)}
            />
          </label>
        ))}
      </div>
    </section>
  );
}
