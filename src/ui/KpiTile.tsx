import type { ReactNode } from 'react';
import type { TileStatus } from '../domain/colour-rules.ts';
import { statusText } from '../domain/colour-rules.ts';
import { FigureWorking } from './FigureWorking.tsx';

export type TileFigure = { headline: string; actual: string; targetText: string; status: TileStatus; working: string };

type Props = {
  title: string;
  figure: TileFigure;
  handle?: ReactNode;
  actual?: ReactNode;
  lastYear?: string;
  className?: string;
  /** The tile's heading level: one below the heading it stands under (3 under a section's h2, 2 right under a page's h1). */
  headingLevel?: 2 | 3;
};

/**
 * One KPI: headline, actual and target, coloured (and named, for screen readers) by its
 * status, with how it was computed one tap away, and the same month last year when given.
 * `handle` and `actual` let the dashboard add its drag handle and its last-months tooltip.
 */
export function KpiTile({ title, figure, handle, actual, lastYear, className = '', headingLevel = 3 }: Props) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className={`kpi-tile ${figure.status} ${className}`.trim()} aria-label={title}>
      <Heading>
        {handle}
        {title} <FigureWorking title={title} working={figure.working} />
      </Heading>
      <p className="headline">{figure.headline}</p>
      {actual ?? <p>Actual: {figure.actual}</p>}
      <p>Target: {figure.targetText}</p>
      {lastYear ? <p className="last-year">{lastYear}</p> : null}
      <p className="status">{statusText[figure.status]}</p>
    </article>
  );
}
