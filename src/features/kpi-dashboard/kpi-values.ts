/** Each dashboard tile's figure for a month, from the daily screens' computation. */
import { formatCurrency, formatPercent, formatRatio } from '../../domain/format.ts';
import type { TileStatus } from '../../domain/kpi-math.ts';
import { tileStatus } from '../../domain/kpi-math.ts';
import type { KpiId } from '../../domain/kpis.ts';
import type { DailyMonth } from '../daily/use-daily-month.ts';

export type KpiFigure = { headline: string; actual: string; target: string; status: TileStatus; value: number | null };

const noData: KpiFigure = { headline: '-', actual: '-', target: '-', status: 'no-data', value: null };

export function kpiFigure(id: KpiId, kpis: DailyMonth['kpis']): KpiFigure {
  const pair = (f: { actual: number; target: number }, show: (n: number) => string): KpiFigure => ({
    headline: show(f.actual),
    actual: show(f.actual),
    target: show(f.target),
    status: tileStatus(f.actual, f.target),
    value: f.actual,
  });
  switch (id) {
    case 'monthComplete':
      return {
        headline: formatPercent(kpis.monthComplete),
        actual: `${kpis.daysComplete} days`,
        target: `${kpis.workDays} work days`,
        status: tileStatus(kpis.daysComplete, kpis.workDays),
        value: kpis.monthComplete,
      };
    case 'hoursPerDay':
      return pair(kpis.hoursPerDay, formatRatio);
    case 'salesPerDay':
      return pair(kpis.salesPerDay, formatCurrency);
    case 'cpElr':
    case 'warrantyElr':
    case 'internalElr':
    case 'totalElr':
      return pair(kpis[id], formatCurrency);
    case 'cpHoursPerRo':
      return pair(kpis.cpHoursPerRo, formatRatio);
    case 'workMixChart': {
      const { CP, W, I } = kpis.totals;
      const all = CP.hours + W.hours + I.hours;
      const share = (h: number) => formatPercent(all ? (h / all) * 100 : 0);
      return { headline: `CP ${share(CP.hours)}`, actual: `CP ${share(CP.hours)}, W ${share(W.hours)}, I ${share(I.hours)}`, target: 'CP 40%, W 30%, I 30%', status: all ? 'good' : 'no-data', value: all };
    }
    default:
      // ROs and due bills over 30 days and shop supplies have no data source yet.
      return noData;
  }
}
