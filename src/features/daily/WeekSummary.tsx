import { weekDraftKey } from '../../data/repositories/submit-drafts.ts';
import type { IsoDate } from '../../domain/calendar.ts';
import { numberLimitOf } from '../../domain/field-rules.ts';
import type { GridWeek } from '../../domain/month-grid.ts';
import { CategorySummary } from '../../ui/CategorySummary.tsx';
import { NumberCell } from '../../ui/NumberCell.tsx';
import type { WeekFigures } from '../../data/month-view.ts';

type Props = {
  week: GridWeek;
  figures: WeekFigures | undefined;
  average: boolean;
  disabled: boolean;
  onWeek(partStart: IsoDate, field: 'daysComplete' | 'workDays', value: number | null, seen: number | null): void | Promise<unknown>;
  /** The store, for each week input's history. */
  storeId?: string;
  /** Whether a field holds a value typed in Submit mode and not submitted (by its key in repositories/submit-drafts.ts). */
  isDraft?(key: string): boolean;
  /**
   * Where the week's days are typed elsewhere on the same page (the One Page's Daily
   * section): they show as text with a button to that input, so a week part has one input.
   */
  enterElsewhere?(inputLabel: string): void;
};

/**
 * A week's ALL/CP/W/I hours, sales and ELR over its days in the month (daily average or
 * total), and that part's days complete and work days. An empty field shows what the
 * work pattern gives; an entry that differs from the pattern says so.
 */
export function WeekSummary({ week, figures, average, disabled, onWeek, storeId, isDraft, enterElsewhere }: Props) {
  const totals = figures?.totals;
  const lines = totals
    ? [
        { name: 'ALL', hours: totals.CP.hours + totals.W.hours + totals.I.hours, sales: totals.CP.sales + totals.W.sales + totals.I.sales },
        { name: 'CP', ...totals.CP },
        { name: 'W', ...totals.W },
        { name: 'I', ...totals.I },
      ]
    : [];
  const part = figures?.part;
  const fields = [
    { field: 'daysComplete', column: 'days_complete', text: 'Days Comp', name: 'Days Complete' },
    { field: 'workDays', column: 'work_days', text: 'Work Days', name: 'Work Days' },
  ] as const;
  return (
    <div className="week-summary">
      <CategorySummary label={`Week ${week.index} summary`} lines={lines} averageOver={average ? (figures?.daysComplete ?? null) : undefined} />
      {figures && part ? (
        <div className="week-days">
          {fields.map(({ field, column, text, name }, index) => {
            const entered = figures.entered[field];
            const fromPattern = figures.pattern[field];
            const unsubmitted = isDraft?.(weekDraftKey(part.start, field));
            const inputLabel = `${name} Week ${week.index}`;
            if (enterElsewhere)
              return (
                <p key={field} className="week-day-figure" data-field={field}>
                  {text} <span className="week-day-value">{entered ?? fromPattern}</span>
                  {entered === null ? <span className="hint"> from pattern</span> : null}
                  {unsubmitted ? <span className="draft-note"> not submitted</span> : null}{' '}
                  <button type="button" className="link" aria-label={`Change ${text} in Daily`} onClick={() => enterElsewhere(inputLabel)}>
                    Change
                  </button>
                </p>
              );
            return (
              <label key={field}>
                {text}
                <NumberCell
                  label={inputLabel}
                  value={entered}
                  placeholder={String(fromPattern)}
                  limit={numberLimitOf('weekly_store_performance', column, { week_start_date: part.start })}
                  disabled={disabled}
                  unsubmitted={unsubmitted}
                  row={1000 + week.index}
                  column={index}
                  history={storeId ? { table: 'weekly_store_performance', key: { store_id: storeId, week_start_date: part.start }, field: column } : undefined}
                  onCommit={(value, seen) => onWeek(part.start, field, value, seen)}
                />
                <span className="hint">{entered === null ? 'from pattern' : entered !== fromPattern ? `pattern: ${fromPattern}` : ''}</span>
              </label>
            );
          })}
        </div>
      ) : null}
      {figures && figures.daysComplete > figures.workDays ? (
        <p className="notice" role="status">
          Notice: {figures.daysComplete} days complete but only {figures.workDays} work days this week.
        </p>
      ) : null}
    </div>
  );
}
