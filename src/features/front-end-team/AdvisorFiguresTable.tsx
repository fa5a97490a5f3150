import type { ReactNode } from 'react';
import type { Figures } from '../../domain/front-end-team.ts';
import { addUp } from '../../domain/front-end-team.ts';
import { numberLimitOf } from '../../domain/field-rules.ts';
import { formatCount, formatCurrency } from '../../domain/format.ts';
import type { LimitedTable } from '../../domain/limits.ts';
import { NumberCell } from '../../ui/NumberCell.tsx';
import type { Advisor } from './use-team-month.ts';

export type FigureColumn = { key: string; label: string; money?: boolean };

type Props = {
  label: string;
  /** The table the figures are kept in: its field limits apply to the cells. */
  table: LimitedTable;
  columns: readonly FigureColumn[];
  advisors: Advisor[];
  figures: Map<string, Figures>;
  onCommit(advisorId: string, key: string, value: number | null): void;
  /** Shown under a cell's input, e.g. the share of ROs an op code count stands for. */
  note?(figures: Figures, key: string, advisorId: string | null): ReactNode;
  /** Rows after the team's total (goals, targets). */
  footer?: ReactNode;
  /** A last column per advisor (the panel's Remove button), headed by `action.label`. */
  action?: { label: string; render(advisor: Advisor): ReactNode };
  totalLabel?: string;
  /** What a column's cell in the team's total row shows (by default the total alone). */
  totalCell?(column: FigureColumn, team: Figures): ReactNode;
  /** A class for the table's foot (the total row and `footer`), e.g. the advisors panel's red foot. */
  footClassName?: string;
  /** What an empty team means right now (none added yet, or not fetched yet). */
  emptyText: string;
  /** The store and the month's first day the figures are kept on, for each cell's history. */
  historyAt?: { storeId: string; firstDay: string };
};

export const showFigure = (value: number | null | undefined, money?: boolean) =>
  value === null || value === undefined ? '-' : money ? formatCurrency(value) : formatCount(value);

/** Advisors down, figures across, each cell saved as it is left; the team's total at the foot. */
export function AdvisorFiguresTable({ label, table, columns, advisors, figures, onCommit, note, footer, action, totalLabel = 'TEAM TOTAL', totalCell, footClassName, emptyText, historyAt }: Props) {
  const keys = columns.map((c) => c.key);
  const team = addUp([...figures.values()], keys);
  return (
    <table className="team-table" aria-label={label} data-grid>
      <thead>
        <tr>
          <th scope="col">Advisor</th>
          {columns.map((c) => (
            <th key={c.key} scope="col">
              {c.label}
            </th>
          ))}
          {action ? <th scope="col">{action.label}</th> : null}
        </tr>
      </thead>
      <tbody>
        {advisors.length === 0 ? (
          <tr>
            <td className="empty" colSpan={columns.length + (action ? 2 : 1)}>
              {emptyText}
            </td>
          </tr>
        ) : null}
        {advisors.map((advisor, row) => {
          const own = figures.get(advisor.id) ?? {};
          return (
            <tr key={advisor.id}>
              <th scope="row">{advisor.name}</th>
              {columns.map((c, column) => (
                <td key={c.key}>
                  <NumberCell
                    label={`${c.label} ${advisor.name}`}
                    value={own[c.key] ?? null}
                    limit={numberLimitOf(table, c.key)}
                    row={row}
                    column={column}
                    history={historyAt ? { table, key: { store_id: historyAt.storeId, advisor_id: advisor.id, entry_date: historyAt.firstDay }, field: c.key } : undefined}
                    onCommit={(value) => onCommit(advisor.id, c.key, value)}
                  />
                  {note?.(own, c.key, advisor.id)}
                </td>
              ))}
              {action ? <td>{action.render(advisor)}</td> : null}
            </tr>
          );
        })}
      </tbody>
      <tfoot className={footClassName}>
        <tr className="team-total">
          <th scope="row">{totalLabel}</th>
          {columns.map((c) => (
            <td key={c.key}>
              {totalCell ? totalCell(c, team) : showFigure(team[c.key], c.money)}
              {note?.(team, c.key, null)}
            </td>
          ))}
          {action ? <td /> : null}
        </tr>
        {footer}
      </tfoot>
    </table>
  );
}
