import { memo, startTransition, useEffect, useLayoutEffect, useState } from 'react';
import type { LabourRow, Metric } from '../../data/repositories/daily-inputs.ts';
import { cellDraftKey, weekDraftKey } from '../../data/repositories/submit-drafts.ts';
import type { IsoDate } from '../../domain/calendar.ts';
import { numberLimitOf } from '../../domain/field-rules.ts';
import type { GridWeek } from '../../domain/month-grid.ts';
import { paddedGrid } from '../../domain/month-grid.ts';
import type { CellShown } from '../../ui/NumberCell.tsx';
import { CellSlot, KeptCell } from '../../ui/NumberCell.tsx';
import type { CellKey, DailyMonth, WeekFigures } from '../../data/month-view.ts';
import { cellKey } from '../../data/month-view.ts';
import { useLatestCallback } from '../../ui/use-latest-callback.ts';
import { WeekSummary } from './WeekSummary.tsx';

const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const rows: LabourRow[] = ['CP', 'W', 'I'];
const metrics: Metric[] = ['hours', 'sales'];
const metricLabel = { hours: 'Hours', sales: 'Sales' } as const;
const limits = { hours: numberLimitOf('daily_inputs', 'value', { metric_type: 'hours' }), sales: numberLimitOf('daily_inputs', 'value', { metric_type: 'sales' }) };
/** A day's six inputs in reading order: CP hours, CP sales, W hours, ... */
const dayFields = rows.flatMap((row) => metrics.map((metric) => ({ row, metric })));
/** A week part's own inputs, by their field in repositories/submit-drafts.ts. */
const weekFields = ['daysComplete', 'workDays'] as const;

/**
 * The weeks a first drawing draws at once: at every screen size the grid starts below the
 * first screenful or has at most its first week in view, so two weeks cover what can be seen
 * and typed first. The rest follow at once, in a transition (see DayGrid).
 */
const weeksDrawnFirst = 2;

type Props = {
  month: DailyMonth;
  disabled: boolean;
  average: boolean;
  /** The device's date: highlighted in the grid. */
  today: IsoDate;
  /** The value a cell shows: a pending edit, else what is stored. */
  valueOf(key: CellKey): number | null;
  /** `seen`: the value the cell showed when typing started (the edit's base). */
  onCell(date: IsoDate, row: LabourRow, metric: Metric, value: number | null, seen: number | null): void | Promise<unknown>;
  onWeek(partStart: IsoDate, field: 'daysComplete' | 'workDays', value: number | null, seen: number | null): void | Promise<unknown>;
  /** The store, for the week inputs' history. */
  storeId?: string;
  /** Whether a field holds a value typed in Submit mode and not submitted (by its key in repositories/submit-drafts.ts). */
  isDraft?(key: string): boolean;
  /** Whether a cell signs a stored value "saved on this device": not in Submit mode, where values wait for "Submit Data". */
  signSaved?: boolean;
};

type OnCell = Props['onCell'];

/** A kept cell's slot, with the date it shows: its edits are saved for that date. */
class DaySlot extends CellSlot {
  constructor(
    private date: IsoDate,
    shown: CellShown,
    row: LabourRow,
    metric: Metric,
    onCell: OnCell,
  ) {
    super(shown);
    this.commit = (value, seen) => onCell(this.date, row, metric, value, seen);
  }

  /** Stable for as long as the slot lives, so the cell need not draw again when the month changes. */
  readonly commit: (value: number | null, seen: number | null) => void | Promise<unknown>;

  writeDay(date: IsoDate, next: CellShown): void {
    this.date = date;
    this.write(next);
  }
}

/**
 * The grid's cells by position (week, day, row, metric), kept for as long as the grid is
 * on screen. A month switch writes the new month's labels and values into them after it
 * has drawn (see CellSlot), so the inputs are neither mounted again nor drawn again.
 */
class GridSlots {
  private readonly slots = new Map<string, DaySlot>();
  /** `onCell`: stable for the grid's life, calling the grid's newest handler. */
  constructor(private readonly onCell: OnCell) {}

  /** The slot at a position; a new one shows `shown` from its first drawing on. */
  at(key: string, row: LabourRow, metric: Metric, date: IsoDate, shown: CellShown): DaySlot {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = new DaySlot(date, shown, row, metric, this.onCell);
      this.slots.set(key, slot);
    }
    return slot;
  }
}

/**
 * The month's weeks, Sunday to Saturday, each day with its CP, W and I hours and sales
 * under visible headings. Where there is room (a desktop) the days stand side by side as a
 * calendar; on a tablet each day is one row of six inputs; on a phone each day is a small
 * block, its CP, W and I rows by Hours and Sales columns.
 *
 * The grid keeps the same inputs for every month: six weeks of seven days of six, by
 * position, those outside the month hidden (and disabled, so the keyboard passes them by).
 * A month switch draws the days' headings and the weeks' summaries and writes the new
 * month's labels and values into the inputs, which do not draw again (docs/performance.md).
 *
 * Its first drawing draws the first weeks, then the others in a transition right after: a
 * device opening the page (offline too) can type into the weeks in view while the weeks
 * below are still being drawn, and the grid is marked busy until then. Once the whole grid
 * has been laid out, weeks out of sight stop being laid out and painted (entry.css).
 *
 * It draws again only when its props change (DailyPerformance keeps them the same
 * otherwise), and then only the weeks whose values, figures or drafts changed: a keystroke
 * draws its own week, not six.
 */
export const DayGrid = memo(function DayGrid({ month, disabled, average, today, valueOf, onCell, onWeek, storeId, isDraft, signSaved }: Props) {
  const onCellLatest = useLatestCallback(onCell);
  const [slots] = useState(() => new GridSlots(onCellLatest));
  const ownWeeks = month.grid.length;
  const [allDrawn, setAllDrawn] = useState(false);
  useEffect(() => {
    if (!allDrawn) startTransition(() => setAllDrawn(true));
  }, [allDrawn]);
  // Laid out whole once (the frame after every week is drawn), the browser knows each
  // week's height, and weeks out of sight may stop being drawn (entry.css).
  const [sized, setSized] = useState(false);
  useEffect(() => {
    if (!allDrawn || sized) return;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => setSized(true));
    });
    return () => cancelAnimationFrame(frame);
  }, [allDrawn, sized]);
  return (
    <div className="day-grid" data-grid role="group" aria-label="Daily hours and sales" aria-busy={allDrawn ? undefined : true} data-sized={sized ? '' : undefined}>
      <div className="weekday-head" aria-hidden="true">
        {weekdays.map((day) => (
          <span key={day}>{day}</span>
        ))}
      </div>
      {paddedGrid(month.month).map((week, weekIndex) => {
        const hidden = weekIndex >= ownWeeks;
        if (!allDrawn && weekIndex >= weeksDrawnFirst) return <section key={weekIndex} className="grid-week" aria-label={`Week ${week.index}`} hidden={hidden} />;
        const cells = week.days.flatMap((day) =>
          dayFields.map(({ row, metric }): CellShown => ({
            label: `${row} ${metricLabel[metric]} ${day.date}`,
            value: valueOf(cellKey(day.date, row, metric)),
            unsubmitted: isDraft?.(cellDraftKey(day.date, row, metric)) === true,
          })),
        );
        const figures = month.weeks.get(week.start);
        const weekDrafts = figures ? weekFields.map((field) => (isDraft?.(weekDraftKey(figures.part.start, field)) ? '1' : '0')).join('') : '';
        return (
          <GridWeekSection
            key={weekIndex}
            week={week}
            weekIndex={weekIndex}
            hidden={hidden}
            cells={cells}
            figures={figures}
            weekDrafts={weekDrafts}
            slots={slots}
            today={today}
            disabled={disabled}
            average={average}
            onWeek={onWeek}
            storeId={storeId}
            isDraft={isDraft}
            signSaved={signSaved}
          />
        );
      })}
    </div>
  );
});

type WeekProps = Pick<Props, 'today' | 'disabled' | 'average' | 'onWeek' | 'storeId' | 'isDraft' | 'signSaved'> & {
  week: GridWeek;
  weekIndex: number;
  hidden: boolean;
  /** What each of the week's inputs shows, day by day in reading order. */
  cells: readonly CellShown[];
  figures: WeekFigures | undefined;
  /** Which of the week's own inputs (Days Complete, Work Days) hold an unsubmitted value, as "0"/"1" each. */
  weekDrafts: string;
  slots: GridSlots;
};

/**
 * Whether a week would draw the same: the same dates (its labels come with `week`, so a month
 * switch draws every week), settings, values, marks and figures. The figures are compared by
 * content: each keystroke computes the month anew, and most weeks' figures stay as they were.
 */
function drawsTheSame(before: WeekProps, after: WeekProps): boolean {
  const same = ['week', 'weekIndex', 'hidden', 'slots', 'today', 'disabled', 'average', 'onWeek', 'storeId', 'signSaved', 'weekDrafts'] as const;
  return (
    same.every((prop) => Object.is(before[prop], after[prop])) &&
    before.cells.every((cell, index) => cell.value === after.cells[index]?.value && cell.unsubmitted === after.cells[index]?.unsubmitted) &&
    JSON.stringify(before.figures) === JSON.stringify(after.figures)
  );
}

/** One week of the grid: its days' kept inputs (what they show written into their slots once drawn) and its summary. */
const GridWeekSection = memo(function GridWeekSection({ week, weekIndex, hidden, cells, figures, slots, today, disabled, average, onWeek, storeId, isDraft, signSaved }: WeekProps) {
  // What each kept cell is to show, written into it once this drawing is on the page.
  const writes: Array<() => void> = [];
  useLayoutEffect(() => {
    for (const apply of writes) apply();
  });
  return (
    <section className="grid-week" aria-label={`Week ${week.index}`} hidden={hidden}>
      <h3 className="week-title">Week {week.index}</h3>
      <div className="list-head" aria-hidden="true">
        <span>Day</span>
        {dayFields.map(({ row, metric }) => (
          <span key={`${row}-${metric}`}>
            {row} {metricLabel[metric]}
          </span>
        ))}
      </div>
      <div className="week-days-grid">
        {week.days.map((day, dayIndex) => (
          <div key={dayIndex} className={`day${day.inMonth ? '' : ' outside'}${day.date === today ? ' today' : ''}`} aria-current={day.date === today ? 'date' : undefined}>
            <span className="day-head">
              <span className="weekday">{weekdays[dayIndex]?.slice(0, 3)}</span> <span className="day-number">{day.day}</span>
              {day.date === today ? <span className="today-mark"> Today</span> : null}
            </span>
            <span className="cell-head hours" aria-hidden="true">
              Hours
            </span>
            <span className="cell-head sales" aria-hidden="true">
              Sales
            </span>
            {rows.map((row, rowIndex) => [
              <span key={`${row}-label`} className="row-label" aria-hidden="true">
                {row}
              </span>,
              ...metrics.map((metric, metricIndex) => {
                const shown = cells[dayIndex * dayFields.length + rowIndex * metrics.length + metricIndex] as CellShown;
                const slot = slots.at(`${weekIndex}-${dayIndex}-${row}-${metric}`, row, metric, day.date, shown);
                writes.push(() => slot.writeDay(day.date, shown));
                return (
                  <KeptCell
                    key={`${row}-${metric}`}
                    slot={slot}
                    limit={limits[metric]}
                    disabled={disabled || !day.inMonth}
                    hidden={!day.inMonth}
                    signSaved={signSaved}
                    order={(weekIndex * 7 + dayIndex) * 6 + rowIndex * 2 + metricIndex + 1}
                    row={weekIndex * 3 + rowIndex}
                    column={dayIndex * 2 + metricIndex}
                    onCommit={slot.commit}
                  />
                );
              }),
            ])}
          </div>
        ))}
      </div>
      <WeekSummary week={week} figures={figures} average={average} disabled={disabled} onWeek={onWeek} storeId={storeId} isDraft={isDraft} />
    </section>
  );
}, drawsTheSame);
