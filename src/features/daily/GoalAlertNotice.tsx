import { useEffect, useRef } from 'react';
import type { GoalAlert } from '../../domain/goal-alerts.ts';
import { keepInputsClearOf } from '../../ui/keep-clear.ts';

/**
 * A goal alert on the screen: announced politely, closed by a tap, and never in the way:
 * while it shows, the input being typed in is kept clear of it (ui/keep-clear.ts).
 */
export function GoalAlertNotice({ alert, onDismiss }: { alert: GoalAlert | null; onDismiss(): void }) {
  const notice = useRef<HTMLParagraphElement>(null);
  useEffect(() => (alert && notice.current ? keepInputsClearOf(notice.current) : undefined), [alert]);
  return (
    <div className="goal-alert-area" role="status" aria-live="polite">
      {alert ? (
        <p ref={notice} className={`goal-alert ${alert.level}`}>
          <span>Goal alert: {alert.text}</span>
          <button type="button" onClick={onDismiss}>
            Dismiss
          </button>
        </p>
      ) : null}
    </div>
  );
}
