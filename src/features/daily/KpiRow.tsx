import { memo } from 'react';
import type { KpiId } from '../../domain/kpis.ts';
import type { MonthFigures } from '../../domain/month-figures.ts';
import { lastYearLine } from '../../domain/month-figures.ts';
import { KpiTile } from '../../ui/KpiTile.tsx';

/** The daily screens' tiles: Month Complete, Hours and Sales Per Day, and the four ELRs (docs/screens.md). */
export const dailyTiles: KpiId[] = ['monthComplete', 'hoursPerDay', 'salesPerDay', 'cpElr', 'warrantyElr', 'internalElr', 'totalElr'];

type Props = { figures: MonthFigures; lastYear?: MonthFigures; tiles?: KpiId[]; headingLevel?: 2 | 3 };

/**
 * `lastYear`: the same month a year before, shown under each tile with the change.
 * `headingLevel`: the tiles' (2 where the row stands right under the page's title).
 */
export const KpiRow = memo(function KpiRow({ figures, lastYear, tiles = dailyTiles, headingLevel }: Props) {
  return (
    <div className="kpi-row" role="group" aria-label="Month KPIs">
      {tiles.map((id) => (
        <KpiTile
          key={id}
          title={figures[id].label}
          figure={figures[id]}
          lastYear={lastYear ? lastYearLine(figures[id], lastYear[id]) : undefined}
          headingLevel={headingLevel}
        />
      ))}
    </div>
  );
});
