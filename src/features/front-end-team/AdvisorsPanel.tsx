import { useState } from 'react';
import type { FormEvent } from 'react';
import { useDevice } from '../../data/device-context.tsx';
import { addAdvisor, retireAdvisor } from '../../data/repositories/store-and-people.ts';
import { addUp, projectToMonthEnd } from '../../domain/front-end-team.ts';
import { fieldLimits } from '../../domain/limits.ts';
import { monthLabel } from '../../domain/month.ts';
import type { MonthKey } from '../../domain/month.ts';
import { ModalDialog } from '../../ui/ModalDialog.tsx';
import type { FigureColumn } from './AdvisorFiguresTable.tsx';
import { AdvisorFiguresTable, showFigure } from './AdvisorFiguresTable.tsx';
import type { Advisor, TeamMonth } from './use-team-month.ts';
import { errorText } from '../../sync/errors.ts';

const columns: FigureColumn[] = [
  { key: 'days_worked', label: 'Days Worked' },
  { key: 'pay_amount', label: 'PAY', money: true },
];

type Props = {
  storeId: string;
  month: MonthKey;
  team: TeamMonth;
  onCommit(advisorId: string, key: string, value: number | null): void;
};

/** The advisors of the month with days worked and pay; advisors are added and removed here. */
export function AdvisorsPanel({ storeId, month, team, onCommit }: Props) {
  const device = useDevice();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Advisor | null>(null);
  const [error, setError] = useState<string | null>(null);
  const totals = addUp([...team.pay.values()], columns.map((c) => c.key));
  const project = (key: string) => {
    const value = totals[key];
    return value === null || value === undefined ? null : projectToMonthEnd(value, team.monthComplete);
  };

  async function add(name: string) {
    try {
      await addAdvisor(device, storeId, name);
      setError(null);
      setAdding(false);
    } catch (problem) {
      setError(`Error adding advisor: ${errorText(problem)}`);
    }
  }
  async function remove(advisor: Advisor) {
    setRemoving(null);
    try {
      await retireAdvisor(device, advisor.id);
      setError(null);
    } catch (problem) {
      setError(`Error removing advisor: ${errorText(problem)}`);
    }
  }

  return (
    <>
      <h2 id="front-end-team-title">FRONT END TEAM - {monthLabel(month)}</h2>
      <AdvisorFiguresTable
        label="Front End Team"
        table="front_end_team_daily_performance"
        historyAt={{ storeId, firstDay: `${month}-01` }}
        columns={columns}
        advisors={team.advisors}
        emptyText={team.emptyText}
        figures={team.pay}
        onCommit={onCommit}
        totalLabel="TOTALS PROJECTING"
        footClassName="alert-foot"
        totalCell={(column, team) => (
          <>
            <span className="figure-total">{showFigure(team[column.key], column.money)}</span>
            <span className="projection" title="The month so far carried to its end at the store's pace">
              projecting {showFigure(project(column.key), column.money)}
            </span>
          </>
        )}
        action={{
          label: 'Remove',
          render: (advisor) => (
            <button type="button" className="danger" aria-label={`Remove ${advisor.name}`} onClick={() => setRemoving(advisor)}>
              Remove
            </button>
          ),
        }}
      />
      <button type="button" className="primary" onClick={() => setAdding(true)}>
        Add Advisor
      </button>
      {error && !adding ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      {adding ? (
        <AddAdvisorDialog
          error={error}
          onAdd={add}
          onClose={() => {
            setAdding(false);
            setError(null);
          }}
        />
      ) : null}
      {removing ? (
        <ModalDialog title={`Remove ${removing.name}?`} onClose={() => setRemoving(null)}>
          <p>{removing.name} leaves the team list. Their figures stay on record.</p>
          <div className="actions">
            <button type="button" className="danger" onClick={() => void remove(removing)}>
              Remove
            </button>
            <button type="button" onClick={() => setRemoving(null)}>
              Cancel
            </button>
          </div>
        </ModalDialog>
      ) : null}
    </>
  );
}

function AddAdvisorDialog({ error, onAdd, onClose }: { error: string | null; onAdd(name: string): Promise<void>; onClose(): void }) {
  const [name, setName] = useState('');
  function submit(event: FormEvent) {
    event.preventDefault();
    void onAdd(name);
  }
  return (
    <ModalDialog title="Add Advisor" onClose={onClose}>
      <form onSubmit={submit}>
        <label>
          Enter advisor name:
          <input value={name} maxLength={fieldLimits.front_end_team_advisors.advisor_name.maxLength} autoFocus onChange={(event) => setName(event.target.value)} />
        </label>
        {error ? (
          <p role="alert" className="error">
            {error}
          </p>
        ) : null}
        <div className="actions">
          <button type="submit" className="primary">
            Add
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
