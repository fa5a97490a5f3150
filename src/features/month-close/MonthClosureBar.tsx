import { useState } from 'react';
import { useDevice } from '../../data/device-context.tsx';
import { setMonthClosed, useMonthClosure } from '../../data/repositories/month-closures.ts';
import type { MonthClosure } from '../../data/repositories/month-closures.ts';
import { monthLabel } from '../../domain/month.ts';
import type { MonthKey } from '../../domain/month.ts';
import { useAccount } from '../session/session-context.tsx';
import { errorText } from '../../sync/errors.ts';

function closedText(closure: MonthClosure): string {
  if (!closure.closedBy || !closure.closedAt) return 'Closed (the server confirms who closed it once this reaches it)';
  return `Closed by ${closure.closedBy} on ${closure.closedAt.slice(0, 10)}`;
}

/**
 * The month's header line: open or closed, and who closed it. A store's manager closes a
 * month after review (its figures can then no longer be changed, which the server
 * enforces); only an admin reopens it.
 */
export function MonthClosureBar({ month }: { month: MonthKey }) {
  const device = useDevice();
  const { storeId, isAdmin } = useAccount();
  const closure = useMonthClosure(storeId, month);
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  if (closure === undefined || !storeId) return null;
  const closed = closure?.closed === true;

  async function change(next: boolean) {
    if (!storeId) return;
    setConfirming(false);
    try {
      await setMonthClosed(device, storeId, month, next);
      setMessage(null);
    } catch (error) {
      setMessage(errorText(error));
    }
  }

  return (
    <div className={`month-closure ${closed ? 'closed' : 'open'}`} role="group" aria-label="Month status">
      <strong>{closed && closure ? closedText(closure) : 'Open'}</strong>
      {!closed && !confirming ? (
        <button type="button" onClick={() => setConfirming(true)}>
          Close month
        </button>
      ) : null}
      {confirming ? (
        <span className="confirm">
          Close {monthLabel(month)}? Its figures can then no longer be changed; only an administrator can reopen it.
          <button type="button" className="primary" onClick={() => void change(true)}>
            Close {monthLabel(month)}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </span>
      ) : null}
      {closed && isAdmin ? (
        <button type="button" onClick={() => void change(false)}>
          Reopen month
        </button>
      ) : null}
      {message ? (
        <span className="error" role="alert">
          {message}
        </span>
      ) : null}
    </div>
  );
}
