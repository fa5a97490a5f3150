import type { KpiId } from '../../domain/kpis.ts';
import type { MonthFigures } from '../../domain/month-figures.ts';
import { KpiTile } from '../../ui/KpiTile.tsx';

/** The daily screens' tiles (spec: Month Complete, Hours and Sales Per Day, and the four ELRs). */
export const dailyTiles: KpiId[] = ['monthComplete', 'hoursPerDay', 'salesPerDay', 'cpElr', 'warrantyElr', 'internalElr', 'totalElr'];

export function KpiRow({ figures, tiles = dailyTiles }: { figures: MonthFigures; tiles?: KpiId[] }) {
  return (
    <div className="kpi-row" role="group" aria-label="Month KPIs">
      {tiles.map((id) => (
        <KpiTile key={id} title={figures[id].label} figure={figures[id]} />
      ))}
    </div>
  );
}
