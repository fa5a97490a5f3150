import type { IsoDate } from '../../domain/calendar.ts';
import { formatCurrency, formatHours } from '../../domain/format.ts';
import { dailyAverage, elr } from '../../domain/kpi-math.ts';
import type { GridWeek } from '../../domain/month-grid.ts';
import { NumberCell } from '../../ui/NumberCell.tsx';
import type { WeekFigures } from './use-daily-month.ts';

type Props = {
  week: GridWeek;
  figures: WeekFigures | undefined;
  average: boolean;
  disabled: boolean;
  onWeek(weekStart: IsoDate, field: 'daysComplete' | 'workDays', value: number | null): void;
  onInvalid(message: string): void;
};

/** A week's ALL/CP/W/I hours, sales and ELR (daily average or total), and its days complete and work days. */
export function WeekSummary({ week, figures, average, disabled, onWeek, onInvalid }: Props) {
  const totals = figures?.totals;
  const rows = totals
    ? ([
        ['ALL', totals.CP.hours + totals.W.hours + totals.I.hours, totals.CP.sales + totals.W.sales + totals.I.sales],
        ['CP', totals.CP.hours, totals.CP.sales],
        ['W', totals.W.hours, totals.W.sales],
        ['I', totals.I.hours, totals.I.sales],
      ] as const)
    : [];
  const shown = (value: number) => (average ? dailyAverage(value, figures?.daysComplete ?? null) : value);
  return (
    <div className="week-summary">
      <table aria-label={`Week ${week.index} summary`}>
        <thead>
          <tr>
            <th scope="col"> </th>
            <th scope="col">Hours</th>
            <th scope="col">Sales</th>
            <th scope="col">ELR</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, hours, sales]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>{formatHours(shown(hours))}</td>
              <td>{formatCurrency(shown(sales))}</td>
              <td>{formatCurrency(elr(sales, hours))}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="week-days">
        <label>
          DC
          <NumberCell
            label={`Days Complete Week ${week.index}`}
            value={figures?.daysComplete ?? null}
            integer
            disabled={disabled}
            row={1000 + week.index}
            column={0}
            onCommit={(value) => onWeek(week.start, 'daysComplete', value)}
            onInvalid={onInvalid}
          />
        </label>
        <label>
          WD
          <NumberCell
            label={`Work Days Week ${week.index}`}
            value={figures?.workDays ?? null}
            integer
            disabled={disabled}
            row={1000 + week.index}
            column={1}
            onCommit={(value) => onWeek(week.start, 'workDays', value)}
            onInvalid={onInvalid}
          />
        </label>
      </div>
    </div>
  );
}
