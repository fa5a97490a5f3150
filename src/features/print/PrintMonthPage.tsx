import { useStoreName } from '../../data/repositories/store-and-people.ts';
import { formatCurrency, formatHours, formatPercent } from '../../domain/format.ts';
import { allKpiIds } from '../../domain/kpis.ts';
import { changePercent, formatChange } from '../../domain/last-year.ts';
import { advisorsCsv, dailyInputsCsv, monthlyTableCsv } from '../../domain/month-export.ts';
import { monthLabel, shiftMonth } from '../../domain/month.ts';
import { CategorySummary } from '../../ui/CategorySummary.tsx';
import { downloadText } from '../../ui/download.ts';
import { KpiRow } from '../daily/KpiRow.tsx';
import { PacePanel } from '../daily/PacePanel.tsx';
import { monthlyTableOf, useDailyMonth } from '../../data/month-view.ts';
import { useFrontEndTeamMonth } from '../front-end-team/use-team-month.ts';
import { useAccount, useSyncStatus } from '../session/session-context.tsx';
import { useSelectedMonth } from '../session/use-month.ts';
import { AdvisorsSection, WeeksSection } from './PackSections.tsx';
import { advisorsOf, daysOf, openWarnings } from './month-pack.ts';
import { salesLastYear, sharedDays } from '../../domain/monthly-table.ts';
import { useScreenDrawn } from '../../ui/screen-drawn.ts';

const dash = (value: number | null, show: (n: number) => string) => (value === null ? '-' : show(value));

/**
 * The month-end pack: one month on paper (A4 or Letter, through the print stylesheet) and
 * as CSV files, from the device's own data, so it works offline. Tiles with last year,
 * pace, the weeks, the monthly table beside last year, the advisors, and what is still open.
 */
export function PrintMonthPage() {
  const { storeId } = useAccount();
  const sync = useSyncStatus();
  const { month } = useSelectedMonth();
  const data = useDailyMonth(storeId, month);
  const lastYear = useDailyMonth(storeId, shiftMonth(month, -12));
  const team = useFrontEndTeamMonth(storeId, month);
  const storeName = useStoreName(storeId);
  useScreenDrawn(Boolean(data && lastYear && team));
  if (!data || !lastYear || !team) return <p>Loading the month...</p>;

  const table = monthlyTableOf(data);
  const before = monthlyTableOf(lastYear);
  const salesBefore = salesLastYear(before, data.days);
  const beforeCell = (value: number | null) => `${dash(value, formatCurrency)}${value !== null && salesBefore.share ? ` (${sharedDays(salesBefore.share)})` : ''}`;
  const advisors = advisorsOf(team);
  const warnings = openWarnings(data, sync);
  const file = (what: string) => `${(storeName ?? 'store').replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}-${month}-${what}.csv`;
  const csv = 'text/csv;charset=utf-8';

  return (
    <article className="print-pack" aria-labelledby="pack-title">
      <header className="pack-header">
        <h1 id="pack-title">
          {storeName ?? 'Service department'}: {monthLabel(month)}
        </h1>
        <p className="hint">
          Month-end pack, printed {new Date().toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}. {data.days.daysComplete} of {data.days.workDays} work days complete.
        </p>
        <div className="actions no-print">
          <button type="button" className="primary" onClick={() => window.print()}>
            Print
          </button>
          <button type="button" onClick={() => downloadText(file('daily-inputs'), dailyInputsCsv(daysOf(data)), csv)}>
            Daily inputs (CSV)
          </button>
          <button type="button" onClick={() => downloadText(file('monthly-table'), monthlyTableCsv(table, before, data.days), csv)}>
            Monthly table (CSV)
          </button>
          <button type="button" onClick={() => downloadText(file('advisors'), advisorsCsv(advisors), csv)}>
            Advisor figures (CSV)
          </button>
        </div>
      </header>

      <section className="pack-section" aria-labelledby="pack-kpis">
        <h2 id="pack-kpis">KPI tiles</h2>
        <KpiRow figures={data.figures} lastYear={lastYear.figures} tiles={allKpiIds} />
        <PacePanel paces={data.paces} remainingDays={Math.max(data.days.workDays - data.days.daysComplete, 0)} />
      </section>

      <section className="pack-section" aria-labelledby="pack-totals">
        <h2 id="pack-totals">Daily grid totals</h2>
        <CategorySummary
          label="Month totals by category"
          lines={[
            { name: 'ALL', hours: data.totals.CP.hours + data.totals.W.hours + data.totals.I.hours, sales: data.totals.CP.sales + data.totals.W.sales + data.totals.I.sales },
            ...(['CP', 'W', 'I'] as const).map((name) => ({ name, ...data.totals[name] })),
          ]}
        />
      </section>

      <WeeksSection month={data} />

      <section className="pack-section" aria-labelledby="pack-monthly">
        <h2 id="pack-monthly">Monthly table, with {monthLabel(shiftMonth(month, -12))}</h2>
        <table className="monthly-table" aria-label="Monthly table with last year">
          <thead>
            <tr>
              {['LABOUR TYPE', "RO's", 'HOURS', 'SALES', 'GROSS', '%', 'SALES LAST YEAR', 'CHANGE'].map((h) => (
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, index) => (
              <tr key={row.type}>
                <th scope="row">{row.label}</th>
                <td>{row.repairOrders ?? '-'}</td>
                <td>{dash(row.hours, formatHours)}</td>
                <td>{dash(row.sales, formatCurrency)}</td>
                <td>{dash(row.gross, formatCurrency)}</td>
                <td>{dash(row.grossPercent, formatPercent)}</td>
                <td>{beforeCell(salesBefore.rows[index] ?? null)}</td>
                <td>{formatChange(changePercent(row.sales, salesBefore.rows[index] ?? null))}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">TOTAL LABOUR</th>
              <td>{table.repairOrders}</td>
              <td>{formatHours(table.hours)}</td>
              <td />
              <td>{dash(table.totalLabour, formatCurrency)}</td>
              <td>{dash(table.totalLabourPercent, formatPercent)}</td>
              <td colSpan={2} />
            </tr>
            <tr>
              <th scope="row">TOTAL SALES</th>
              <td colSpan={2} />
              <td>{formatCurrency(table.totalSales)}</td>
              <td colSpan={2} />
              <td>{beforeCell(salesBefore.total)}</td>
              <td>{formatChange(changePercent(table.totalSales, salesBefore.total))}</td>
            </tr>
            <tr>
              <th scope="row">PACING</th>
              <td colSpan={2} />
              <td>{formatCurrency(table.pacing)}</td>
              <td colSpan={4} />
            </tr>
            <tr>
              <th scope="row">TARGET</th>
              <td colSpan={2} />
              <td>{formatCurrency(table.target)}</td>
              <td colSpan={4} />
            </tr>
          </tfoot>
        </table>
      </section>

      <AdvisorsSection advisors={advisors} />

      <section className="pack-section" aria-labelledby="pack-warnings">
        <h2 id="pack-warnings">Open warnings</h2>
        {warnings.length === 0 ? (
          <p>None: the month adds up, every tile is on target or close, and every edit is on the server.</p>
        ) : (
          <ul>
            {warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}
