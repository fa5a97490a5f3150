import { useEffect, useState } from 'react';
import type { Store, StoreDeletionImpact } from '../../server/admin-api.ts';
import { ModalDialog } from '../../ui/ModalDialog.tsx';
import { useAdminApi } from '../session/session-context.tsx';

/** How each table's rows are named to a person, as [one, many]. */
const rowNames: Record<string, [string, string]> = {
  daily_inputs: ['daily figure', 'daily figures'],
  weekly_store_performance: ['week of days complete and work days', 'weeks of days complete and work days'],
  monthly_targets: ['monthly target', 'monthly targets'],
  monthly_labor_gross_inputs: ['monthly labour and gross figure', 'monthly labour and gross figures'],
  monthly_operational_inputs: ['month of operational figures', 'months of operational figures'],
  yearly_financial_inputs: ['yearly financial figure', 'yearly financial figures'],
  store_settings: ['set of store settings', 'sets of store settings'],
  store_calendar_days: ['calendar day', 'calendar days'],
  month_closures: ['month closure', 'month closures'],
  user_dashboard_preferences: ['dashboard preference', 'dashboard preferences'],
  front_end_team_advisors: ['advisor', 'advisors'],
};
const teamFigures: [string, string] = ['front end team figure', 'front end team figures'];

const counted = (n: number, [one, many]: [string, string]) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The rows per table as a person reads them, the advisors' many tables as one kind. */
export function figuresBreakdown(rows: Record<string, number>): { total: number; parts: string[] } {
  const kinds = new Map<string, { names: [string, string]; count: number }>();
  for (const [table, count] of Object.entries(rows)) {
    const names = rowNames[table] ?? (table.startsWith('front_end_team_') || table.startsWith('advisor_') ? teamFigures : ([table.replaceAll('_', ' '), table.replaceAll('_', ' ')] as [string, string]));
    const kind = kinds.get(names[1]) ?? { names, count: 0 };
    kind.count += count;
    kinds.set(names[1], kind);
  }
  const parts = [...kinds.values()].sort((a, b) => b.count - a.count).map((kind) => counted(kind.count, kind.names));
  return { total: Object.values(rows).reduce((sum, n) => sum + n, 0), parts };
}

function usersText(users: number): string {
  if (users === 0) return 'No user is assigned to it.';
  return `${counted(users, ['user', 'users'])} assigned to it ${users === 1 ? 'loses' : 'lose'} their store: they keep their sign-in but see no figures until an administrator assigns them another store.`;
}

function figuresText(rows: Record<string, number>): string {
  const { total, parts } = figuresBreakdown(rows);
  if (total === 0) return 'It holds no saved figures.';
  return `${counted(total, ['saved figure', 'saved figures'])} ${total === 1 ? 'goes' : 'go'} with it: ${parts.join(', ')}.`;
}

type Props = { store: Store; onDelete(): void; onClose(): void };

/**
 * Deleting a store takes its users' store and every figure kept for it, so the dialog
 * counts both (from the server) and asks for the store's name to be typed before the
 * Delete button works.
 */
export function StoreDeletionDialog({ store, onDelete, onClose }: Props) {
  const api = useAdminApi();
  const [impact, setImpact] = useState<StoreDeletionImpact | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [typed, setTyped] = useState('');

  useEffect(() => {
    let current = true;
    void api.storeDeletionImpact(store.id).then((result) => {
      if (!current) return;
      if (result.ok) setImpact(result.data);
      else setProblem(`What goes with it could not be counted: ${result.message}`);
    });
    return () => {
      current = false;
    };
  }, [api, store.id]);

  const confirmed = typed === store.name && impact !== null;
  return (
    <ModalDialog title={`Delete ${store.name}?`} onClose={onClose}>
      <p>Are you sure you want to delete &quot;{store.name}&quot;? This action cannot be undone.</p>
      {impact ? (
        <ul className="deletion-impact">
          <li>{usersText(impact.users)}</li>
          <li>{figuresText(impact.rows)}</li>
        </ul>
      ) : (
        <p role={problem ? 'alert' : 'status'} className={problem ? 'error' : undefined}>
          {problem ?? 'Counting the users and figures that go with it...'}
        </p>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (confirmed) onDelete();
        }}
      >
        <label>
          Type {store.name} to confirm
          <input value={typed} autoComplete="off" spellCheck={false} onChange={(event) => setTyped(event.target.value)} />
        </label>
        <div className="actions">
          <button type="submit" className="danger" disabled={!confirmed}>
            Delete store
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
