/**
 * What importing a read report would do to the values this device holds, before anything
 * is written: each value of the file is new (the cell is empty here), changed (the cell
 * holds another value, typed or imported before: the import writes over it, and the
 * preview shows both), unchanged (the cell already holds it; nothing is written, so the
 * same file imported twice changes nothing the second time) or refused (its month is
 * closed, with the closure's reason, as the server would refuse it). Lines the reading
 * refused keep their reasons. A value typed in Submit mode and not submitted for a cell
 * is named too: submitting it later writes over the import. docs/import.md.
 */
import type { IsoDate } from '../calendar.ts';
import type { Category } from '../kpi-math.ts';
import type { MonthKey } from '../month.ts';
import type { ImportedCell, ImportMetric, LineRefusal, ReadReport } from './read-report.ts';

export type CellStatus = 'new' | 'changed' | 'unchanged' | 'refused';

export type PreviewCell = ImportedCell & {
  status: CellStatus;
  /** The value this device holds for the cell now (null: empty). */
  current: number | null;
  /** Why a refused cell is refused. */
  reason?: string;
  /** A value typed in Submit mode for the cell and not submitted yet. */
  draft?: number | null;
};

/** A value to write, with the value the device showed for it (the edit's base, as the grid's edits have). */
export type ImportWrite = { date: IsoDate; row: Category; metric: ImportMetric; value: number; seen: number | null };

export type ImportPreview = {
  cells: PreviewCell[];
  /** Lines refused whole, with the reason; a line number once per reason. */
  lineRefusals: LineRefusal[];
  counts: Record<CellStatus, number>;
  /** The new and changed values: what confirming the import writes. */
  writes: ImportWrite[];
  /** The first and last day the file's values are for (null without any). */
  from: IsoDate | null;
  to: IsoDate | null;
};

/** What the device holds where the file's values go: stored values, closed months with the reason, and Submit-mode drafts; each by `date|row|metric` (months by yyyy-MM). */
export type DeviceCells = {
  stored: ReadonlyMap<string, number | null>;
  closedMonths: ReadonlyMap<MonthKey, string>;
  drafts: ReadonlyMap<string, number | null>;
};

export const importCellKey = (date: IsoDate, row: Category, metric: ImportMetric) => `${date}|${row}|${metric}`;

/** Equal as the field keeps them: to the cent. */
const sameAmount = (a: number, b: number) => Math.round(a * 100) === Math.round(b * 100);

export function previewImport(read: ReadReport, device: DeviceCells): ImportPreview {
  const counts: Record<CellStatus, number> = { new: 0, changed: 0, unchanged: 0, refused: 0 };
  const writes: ImportWrite[] = [];
  const cells = read.cells.map((cell): PreviewCell => {
    const key = importCellKey(cell.date, cell.row, cell.metric);
    const current = device.stored.get(key) ?? null;
    const closed = device.closedMonths.get(cell.date.slice(0, 7));
    const draft = device.drafts.has(key) ? { draft: device.drafts.get(key) ?? null } : {};
    let status: CellStatus;
    if (closed) status = 'refused';
    else if (current === null) status = 'new';
    else status = sameAmount(current, cell.value) ? 'unchanged' : 'changed';
    counts[status] += 1;
    if (status === 'new' || status === 'changed') writes.push({ date: cell.date, row: cell.row, metric: cell.metric, value: cell.value, seen: current });
    return { ...cell, status, current, ...(closed ? { reason: closed } : {}), ...draft };
  });
  const dates = read.cells.map((cell) => cell.date);
  return {
    cells,
    lineRefusals: read.refusals,
    counts,
    writes,
    from: dates.length ? (dates.reduce((a, b) => (a < b ? a : b)) as IsoDate) : null,
    to: dates.length ? (dates.reduce((a, b) => (a > b ? a : b)) as IsoDate) : null,
  };
}

/** The closure's reason as the server words its refusal: "month closed by NAME on DATE". */
export function closedMonthReason(closedBy: string | null, closedAt: string | null): string {
  if (!closedBy || !closedAt) return 'month closed (on this device; the server confirms who closed it once it gets there)';
  return `month closed by ${closedBy} on ${closedAt.slice(0, 10)}`;
}
