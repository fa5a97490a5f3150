import { useSearchParams } from 'react-router-dom';
import type { MonthKey } from '../../domain/month.ts';
import { readMonth, shiftMonth } from '../../domain/month.ts';

/** The month all screens show, kept in the URL (?month=yyyy-MM) so a reload or a shared link keeps it. */
export function useSelectedMonth(): { month: MonthKey; move(by: number): void; setMonth(month: MonthKey): void } {
  const [params, setParams] = useSearchParams();
  const month = readMonth(params.get('month'), new Date());
  const setMonth = (value: MonthKey) => {
    const next = new URLSearchParams(params);
    next.set('month', value);
    setParams(next, { replace: true });
  };
  return { month, move: (by) => setMonth(shiftMonth(month, by)), setMonth };
}
