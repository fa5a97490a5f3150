import type { TileStatus } from '../../domain/kpi-math.ts';
import { tileStatus } from '../../domain/kpi-math.ts';
import { formatCurrency, formatPercent, formatRatio } from '../../domain/format.ts';
import { KpiTile } from '../../ui/KpiTile.tsx';
import type { DailyMonth } from './use-daily-month.ts';

type Figure = { actual: number; target: number };

/** The month's tiles: Month Complete, Hours and Sales Per Day, and the four ELRs. */
export function KpiRow({ kpis }: { kpis: DailyMonth['kpis'] }) {
  const money = (f: Figure, title: string) => ({ title, headline: formatCurrency(f.actual), actual: formatCurrency(f.actual), target: formatCurrency(f.target), status: tileStatus(f.actual, f.target) });
  const tiles: Array<{ title: string; headline: string; actual: string; target: string; status: TileStatus }> = [
    {
      title: 'Month Complete',
      headline: formatPercent(kpis.monthComplete),
      actual: `${kpis.daysComplete} days`,
      target: `${kpis.workDays} work days`,
      status: tileStatus(kpis.daysComplete, kpis.workDays),
    },
    {
      title: 'Hours Per Day',
      headline: formatRatio(kpis.hoursPerDay.actual),
      actual: formatRatio(kpis.hoursPerDay.actual),
      target: formatRatio(kpis.hoursPerDay.target),
      status: tileStatus(kpis.hoursPerDay.actual, kpis.hoursPerDay.target),
    },
    money(kpis.salesPerDay, 'Sales Per Day'),
    money(kpis.cpElr, 'CP ELR'),
    money(kpis.warrantyElr, 'Warranty ELR'),
    money(kpis.internalElr, 'Internal ELR'),
    money(kpis.totalElr, 'Total ELR'),
  ];
  return (
    <div className="kpi-row" role="group" aria-label="Month KPIs">
      {tiles.map((tile) => (
        <KpiTile key={tile.title} {...tile} />
      ))}
    </div>
  );
}
