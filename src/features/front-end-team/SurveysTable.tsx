import { useId, useState } from 'react';
import type { Row } from '../../data/synced-tables.ts';
import { addUp, npsPercent, surveyGoals, surveyStatus } from '../../domain/front-end-team.ts';
import { characterCount, numberLimitOf } from '../../domain/field-rules.ts';
import { formatPercent } from '../../domain/format.ts';
import { fieldLimits } from '../../domain/limits.ts';
import { showFigure } from './AdvisorFiguresTable.tsx';
import { NumberCell } from '../../ui/NumberCell.tsx';
import type { TeamMonth } from './use-team-month.ts';

const numberColumns = [
  { key: 'mpi_media', label: 'MPI Media' },
  { key: 'surveys_count', label: 'Surveys' },
  { key: 'email_penetration', label: 'Email Penetration' },
] as const;

const num = (value: unknown) => (value === null || value === undefined || value === '' ? null : Number(value));
const npsMaxLength = fieldLimits.advisor_survey_data.nps_score.maxLength;

type Props = {
  team: TeamMonth;
  onSave(advisorId: string, fields: Row): void;
  /** The store, for each cell's history. */
  storeId?: string;
};

/** Each advisor's month of surveys: MPI media, NPS (as typed), surveys and e-mail penetration. */
export function SurveysTable({ team, onSave, storeId }: Props) {
  const rows = team.advisors.map((advisor) => ({ advisor, survey: team.surveys.get(advisor.id) }));
  const totalSurveys = addUp(rows.map((r) => r.survey ?? {}), ['surveys_count']).surveys_count;
  return (
    <>
      <h2 id="surveys-title">Surveys</h2>
      <table className="team-table" aria-label="Surveys" data-grid>
        <thead>
          <tr>
            <th scope="col">Advisor</th>
            <th scope="col">MPI Media</th>
            <th scope="col">NPS Score</th>
            <th scope="col">Surveys</th>
            <th scope="col">Email Penetration</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ advisor, survey }, row) => {
            const mpi = num(survey?.mpi_media);
            const cell = (key: (typeof numberColumns)[number]['key'], column: number) => {
              const label = numberColumns.find((c) => c.key === key)?.label ?? key;
              return (
                <NumberCell
                  label={`${label} ${advisor.name}`}
                  value={num(survey?.[key])}
                  limit={numberLimitOf('advisor_survey_data', key)}
                  row={row}
                  column={column}
                  history={storeId ? { table: 'advisor_survey_data', key: { store_id: storeId, advisor_id: advisor.id, year: team.year, month: team.month }, field: key } : undefined}
                  onCommit={(value) => onSave(advisor.id, { [key]: value })}
                />
              );
            };
            return (
              <tr key={advisor.id}>
                <th scope="row">{advisor.name}</th>
                <td className={`share ${surveyStatus(mpi, surveyGoals.mpiTarget)}`}>{cell('mpi_media', 0)}</td>
                <td className={`share ${surveyStatus(npsPercent(survey?.nps_score), surveyGoals.npsTarget)}`}>
                  <TextCell
                    label={`NPS Score ${advisor.name}`}
                    value={survey?.nps_score === null || survey?.nps_score === undefined ? '' : String(survey.nps_score)}
                    maxLength={npsMaxLength}
                    onCommit={(text) => onSave(advisor.id, { nps_score: text.trim() === '' ? null : text.trim() })}
                  />
                </td>
                <td>{cell('surveys_count', 1)}</td>
                <td>{cell('email_penetration', 2)}</td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr className="team-total">
            <th scope="row">TOTAL SURVEYS</th>
            <td colSpan={2} />
            <td>{showFigure(totalSurveys)}</td>
            <td />
          </tr>
          <tr className="goal">
            <th scope="row">BASELINE</th>
            <td>{formatPercent(surveyGoals.baseline)}</td>
            <td>{formatPercent(surveyGoals.baseline)}</td>
            <td colSpan={2} />
          </tr>
          <tr className="goal">
            <th scope="row">TARGET</th>
            <td>{formatPercent(surveyGoals.mpiTarget)}</td>
            <td>{formatPercent(surveyGoals.npsTarget)}</td>
            <td colSpan={2} />
          </tr>
        </tfoot>
      </table>
    </>
  );
}

/**
 * Free text saved when the cell is left, only if something was typed and it changed
 * (focus alone writes nothing: it would put back an old text over another device's).
 * Longer than the field keeps (in characters, as the server counts), it is not saved:
 * the cell keeps the text, is marked invalid and says why.
 */
function TextCell({ label, value, maxLength, onCommit }: { label: string; value: string; maxLength: number; onCommit(text: string): void }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const messageId = useId();
  function commit() {
    if (draft === null) return;
    if (characterCount(draft.trim()) > maxLength) return setError(`${label}: enter at most ${maxLength} characters.`);
    setDraft(null);
    setError(null);
    if (draft !== value) onCommit(draft);
  }
  return (
    <span className="cell-field">
      <input
        className="cell"
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? messageId : undefined}
        value={draft ?? value}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commit}
      />
      {error ? (
        <span id={messageId} role="alert" className="cell-error">
          {error}
        </span>
      ) : null}
    </span>
  );
}
