import type { ScoreCardKey } from '../../domain/front-end-team.ts';
import { addUp, comparison, projectToMonthEnd, scoreCard, scoreCardColumns, scoreCardTargets, totalsFields } from '../../domain/front-end-team.ts';
import { numberLimitOf } from '../../domain/field-rules.ts';
import { formatCurrency, formatRatio } from '../../domain/format.ts';
import { NumberCell } from '../../ui/NumberCell.tsx';
import type { TeamMonth } from './use-team-month.ts';

const show = (key: ScoreCardKey, value: number) => (scoreCardColumns.find((c) => c.key === key)?.money ? formatCurrency(value) : formatRatio(value));
const projecting = (labourSales: number | null, monthComplete: number) => {
  const projected = labourSales === null ? null : projectToMonthEnd(labourSales, monthComplete);
  return projected === null ? '-' : formatCurrency(projected);
};

type Props = {
  team: TeamMonth;
  onTarget(column: string, value: number | null): void;
  /** The store, for each target's history. */
  storeId?: string;
};

/**
 * Each advisor's month as ratios (per RO over their ROs, per day over their days worked),
 * the team's over the store's days complete, the month's targets (editable) and how the
 * team compares. Projecting carries labour sales to the month's end at the store's pace.
 */
export function ScoreCard({ team, onTarget, storeId }: Props) {
  const keys = totalsFields.map((f) => f.key);
  const teamTotals = addUp([...team.totals.values()], keys);
  const teamScore = scoreCard(teamTotals, team.daysComplete);
  const targets = scoreCardTargets(team.targets);
  return (
    <>
      <h2 id="score-card-title">Score Card</h2>
      <table className="team-table" aria-label="Score Card" data-grid>
        <thead>
          <tr>
            <th scope="col">Advisor</th>
            {scoreCardColumns.map((c) => (
              <th key={c.key} scope="col">
                {c.label}
              </th>
            ))}
            <th scope="col">Projecting</th>
          </tr>
        </thead>
        <tbody>
          {team.advisors.map((advisor) => {
            const totals = team.totals.get(advisor.id) ?? {};
            const score = scoreCard(totals, team.pay.get(advisor.id)?.days_worked ?? 0);
            return (
              <tr key={advisor.id}>
                <th scope="row">{advisor.name}</th>
                {scoreCardColumns.map((c) => (
                  <td key={c.key}>{show(c.key, score[c.key])}</td>
                ))}
                <td>{projecting(totals.labour_sales ?? null, team.monthComplete)}</td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr className="team-total">
            <th scope="row">TEAM TOTAL</th>
            {scoreCardColumns.map((c) => (
              <td key={c.key}>{show(c.key, teamScore[c.key])}</td>
            ))}
            <td>{projecting(teamTotals.labour_sales ?? null, team.monthComplete)}</td>
          </tr>
          <tr className="goal">
            <th scope="row">TARGET</th>
            {scoreCardColumns.map((c, column) => (
              <td key={c.key}>
                <NumberCell
                  label={`Target ${c.label}`}
                  value={targets[c.key]}
                  limit={numberLimitOf('front_end_team_targets', c.targetColumn)}
                  row={0}
                  column={column}
                  history={storeId ? { table: 'front_end_team_targets', key: { store_id: storeId, year: team.year, month: team.month }, field: c.targetColumn } : undefined}
                  onCommit={(value) => onTarget(c.targetColumn, value)}
                />
              </td>
            ))}
            <td />
          </tr>
          <tr>
            <th scope="row">VS TARGET</th>
            {scoreCardColumns.map((c) => {
              const { text, status } = comparison(teamScore[c.key], targets[c.key]);
              return (
                <td key={c.key} className={`share ${status}`}>
                  {text}
                </td>
              );
            })}
            <td />
          </tr>
        </tfoot>
      </table>
    </>
  );
}
