/**
 * The month-end pack's contents from the month's figures: each day's values, the
 * advisors' month, and the warnings still open. Pure: the print page and its CSV
 * downloads read the same numbers.
 */
import { addUp, scoreCard, totalsFields } from '../../domain/front-end-team.ts';
import type { AdvisorMonth, DayValues } from '../../domain/month-export.ts';
import type { DailyMonth } from '../../data/month-view.ts';
import { cellKey } from '../../data/month-view.ts';
import type { TeamMonth } from '../front-end-team/use-team-month.ts';

/** Every day of the month, in order, with its six values (empty days included). */
export function daysOf(month: DailyMonth): DayValues[] {
  return month.grid.flatMap((week) =>
    week.days
      .filter((day) => day.inMonth)
      .map((day) => ({
        date: day.date,
        values: {
          CP: { hours: month.values.get(cellKey(day.date, 'CP', 'hours')) ?? null, sales: month.values.get(cellKey(day.date, 'CP', 'sales')) ?? null },
          W: { hours: month.values.get(cellKey(day.date, 'W', 'hours')) ?? null, sales: month.values.get(cellKey(day.date, 'W', 'sales')) ?? null },
          I: { hours: month.values.get(cellKey(day.date, 'I', 'hours')) ?? null, sales: month.values.get(cellKey(day.date, 'I', 'sales')) ?? null },
        },
      })),
  );
}

export function advisorsOf(team: TeamMonth): AdvisorMonth[] {
  return team.advisors.map((advisor) => {
    const totals = team.totals.get(advisor.id) ?? addUp([], totalsFields.map((f) => f.key));
    const pay = team.pay.get(advisor.id);
    const daysWorked = pay?.days_worked ?? null;
    return { name: advisor.name, daysWorked, pay: pay?.pay_amount ?? null, totals, score: scoreCard(totals, daysWorked ?? 0) };
  });
}

/** What a manager should look at before closing the month. */
export function openWarnings(month: DailyMonth, sync: { pending: number; deadLetters: number; conflicts: number }): string[] {
  const warnings = [...month.days.warnings];
  for (const figure of Object.values(month.figures)) {
    if (figure.status === 'behind') warnings.push(`${figure.label} is behind target: ${figure.headline} against ${figure.targetText}.`);
  }
  if (sync.pending > 0) warnings.push(`${sync.pending} edit${sync.pending === 1 ? '' : 's'} on this device not yet on the server.`);
  if (sync.deadLetters > 0) warnings.push(`${sync.deadLetters} edit${sync.deadLetters === 1 ? '' : 's'} refused by the server (Sync details).`);
  if (sync.conflicts > 0) warnings.push(`${sync.conflicts} value${sync.conflicts === 1 ? '' : 's'} changed on two devices at once (Sync details).`);
  return warnings;
}
