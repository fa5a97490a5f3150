import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router-dom';
import { useDevice } from '../../data/device-context.tsx';
import type { LaborGross, LaborType } from '../../data/repositories/store-month.ts';
import { saveLaborGross } from '../../data/repositories/store-month.ts';
import { numberOrNull } from '../../data/values.ts';
import { numberLimitOf } from '../../domain/field-rules.ts';
import { formatCurrency, formatHours, formatPercent } from '../../domain/format.ts';
import { effectiveTargets, totalSales as gridSales } from '../../domain/kpi-math.ts';
import { working } from '../../domain/formulas.ts';
import { money2, num1 } from '../../domain/working-format.ts';
import { FigureValue } from '../../ui/FigureWorking.tsx';
import { readMonth, shiftMonth } from '../../domain/month.ts';
import { changePercent, formatChange } from '../../domain/last-year.ts';
import { NumberCell } from '../../ui/NumberCell.tsx';
import { loadWithRetry } from '../../ui/load-with-retry.ts';
import { MonthClosureBar } from '../month-close/MonthClosureBar.tsx';
import { CellHistory, useLastCell } from '../history/CellHistory.tsx';
import { monthlyCellRef } from '../history/cell-refs.ts';
import { PacePanel } from '../daily/PacePanel.tsx';
import { monthlyTableOf, useDailyMonth } from '../../data/month-view.ts';
import { salesLastYear, sharedDays } from '../../domain/monthly-table.ts';
import { useAccount } from '../session/session-context.tsx';
import { useSelectedMonth } from '../session/use-month.ts';
import { MonthEndFigures } from './MonthEndFigures.tsx';
import { errorText } from '../../sync/errors.ts';
import { useScreenDrawn } from '../../ui/screen-drawn.ts';

// Retried until it arrives: a failed lazy load would be remembered, and break the page, for good.
const HoursMixChart = lazy(() => loadWithRetry(() => import('./HoursMixChart.tsx')));

const limit = (column: keyof LaborGross) => numberLimitOf('monthly_labor_gross_inputs', column);
const dash = (value: number | null, show: (n: number) => string) => (value === null ? '-' : show(value));

/** This year against last, with the sum shown on hover, focus or tap. */
function ChangeValue({ current, previous }: { current: number | null; previous: number | null }) {
  const percent = changePercent(current, previous);
  if (percent === null || current === null || previous === null) return <>-</>;
  return <FigureValue text={formatChange(percent)} working={working('change', `(${money2(current)} − ${money2(previous)}) / ${money2(previous)} × 100`, formatChange(percent))} />;
}


/** The month's labour table (hours and sales from the daily figures, gross and RO's entered here), the hours mix, and the month-end counts. */
export function MonthlyPage() {
  const device = useDevice();
  const { storeId } = useAccount();
  const { month, setMonth } = useSelectedMonth();
  // The input that last had focus is the one "History of ..." asks about.
  const lastCell = useLastCell((label) => (storeId ? monthlyCellRef(label, storeId, month) : null));
  const monthYear = `${month}-01`;
  const data = useDailyMonth(storeId, month);
  const lastYearData = useDailyMonth(storeId, shiftMonth(month, -12));
  const [pickerShown, setPickerShown] = useState(true);
  const [status, setStatus] = useState<string | null>(null);

  useScreenDrawn(data !== undefined);
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
      setStatus(`Error saving: ${errorText(error)}`);
    }
  }

  const table = monthlyTableOf(data);
  const lastYear = lastYearData ? monthlyTableOf(lastYearData) : null;
  // While this month is under way, last year's month at the same share of its work days.
  const lastYearFigures = salesLastYear(lastYear, data.days);
  const lastYearSales = (index: number) => lastYearFigures.rows[index] ?? null;
  const lastYearCell = (value: number | null) => (
    <>
      {dash(value, formatCurrency)}
      {value !== null && lastYearFigures.share ? <span className="hint"> ({sharedDays(lastYearFigures.share)})</span> : null}
    </>
  );
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
        <Link className="button-link" to={{ pathname: '/print', search: `?month=${month}` }}>
          Print month
        </Link>
        <span className="save-status" role="status">
          {status ?? ''}
        </span>
      </div>
      <MonthClosureBar month={month} />
      <div className="monthly-layout" data-grid onFocus={lastCell.onFocus}>
        <div className="scroll-x">
          <table className="monthly-table" aria-label="Monthly performance">
            <thead>
              <tr>
                {["RO's", 'HOURS', 'LABOUR TYPE', 'SALES', 'GROSS', '%', 'SALES LAST YEAR', 'CHANGE'].map((h) => (
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
                  <td>{row.hours === null ? '-' : <FigureValue text={formatHours(row.hours)} working={working('categoryHours', null, `${num1(row.hours)} h (${row.label})`)} />}</td>
                  <th scope="row">{row.label}</th>
                  <td>
                    {row.type === 'sublet' ? (
                      <NumberCell label={`Sales ${row.label}`} value={row.sales} limit={limit('direct_sales_value')} row={index} column={1} onCommit={(v) => void save(row.type, 'direct_sales_value', v)} />
                    ) : row.sales === null ? (
                      '-'
                    ) : (
                      <FigureValue text={formatCurrency(row.sales)} working={working('categorySales', null, `${money2(row.sales)} (${row.label})`)} />
                    )}
                  </td>
                  <td>
                    <NumberCell label={`Gross ${row.label}`} value={row.gross} limit={limit('gross_value')} row={index} column={2} onCommit={(v) => void save(row.type, 'gross_value', v)} />
                  </td>
                  <td>
                    {row.grossPercent === null || row.gross === null || row.sales === null ? (
                      '-'
                    ) : (
                      <FigureValue text={formatPercent(row.grossPercent)} working={working('grossPercent', `${money2(row.gross)} / ${money2(row.sales)} × 100`, formatPercent(row.grossPercent))} />
                    )}
                  </td>
                  <td>{lastYearCell(lastYearSales(index))}</td>
                  <td>
                    <ChangeValue current={row.sales} previous={lastYearSales(index)} />
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <td>{table.repairOrders}</td>
                <td>{formatHours(table.hours)}</td>
                <th scope="row">TOTAL LABOUR</th>
                <td />
                <td>
                  {table.totalLabour === null ? (
                    '-'
                  ) : (
                    <FigureValue text={formatCurrency(table.totalLabour)} working={working('totalLabour', table.rows.map((row) => money2(row.gross ?? 0)).join(' + '), money2(table.totalLabour))} />
                  )}
                </td>
                <td>
                  {table.totalLabourPercent === null || table.totalLabour === null ? (
                    '-'
                  ) : (
                    <FigureValue text={formatPercent(table.totalLabourPercent)} working={working('grossPercent', `${money2(table.totalLabour)} / ${money2(table.totalSales)} × 100`, formatPercent(table.totalLabourPercent))} />
                  )}
                </td>
                <td colSpan={2} />
              </tr>
              <tr>
                <td colSpan={2} />
                <th scope="row">TOTAL SALES</th>
                <td>
                  <FigureValue text={formatCurrency(table.totalSales)} working={working('totalSales', table.rows.map((row) => money2(row.sales ?? 0)).join(' + '), money2(table.totalSales))} />
                </td>
                <td colSpan={2} />
                <td>{lastYearCell(lastYearFigures.total)}</td>
                <td>
                  <ChangeValue current={table.totalSales} previous={lastYearFigures.total} />
                </td>
              </tr>
              <tr>
                <td colSpan={2} />
                <th scope="row">PACING</th>
                <td>
                  <FigureValue text={formatCurrency(table.pacing)} working={working('pacing', `${money2(gridSales(totals))} / ${data.days.daysComplete} × ${data.days.workDays}`, money2(table.pacing))} />
                </td>
                <td colSpan={4} />
              </tr>
              <tr>
                <td colSpan={2} />
                <th scope="row">TARGET</th>
                <td>
                  <FigureValue text={formatCurrency(table.target)} working={working('salesTarget', `${money2(effectiveTargets(data.rows.targets).salesPerDay)} × ${data.days.workDays}`, money2(table.target))} />
                </td>
                <td colSpan={4} />
              </tr>
            </tfoot>
          </table>
        </div>
        <Suspense fallback={<p>Loading chart...</p>}>
          <HoursMixChart cp={totals.CP.hours} w={totals.W.hours} i={totals.I.hours} target={data.figures.workMixChart.targetText} />
        </Suspense>
      </div>
      <CellHistory cell={lastCell.cell} />
      <PacePanel paces={data.paces} remainingDays={Math.max(data.days.workDays - data.days.daysComplete, 0)} />
      <MonthEndFigures storeId={storeId} month={month} operational={data.rows.operational} onStatus={setStatus} />
    </section>
  );
}
