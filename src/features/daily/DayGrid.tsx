import type { LabourRow, Metric } from '../../data/repositories/daily-inputs.ts';
import type { IsoDate } from '../../domain/calendar.ts';
import { numberLimitOf } from '../../domain/field-rules.ts';
import { NumberCell } from '../../ui/NumberCell.tsx';
import type { CellKey, DailyMonth } from './use-daily-month.ts';
import { cellKey } from './use-daily-month.ts';
import { WeekSummary } from './WeekSummary.tsx';

const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const rows: LabourRow[] = ['CP', 'W', 'I'];
const metrics: Metric[] = ['hours', 'sales'];
const metricLabel = { hours: 'Hours', sales: 'Sales' } as const;
const limits = { hours: numberLimitOf('daily_inputs', 'value', { metric_type: 'hours' }), sales: numberLimitOf('daily_inputs', 'value', { metric_type: 'sales' }) };

type Props = {
  month: DailyMonth;
  disabled: boolean;
  average: boolean;
  /** The value a cell shows: a pending edit, else what is stored. */
  valueOf(key: CellKey): number | null;
  onCell(date: IsoDate, row: LabourRow, metric: Metric, value: number | null): void;
  onWeek(weekStart: IsoDate, field: 'daysComplete' | 'workDays', value: number | null): void;
};

/** Weeks as rows, Sunday to Saturday; each day holds CP, W and I hours and sales. */
export function DayGrid({ month, disabled, average, valueOf, onCell, onWeek }: Props) {
  return (
    <table className="day-grid" data-grid aria-label="Daily hours and sales">
      <thead>
        <tr>
          <th scope="col">Week</th>
          {weekdays.map((day) => (
            <th key={day} scope="col">
              {day}
            </th>
          ))}
          <th scope="col">Summary</th>
        </tr>
      </thead>
      <tbody>
        {month.grid.map((week, weekIndex) => (
          <tr key={week.start}>
            <th scope="row">Week {week.index}</th>
            {week.days.map((day, dayIndex) => (
              <td key={day.date} className={day.inMonth ? 'day' : 'day outside'}>
                <span className="day-number" aria-hidden="true">
                  {day.day}
                </span>
                {day.inMonth ? (
                  <div className="day-cells">
                    {rows.map((row, rowIndex) =>
                      metrics.map((metric, metricIndex) => (
                        <NumberCell
                          key={`${row}-${metric}`}
                          label={`${row} ${metricLabel[metric]} ${day.date}`}
                          value={valueOf(cellKey(day.date, row, metric))}
                          limit={limits[metric]}
                          disabled={disabled}
                          row={weekIndex * 3 + rowIndex}
                          column={dayIndex * 2 + metricIndex}
                          onCommit={(value) => onCell(day.date, row, metric, value)}
                        />
                      )),
                    )}
                  </div>
                ) : null}
              </td>
            ))}
            <td className="week-summary-cell">
              <WeekSummary week={week} figures={month.weeks.get(week.start)} average={average} disabled={disabled} onWeek={onWeek} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
