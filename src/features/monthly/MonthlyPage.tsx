import { lazy, Suspense, useState } from 'react';
import { useDevice } from '../../data/device-context.tsx';
import type { LaborGross, LaborType } from '../../data/repositories/store-month.ts';
import { saveLaborGross } from '../../data/repositories/store-month.ts';
import { numberOrNull } from '../../data/values.ts';
import { numberLimitOf } from '../../domain/field-rules.ts';
import { formatCurrency, formatHours, formatPercent } from '../../domain/format.ts';
import { effectiveTargets } from '../../domain/kpi-math.ts';
import type { LaborEntry } from '../../domain/monthly-table.ts';
import { monthlyTable } from '../../domain/monthly-table.ts';
import { readMonth } from '../../domain/month.ts';
import { NumberCell } from '../../ui/NumberCell.tsx';
import { useDailyMonth } from '../daily/use-daily-month.ts';
import { useAccount } from '../session/session-context.tsx';
import { useSelectedMonth } from '../session/use-month.ts';
import { MonthEndFigures } from './MonthEndFigures.tsx';

const HoursMixChart = lazy(() => import('./HoursMixChart.tsx'));

const limit = (column: keyof LaborGross) => numberLimitOf('monthly_labor_gross_inputs', column);
const dash = (value: number | null, show: (n: number) => string) => (value === null ? '-' : show(value));

/** The month's labour table (hours and sales from the daily figures, gross and RO's entered here), the hours mix, and the month-end counts. */
export function MonthlyPage() {
  const device = useDevice();
  const { storeId } = useAccount();
  const { month, setMonth } = useSelectedMonth();
  const monthYear = `${month}-01`;
  const data = useDailyMonth(storeId, month);
  const [pickerShown, setPickerShown] = useState(true);
  const [status, setStatus] = useState<string | null>(null);

  if (!data) return <p>Loading performance data...</p>;
  const gross = data.rows.laborGross;
  const storedRow = (type: LaborType) => gross.find((row) => row.labor_type === type);

  async function save(type: LaborType, field: keyof LaborGross, value: number | null) {
    if (!storeId) return setStatus('Store ID is not available. Cannot auto-save.');
    const stored = storedRow(type);
    const after = { gross_value: numberOrNull(stored?.gross_value), direct_sales_value: numberOrNull(stored?.direct_sales_value), return_on_sales: numberOrNull(stored?.return_on_sales), [field]: value };
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

  const entries = new Map<LaborType, LaborEntry>(
    gross.map((row) => [row.labor_type as LaborType, { gross: numberOrNull(row.gross_value), subletSales: numberOrNull(row.direct_sales_value), repairOrders: numberOrNull(row.return_on_sales) }]),
  );
  const table = monthlyTable(data.totals, entries, data.days, effectiveTargets(data.rows.targets).salesPerDay);
  const { totals } = data;

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
        <div className="scroll-x">
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
              {table.rows.map((row, index) => (
                <tr key={row.type}>
                  <td>
                    <NumberCell label={`RO's ${row.label}`} value={row.repairOrders} limit={limit('return_on_sales')} row={index} column={0} onCommit={(v) => void save(row.type, 'return_on_sales', v)} />
                  </td>
                  <td>{dash(row.hours, formatHours)}</td>
                  <th scope="row">{row.label}</th>
                  <td>
                    {row.type === 'sublet' ? (
                      <NumberCell label={`Sales ${row.label}`} value={row.sales} limit={limit('direct_sales_value')} row={index} column={1} onCommit={(v) => void save(row.type, 'direct_sales_value', v)} />
                    ) : (
                      dash(row.sales, formatCurrency)
                    )}
                  </td>
                  <td>
                    <NumberCell label={`Gross ${row.label}`} value={row.gross} limit={limit('gross_value')} row={index} column={2} onCommit={(v) => void save(row.type, 'gross_value', v)} />
                  </td>
                  <td>{dash(row.grossPercent, formatPercent)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <td>{table.repairOrders}</td>
                <td>{formatHours(table.hours)}</td>
                <th scope="row">TOTAL LABOUR</th>
                <td />
                <td>{formatCurrency(table.totalLabour)}</td>
                <td>{dash(table.totalLabourPercent, formatPercent)}</td>
              </tr>
              <tr>
                <td colSpan={2} />
                <th scope="row">TOTAL SALES</th>
                <td>{formatCurrency(table.totalSales)}</td>
                <td colSpan={2} />
              </tr>
              <tr>
                <td colSpan={2} />
                <th scope="row">PACING</th>
                <td>{formatCurrency(table.pacing)}</td>
                <td colSpan={2} />
              </tr>
              <tr>
                <td colSpan={2} />
                <th scope="row">TARGET</th>
                <td>{formatCurrency(table.target)}</td>
                <td colSpan={2} />
              </tr>
            </tfoot>
          </table>
        </div>
        <Suspense fallback={<p>Loading chart...</p>}>
          <HoursMixChart cp={totals.CP.hours} w={totals.W.hours} i={totals.I.hours} target={data.figures.workMixChart.targetText} />
        </Suspense>
      </div>
      <MonthEndFigures storeId={storeId} month={month} operational={data.rows.operational} onStatus={setStatus} />
    </section>
  );
}
