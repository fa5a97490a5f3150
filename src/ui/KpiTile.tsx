import type { TileStatus } from '../domain/kpi-math.ts';

const statusText: Record<TileStatus, string> = {
  'no-target': 'No Target',
  'no-data': 'No Data',
  good: 'On target',
  warning: 'Close to target',
  behind: 'Behind target',
};

/** One KPI: headline, actual and target, coloured (and named, for screen readers) by status. */
export function KpiTile({ title, headline, actual, target, status }: { title: string; headline: string; actual: string; target: string; status: TileStatus }) {
  return (
    <article className={`kpi-tile ${status}`} aria-label={title}>
      <h3>{title}</h3>
      <p className="headline">{headline}</p>
      <p>Actual: {actual}</p>
      <p>Target: {target}</p>
      <p className="status">{statusText[status]}</p>
    </article>
  );
}
