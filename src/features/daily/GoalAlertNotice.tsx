import type { GoalAlert } from '../../domain/goal-alerts.ts';

/** A goal alert on the screen: announced politely, never in the way, closed by a tap. */
export function GoalAlertNotice({ alert, onDismiss }: { alert: GoalAlert | null; onDismiss(): void }) {
  return (
    <div className="goal-alert-area" role="status" aria-live="polite">
      {alert ? (
        <p className={`goal-alert ${alert.level}`}>
          <span>Goal alert: {alert.text}</span>
          <button type="button" onClick={onDismiss}>
            Dismiss
          </button>
        </p>
      ) : null}
    </div>
  );
}
