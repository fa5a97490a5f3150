import type { IsoDate } from '../../domain/calendar.ts';
import { numberLimitOf } from '../../domain/field-rules.ts';
import { dailyAverage } from '../../domain/kpi-math.ts';
import { CategorySummary } from '../../ui/CategorySummary.tsx';
import type { GridWeek } from '../../domain/month-grid.ts';
import { NumberCell } from '../../ui/NumberCell.tsx';
import type { WeekFigures } from './use-daily-month.ts';

type Props = {
  week: GridWeek;
  figures: WeekFigures | undefined;
  average: boolean;
  disabled: boolean;
  onWeek(weekStart: IsoDate, field: 'daysComplete' | 'workDays', value: number | null): void;
};

const daysCompleteLimit = numberLimitOf('weekly_store_performance', 'days_complete');
const workDaysLimit = numberLimitOf('weekly_store_performance', 'work_days');

/** A week's ALL/CP/W/I hours, sales and ELR (daily average or total), and its days complete and work days. */
export function WeekSummary({ week, figures, average, disabled, onWeek }: Props) {
  const totals = figures?.totals;
  const lines = totals
    ? [
        { name: 'ALL', hours: totals.CP.hours + totals.W.hours + totals.I.hours, sales: totals.CP.sales + totals.W.sales + totals.I.sales },
        { name: 'CP', ...totals.CP },
        { name: 'W', ...totals.W },
        { name: 'I', ...totals.I },
      ]
    : [];
  const scale = (value: number) => (average ? dailyAverage(value, figures?.daysComplete ?? null) : value);
  return (
    <div className="week-summary">
      <CategorySummary label={`Week ${week.index} summary`} lines={lines} scale={scale} />
      <div className="week-days">
        <label>
          DC
          <NumberCell
            label={`Days Complete Week ${week.index}`}
            value={figures?.daysComplete ?? null}
            limit={daysCompleteLimit}
            disabled={disabled}
            row={1000 + week.index}
            column={0}
            onCommit={(value) => onWeek(week.start, 'daysComplete', value)}
          />
        </label>
        <label>
          WD
          <NumberCell
            label={`Work Days Week ${week.index}`}
            value={figures?.workDays ?? null}
            limit={workDaysLimit}
            disabled={disabled}
            row={1000 + week.index}
            column={1}
            onCommit={(value) => onWeek(week.start, 'workDays', value)}
          />
        </label>
      </div>
    </div>
  );
}
