import { monthLabel } from '../../domain/month.ts';
import { useSelectedMonth } from '../../features/session/use-month.ts';

/**
 * The month every screen shows, one step at a time. The sidebar carries it on wide
 * screens; the top bar carries it where the sidebar is folded away, so screens without a
 * month control of their own (Yearly, Weekly, Settings, Front End Team) still have one.
 */
export function MonthNavigator() {
  const { month, move } = useSelectedMonth();
  return (
    <div className="month-navigator" role="group" aria-label="Month">
      <button type="button" onClick={() => move(-1)}>
        Prev
      </button>
      <span aria-live="polite">{monthLabel(month)}</span>
      <button type="button" onClick={() => move(1)}>
        Next
      </button>
    </div>
  );
}
