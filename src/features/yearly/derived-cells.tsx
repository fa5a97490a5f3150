/** The yearly table's computed cells, each showing its working on hover, focus or tap. */
import { formatCurrency, formatPercent, formatRatio } from '../../domain/format.ts';
import { working } from '../../domain/formulas.ts';
import { changePercent, formatChange } from '../../domain/last-year.ts';
import { money2, num1 } from '../../domain/working-format.ts';
import type { YearlyRow } from '../../domain/yearly.ts';
import { FigureValue } from '../../ui/FigureWorking.tsx';

export function GpPercentCell({ row }: { row: YearlyRow }) {
  if (row.gpPercentage === null) return <td>-</td>;
  return (
    <td>
      <FigureValue text={formatPercent(row.gpPercentage)} working={working('gpPercent', `${money2(row.gpNet)} / ${money2(row.sales)} × 100`, formatPercent(row.gpPercentage))} />
    </td>
  );
}

export function HoursPerDayCell({ row, days }: { row: YearlyRow; days: number | null }) {
  if (row.hoursPerDay === null) return <td>-</td>;
  return (
    <td>
      <FigureValue text={formatRatio(row.hoursPerDay)} working={working('yearlyHoursPerDay', `${num1(row.hours)} h / ${num1(days ?? 0)}`, formatRatio(row.hoursPerDay))} />
    </td>
  );
}

export function ExpensePercentCell({ expense, row, percent }: { expense: number; row: YearlyRow; percent: number | null }) {
  if (percent === null) return <td>-</td>;
  return (
    <td>
      <FigureValue text={formatPercent(percent)} working={working('expensePercent', `${money2(expense)} / ${money2(row.gpNet)} × 100`, formatPercent(percent))} />
    </td>
  );
}

export function NetCells({ row }: { row: YearlyRow }) {
  if (row.netProfit === null || row.netProfitMarginRos === null) {
    return (
      <>
        <td>-</td>
        <td>-</td>
      </>
    );
  }
  return (
    <>
      <td>
        <FigureValue
          text={formatCurrency(row.netProfit)}
          working={working('netProfit', `${money2(row.gpNet)} − ${money2(row.personnelExp)} − ${money2(row.semiFixedExp)} − ${money2(row.fixedExp)}`, money2(row.netProfit))}
        />
      </td>
      <td>
        <FigureValue text={formatPercent(row.netProfitMarginRos)} working={working('returnOnSales', `${money2(row.netProfit)} / ${money2(row.sales)} × 100`, formatPercent(row.netProfitMarginRos))} />
      </td>
    </>
  );
}

/**
 * A month's sales a year before, and the change since. `note` names what the earlier
 * figure covers when it is not simply the same month: the months compared ("Jan-Nov"),
 * or the share of a part-way month's days.
 */
export function VersusCells({ current, before, note }: { current: number | null; before: number | null; note?: string }) {
  const percent = changePercent(current, before);
  return (
    <>
      <td>
        {before === null ? '-' : formatCurrency(before)}
        {before !== null && note ? <span className="versus-note"> {note}</span> : null}
      </td>
      <td>
        {percent === null || current === null || before === null ? (
          '-'
        ) : (
          <FigureValue text={formatChange(percent)} working={working('change', `(${money2(current)} − ${money2(before)}) / ${money2(before)} × 100`, formatChange(percent))} />
        )}
      </td>
    </>
  );
}
