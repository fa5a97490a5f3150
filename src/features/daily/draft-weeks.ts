import type { SubmitDraft } from '../../data/repositories/submit-drafts.ts';
import type { IsoDate } from '../../domain/calendar.ts';
import type { DailyMonth } from '../../data/month-view.ts';

type WeekEdit = { daysComplete?: number | null; workDays?: number | null };

/**
 * The month with its week parts' drafts (Days Complete, Work Days typed in Submit mode
 * and not submitted) in place of what is stored: every screen showing a week part shows
 * the same value, the draft included, and the figures count with it.
 */
export function withDraftWeeks(data: DailyMonth, drafts: readonly SubmitDraft[] | undefined): DailyMonth {
  const edits = new Map<IsoDate, WeekEdit>();
  for (const draft of drafts ?? []) if (draft.weekField) edits.set(draft.date, { ...edits.get(draft.date), [draft.weekField]: draft.value });
  if (edits.size === 0) return data;
  const weeks = new Map(data.weeks);
  for (const [start, figures] of data.weeks) {
    const edit = edits.get(figures.part.start);
    if (!edit) continue;
    const entered = { ...figures.entered, ...edit };
    weeks.set(start, { ...figures, entered, daysComplete: entered.daysComplete ?? figures.pattern.daysComplete, workDays: entered.workDays ?? figures.pattern.workDays });
  }
  return { ...data, weeks };
}
