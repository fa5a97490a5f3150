import type { ReactNode } from 'react';
import type { TileStatus } from '../domain/colour-rules.ts';
import { statusText } from '../domain/colour-rules.ts';
import { FigureWorking } from './FigureWorking.tsx';

export type TileFigure = { headline: string; actual: string; targetText: string; status: TileStatus; working: string };

/**
 * One KPI: headline, actual and target, coloured (and named, for screen readers) by its
 * status, with how it was computed one tap away. `handle` and `actual` let the dashboard
 * add its drag handle and its last-months tooltip.
 */
export function KpiTile({ title, figure, handle, actual, className = '' }: { title: string; figure: TileFigure; handle?: ReactNode; actual?: ReactNode; className?: string }) {
  return (
    <article className={`kpi-tile ${figure.status} ${className}`.trim()} aria-label={title}>
      <h3>
        {handle}
        {title} <FigureWorking title={title} working={figure.working} />
      </h3>
      <p className="headline">{figure.headline}</p>
      {actual ?? <p>Actual: {figure.actual}</p>}
      <p>Target: {figure.targetText}</p>
      <p className="status">{statusText[figure.status]}</p>
    </article>
  );
}
