import { useState } from 'react';
import { useDevice } from '../../data/device-context.tsx';
import type { AdvisorMonthTable } from '../../data/repositories/front-end-team.ts';
import { saveAdvisorMonthFigure, saveTeamRows } from '../../data/repositories/front-end-team.ts';
import type { Row } from '../../data/synced-tables.ts';
import { totalsFields } from '../../domain/front-end-team.ts';
import { AdvisorFiguresTable } from './AdvisorFiguresTable.tsx';
import { AdvisorsPanel } from './AdvisorsPanel.tsx';
import { OpCodeFocus } from './OpCodeFocus.tsx';
import { ScoreCard } from './ScoreCard.tsx';
import { SurveysTable } from './SurveysTable.tsx';
import { useFrontEndTeamMonth } from './use-team-month.ts';
import { CellHistory, useLastCell } from '../history/CellHistory.tsx';
import { useAccount } from '../session/session-context.tsx';
import { useSelectedMonth } from '../session/use-month.ts';
import { errorText } from '../../sync/errors.ts';
import { useScreenDrawn } from '../../ui/screen-drawn.ts';

const sections = [
  { id: 'front-end-team-section', label: 'Front End Team' },
  { id: 'totals-section', label: 'Totals' },
  { id: 'op-code-focus-section', label: 'Op Code Focus' },
  { id: 'surveys-section', label: 'Surveys' },
  { id: 'score-card-section', label: 'Score Card' },
] as const;

function scrollToSection(id: string) {
  document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', inline: 'start', block: 'nearest' });
}

/** The service advisors' month: days and pay, totals, op codes, surveys and the score card. */
export function FrontEndTeamPage() {
  const device = useDevice();
  const { storeId } = useAccount();
  const { month } = useSelectedMonth();
  const team = useFrontEndTeamMonth(storeId, month);
  // The cell that last had focus is the one "History of ..." asks about (each names its stored field).
  const lastCell = useLastCell(() => null);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);

  async function run(save: () => Promise<unknown>) {
    setStatus({ text: 'Saving...', error: false });
    try {
      await save();
      setStatus({ text: 'Saved', error: false });
    } catch (error) {
      setStatus({ text: `Error saving: ${errorText(error)}`, error: true });
    }
  }

  useScreenDrawn(Boolean(team));
  if (!storeId) return <p role="alert">Store ID not found. Please ensure you are logged in and have a store associated.</p>;
  if (!team) return <p>Loading front end team...</p>;
  const where = { storeId, year: team.year, month: team.month };
  const historyAt = { storeId, firstDay: `${month}-01` };
  const figure = (table: AdvisorMonthTable) => (advisorId: string, key: string, value: number | null) =>
    void run(() => saveAdvisorMonthFigure(device, table, { ...where, advisorId }, key, value));
  const survey = (advisorId: string, fields: Row) =>
    void run(() => saveTeamRows(device, 'advisor_survey_data', [{ store_id: storeId, advisor_id: advisorId, year: team.year, month: team.month, ...fields }]));
  const target = (column: string, value: number | null) =>
    void run(() => saveTeamRows(device, 'front_end_team_targets', [{ store_id: storeId, year: team.year, month: team.month, [column]: value }]));

  return (
    <div className="front-end-team">
      <header className="card team-header">
        <h1>Front End Team</h1>
        <nav aria-label="Front End Team sections" className="actions">
          {sections.map((s) => (
            <button key={s.id} type="button" onClick={() => scrollToSection(s.id)}>
              {s.label}
            </button>
          ))}
        </nav>
        <details className="help">
          <summary>How to use</summary>
          <p>
            Pick the month in the sidebar. Type a figure and leave the cell (Tab, Enter or a tap elsewhere) to save it; it is kept on this
            device at once and sent to the server when there is a connection. Add advisors in the Front End Team panel; removing one keeps
            their figures. The Score Card is worked out from Totals and Days Worked; its targets can be changed for the month.
          </p>
        </details>
        <p className={status?.error ? 'save-status error' : 'save-status'} role="status">
          {status?.text ?? ''}
        </p>
      </header>
      <div className="team-sections" onFocus={lastCell.onFocus}>
        <section id="front-end-team-section" className="card" aria-labelledby="front-end-team-title">
          <AdvisorsPanel storeId={storeId} month={month} team={team} onCommit={figure('front_end_team_daily_performance')} />
        </section>
        <section id="totals-section" className="card" aria-labelledby="totals-title">
          <h2 id="totals-title">Totals</h2>
          <AdvisorFiguresTable
            label="Totals"
            table="front_end_team_advisor_totals"
            historyAt={historyAt}
            columns={totalsFields}
            advisors={team.advisors}
            emptyText={team.emptyText}
            figures={team.totals}
            onCommit={figure('front_end_team_advisor_totals')}
          />
        </section>
        <section id="op-code-focus-section" className="card" aria-labelledby="op-code-focus-title">
          <OpCodeFocus team={team} historyAt={historyAt} onCommit={figure('front_end_team_advisor_op_codes')} />
        </section>
        <section id="surveys-section" className="card" aria-labelledby="surveys-title">
          <SurveysTable team={team} storeId={storeId} onSave={survey} />
        </section>
        <section id="score-card-section" className="card" aria-labelledby="score-card-title">
          <ScoreCard team={team} storeId={storeId} onTarget={target} />
        </section>
        <section className="card" aria-label="History">
          <CellHistory cell={lastCell.cell} />
        </section>
      </div>
    </div>
  );
}
