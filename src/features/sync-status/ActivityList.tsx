import { useGoalAlerts } from '../../data/repositories/goal-alerts.ts';
import { useAccount } from '../session/session-context.tsx';

const when = (at: number) => new Date(at).toLocaleString([], { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

/** The sync panel's activity list: the goal alerts this device raised, newest first. */
export function ActivityList() {
  const { storeId } = useAccount();
  const alerts = useGoalAlerts(storeId) ?? [];
  return (
    <>
      <h2>Activity</h2>
      {alerts.length === 0 ? <p>No goal alerts.</p> : null}
      <ul className="activity">
        {alerts.slice(0, 20).map((alert) => (
          <li key={`${alert.kpi}-${alert.day}`}>
            <span className={`badge ${alert.level}`}>{alert.level === 'red' ? 'Red' : 'Amber'}</span> {alert.text} <span className="hint">{when(alert.at)}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
