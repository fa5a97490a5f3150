import type { Figures } from '../../domain/front-end-team.ts';
import { addUp, opCodeFields, opCodeShare } from '../../domain/front-end-team.ts';
import { formatPercent } from '../../domain/format.ts';
import { AdvisorFiguresTable } from './AdvisorFiguresTable.tsx';
import type { TeamMonth } from './use-team-month.ts';

const goalText = { 'no-data': 'no ROs yet', behind: 'below the low goal', warning: 'between the goals', good: 'at target' } as const;

type Props = {
  team: TeamMonth;
  onCommit(advisorId: string, key: string, value: number | null): void;
  historyAt?: { storeId: string; firstDay: string };
};

/** Op code counts per advisor, each with its share of the advisor's ROs against the fixed goals. */
export function OpCodeFocus({ team, onCommit, historyAt }: Props) {
  const teamRos = addUp([...team.totals.values()], ['total_ros']).total_ros ?? 0;
  function share(figures: Figures, key: string, advisorId: string | null) {
    const goal = opCodeFields.find((f) => f.key === key);
    const ros = advisorId === null ? teamRos : (team.totals.get(advisorId)?.total_ros ?? 0);
    if (!goal) return null;
    const { percent, status } = opCodeShare(figures[key] ?? 0, ros, goal);
    return (
      <span className={`share ${status}`} title={`${goal.label}: ${goalText[status]}`}>
        {percent === null ? '-' : formatPercent(percent)} of ROs
      </span>
    );
  }
  return (
    <>
      <h2 id="op-code-focus-title">Op Code Focus</h2>
      <AdvisorFiguresTable
        label="Op Code Focus"
        table="front_end_team_advisor_op_codes"
        historyAt={historyAt}
        columns={opCodeFields}
        advisors={team.advisors}
        emptyText={team.emptyText}
        figures={team.opCodes}
        onCommit={onCommit}
        note={share}
        footer={
          <>
            <tr className="goal">
              <th scope="row">LOW GOAL</th>
              {opCodeFields.map((f) => (
                <td key={f.key}>{formatPercent(f.low)}</td>
              ))}
            </tr>
            <tr className="goal">
              <th scope="row">TARGET</th>
              {opCodeFields.map((f) => (
                <td key={f.key}>{formatPercent(f.target)}</td>
              ))}
            </tr>
          </>
        }
      />
    </>
  );
}
