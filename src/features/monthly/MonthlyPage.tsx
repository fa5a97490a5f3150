import { lazy, Suspense, useState } from 'react';
import { useDevice } from '../../data/device-context.tsx';
import type { LaborGross, LaborType } from '../../data/repositories/store-month.ts';
import { saveLaborGross, useLaborGross, useMonthlyTargets } from '../../data/repositories/store-month.ts';
import { numberLimitOf } from '../../domain/field-rules.ts';
import { formatCurrency, formatHours, formatPercent } from '../../domain/format.ts';
import { effectiveTargets, monthTarget, pacing } from '../../domain/kpi-math.ts';
import { readMonth, yearAndMonth } from '../../domain/month.ts';
import { NumberCell } from '../../ui/NumberCell.tsx';
import { useDailyMonth } from '../daily/use-daily-month.ts';
import { useAccount } from '../session/session-context.tsx';
import { useSelectedMonth } from '../session/use-month.ts';

const HoursMixChart = lazy(() => import('./HoursMixChart.tsx'));

const laborRows: Array<{ type: LaborType; label: string; category?: 'CP' | 'W' | 'I' }> = [
  { type: 'customerPay', label: 'CUSTOMER PAY', category: 'CP' },
  { type: 'warranty', label: 'WARRANTY', category: 'W' },
  { type: 'internal', label: 'INTERNAL', category: 'I' },
  { type: 'sublet', label: 'SUBLET' },
  { type: 'unappliedTime', label: 'UNAPPLIED TIME' },
];

const limit = (column: keyof LaborGross) => numberLimitOf('monthly_labor_gross_inputs', column);

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** The month's labour table (hours and sales from the daily figures, gross and RO's entered here) and the hours mix. */
export function MonthlyPage() {
  const device = useDevice();
  const { storeId } = useAccount();
  const { month, setMonth } = useSelectedMonth();
  const { year, month: monthNumber } = yearAndMonth(month);
  const monthYear = `${month}-01`;
  const data = useDailyMonth(storeId, month);
  const gross = useLaborGross(storeId, monthYear);
  const targets = useMonthlyTargets(storeId, year, monthNumber);
  const [pickerShown, setPickerShown] = useState(true);
  const [status, setStatus] = useState<string | null>(null);

  async function save(type: LaborType, field: keyof LaborGross, value: number | null) {
    if (!storeId) return setStatus('Store ID is not available. Cannot auto-save.');
    const stored = gross?.find((row) => row.labor_type === type);
    const after = { gross_value: num(stored?.gross_value), direct_sales_value: num(stored?.direct_sales_value), return_on_sales: num(stored?.return_on_sales), [field]: value };
    // A row with nothing in it is not created; clearing a stored row is still saved.
    if (!stored && Object.values(after).every((v) => v === null)) return;
    setStatus('Saving...');
    try {
      await saveLaborGross(device, storeId, monthYear, type, { [field]: value });
      setStatus('Saved');
    } catch (error) {
      setStatus(`Error saving: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  if (!data || !gross || !targets) return <p>Loading performance data...</p>;
  const { totals, daysComplete, workDays } = data.kpis;
  const rows = laborRows.map((row) => {
    const stored = gross.find((g) => g.labor_type === row.type);
    const hours = row.category ? totals[row.category].hours : null;
    const sales = row.category ? totals[row.category].sales : row.type === 'sublet' ? (num(stored?.direct_sales_value) ?? 0) : 0;
    const grossValue = num(stored?.gross_value) ?? 0;
    return { ...row, stored, hours, sales, grossValue };
  });
  const totalLabour = rows.filter((r) => r.category).reduce((sum, r) => sum + r.grossValue, 0);
  const totalSales = rows.reduce((sum, r) => sum + r.sales, 0);
  const salesTarget = monthTarget(effectiveTargets(targets).salesPerDay, workDays);

  return (
    <section className="card monthly" aria-labelledby="monthly-title">
      <h1 id="monthly-title">Monthly Performance</h1>
      <div className="kpi-bar">
        <button type="button" onClick={() => setPickerShown(!pickerShown)} aria-expanded={pickerShown}>
          {pickerShown ? 'Hide month picker' : 'Show month picker'}
        </button>
        {pickerShown ? (
          <label>
            Month
            <input type="month" value={month} onChange={(event) => setMonth(readMonth(event.target.value, new Date()))} />
          </label>
        ) : null}
        <span className="save-status" role="status">
          {status ?? ''}
        </span>
      </div>
      <div className="monthly-layout" data-grid>
        <table className="monthly-table" aria-label="Monthly performance">
          <thead>
            <tr>
              {["RO's", 'HOURS', 'LABOUR TYPE', 'SALES', 'GROSS', '%'].map((h) => (
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={row.type}>
                <td>
                  <NumberCell label={`RO's ${row.label}`} value={num(row.stored?.return_on_sales)} limit={limit('return_on_sales')} row={index} column={0} onCommit={(v) => void save(row.type, 'return_on_sales', v)} />
                </td>
                <td>{row.hours === null ? '-' : formatHours(row.hours)}</td>
                <th scope="row">{row.label}</th>
                <td>
                  {row.type === 'sublet' ? (
                    <NumberCell label={`Sales ${row.label}`} value={num(row.stored?.direct_sales_value)} limit={limit('direct_sales_value')} row={index} column={1} onCommit={(v) => void save(row.type, 'direct_sales_value', v)} />
                  ) : (
                    formatCurrency(row.sales)
                  )}
                </td>
                <td>
                  <NumberCell label={`Gross ${row.label}`} value={num(row.stored?.gross_value)} limit={limit('gross_value')} row={index} column={2} onCommit={(v) => void save(row.type, 'gross_value', v)} />
                </td>
                <td>{row.sales ? formatPercent((row.grossValue / row.sales) * 100) : '-'}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={4}>TOTAL LABOUR</th>
              <td colSpan={2}>{formatCurrency(totalLabour)}</td>
            </tr>
            <tr>
              <th scope="row" colSpan={4}>TOTAL SALES</th>
              <td colSpan={2}>{formatCurrency(totalSales)}</td>
            </tr>
            <tr>
              <th scope="row" colSpan={4}>PACING</th>
              <td colSpan={2}>{formatCurrency(pacing(totalSales, daysComplete, workDays))}</td>
            </tr>
            <tr>
              <th scope="row" colSpan={4}>TARGET</th>
              <td colSpan={2}>{formatCurrency(salesTarget)}</td>
            </tr>
          </tfoot>
        </table>
        <Suspense fallback={<p>Loading chart...</p>}>
          <HoursMixChart cp={totals.CP.hours} w={totals.W.hours} i={totals.I.hours} />
        </Suspense>
      </div>
    </section>
  );
}
