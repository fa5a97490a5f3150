import type { ImportPreview, PreviewCell } from '../../domain/import/preview.ts';

const amount = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const count = new Intl.NumberFormat('en-US');

const figureName = (cell: Pick<PreviewCell, 'row' | 'metric'>) => `${cell.row} ${cell.metric === 'hours' ? 'Hours' : 'Sales'}`;
const shown = (cell: Pick<PreviewCell, 'metric'>, value: number | null | undefined) =>
  value === null || value === undefined ? 'empty' : cell.metric === 'sales' ? money.format(value) : amount.format(value);
const lineList = (lines: readonly number[]) => lines.map((line) => count.format(line)).join(', ');
const plural = (n: number, one: string, many = `${one}s`) => `${count.format(n)} ${n === 1 ? one : many}`;

/** Every refused line with its reasons: lines the reading refused, and the lines of values a closed month refuses. */
function refusedLines(preview: ImportPreview): Array<{ line: number; reasons: string[] }> {
  const byLine = new Map<number, Set<string>>();
  const add = (line: number, reason: string) => byLine.set(line, (byLine.get(line) ?? new Set()).add(reason));
  for (const refusal of preview.lineRefusals) add(refusal.line, refusal.reason);
  for (const cell of preview.cells) if (cell.status === 'refused' && cell.reason) for (const line of cell.lines) add(line, `${cell.date}: ${cell.reason}`);
  return [...byLine].sort(([a], [b]) => a - b).map(([line, reasons]) => ({ line, reasons: [...reasons] }));
}

/**
 * What the import will do, before it does it: how many values are new, changed, unchanged
 * and refused, each value that will be written (with what the cell holds now where it
 * holds another value), and each refused line with its reason.
 */
export function ImportPreviewView({ preview }: { preview: ImportPreview }) {
  const { counts } = preview;
  const writes = preview.cells.filter((cell) => cell.status === 'new' || cell.status === 'changed');
  const unchanged = preview.cells.filter((cell) => cell.status === 'unchanged');
  const refused = refusedLines(preview);
  const span = preview.from && preview.to ? (preview.from === preview.to ? `${preview.from}: ` : `${preview.from} to ${preview.to}: `) : '';
  return (
    <section className="import-preview" aria-label="Import preview">
      <p role="status" className="import-summary">
        {span}
        {plural(counts.new, 'new value')}, {plural(counts.changed, 'changed value')}, {plural(counts.unchanged, 'value')} unchanged
        {counts.refused > 0 ? `, ${plural(counts.refused, 'value')} refused` : ''}; {plural(refused.length, 'line')} refused.
      </p>
      {counts.changed > 0 ? (
        <p className="notice">
          {plural(counts.changed, 'cell holds', 'cells hold')} a different value already (typed or imported before): the import writes over {counts.changed === 1 ? 'it' : 'them'}, marked below.
        </p>
      ) : null}
      {writes.length > 0 ? (
        // A scrolling box a keyboard can reach and scroll (a year's file lists thousands of values).
        <div className="import-table-box" tabIndex={0} role="region" aria-label="What the import writes">
          <table className="import-table">
            <caption>What the import writes</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Figure</th>
                <th scope="col">Now</th>
                <th scope="col">From the file</th>
                <th scope="col">Line</th>
              </tr>
            </thead>
            <tbody>
              {writes.map((cell) => (
                <tr key={`${cell.date}|${cell.row}|${cell.metric}`} className={cell.status}>
                  <td>{cell.date}</td>
                  <td>{figureName(cell)}</td>
                  <td>
                    {cell.status === 'changed' ? <strong>{shown(cell, cell.current)} (replaced)</strong> : 'empty (new)'}
                    {cell.draft !== undefined ? <span className="hint"> {shown(cell, cell.draft)} typed in Submit mode waits; submitting it replaces the import</span> : null}
                  </td>
                  <td>{shown(cell, cell.value)}</td>
                  <td>{lineList(cell.lines)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {refused.length > 0 ? (
        <div className="import-table-box" tabIndex={0} role="region" aria-label="Refused lines">
          <table className="import-table refused">
            <caption>Refused lines: nothing of these is imported</caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {refused.map(({ line, reasons }) => (
                <tr key={line}>
                  <td>{count.format(line)}</td>
                  <td>{reasons.join('; ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {unchanged.length > 0 ? (
        <details>
          <summary>{plural(unchanged.length, 'value')} this device already holds (nothing to write)</summary>
          <ul className="import-unchanged">
            {unchanged.map((cell) => (
              <li key={`${cell.date}|${cell.row}|${cell.metric}`}>
                {cell.date} {figureName(cell)} {shown(cell, cell.value)}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
