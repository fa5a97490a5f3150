import { memo, useId } from 'react';
import type { PaceLine } from '../../domain/pace.ts';
import { statusText } from '../../domain/colour-rules.ts';

const paceWords = { ahead: 'Ahead of pace', behind: 'Behind pace', reached: 'Target reached', missed: 'Target missed', 'no-target': 'No target', 'no-data': 'No data yet' } as const;

/**
 * What each remaining work day needs for the month to reach its targets: hours and sales
 * per day, and the labour rate still needed on the hours to come; ahead of or behind
 * pace in words and in the tiles' colours.
 */
export const PacePanel = memo(function PacePanel({ paces, remainingDays }: { paces: PaceLine[]; remainingDays: number }) {
  const titleId = useId();
  return (
    <section className="pace-panel" aria-labelledby={titleId}>
      <h2 id={titleId}>
        Needed per remaining day <span className="hint">({remainingDays} work day{remainingDays === 1 ? '' : 's'} left)</span>
      </h2>
      <table className="pace-table" aria-label="Pace to goal">
        <thead>
          <tr>
            <th scope="col">Figure</th>
            <th scope="col">Needed</th>
            <th scope="col">Pace</th>
          </tr>
        </thead>
        <tbody>
          {paces.map((line) => (
            <tr key={line.id} className={`pace ${line.pace.status}`}>
              <th scope="row">{line.label}</th>
              <td>{line.neededText}</td>
              <td>
                <strong>{paceWords[line.pace.pace]}</strong>
                <span className="visually-hidden"> ({statusText[line.pace.status]})</span>
                <span className="pace-words"> {line.pace.words}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
});
