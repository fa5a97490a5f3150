/** Monthly sales and net profit of both years as lines. Loaded lazily with chart.js. */
import { CategoryScale, Chart, Legend, LinearScale, LineElement, PointElement, Tooltip } from 'chart.js';
import { memo } from 'react';
import { Line } from 'react-chartjs-2';

Chart.register(CategoryScale, LinearScale, PointElement, LineElement, Tooltip, Legend);

/** Null: no figure for the month (not yet begun, or its expenses not entered): drawn as a gap. */
type Series = { year: number; sales: Array<number | null>; net: Array<number | null> };

type Props = { current: Series; previous: Series };

const sameList = (a: ReadonlyArray<number | null>, b: ReadonlyArray<number | null>) => a.length === b.length && a.every((value, index) => value === b[index]);
const sameSeries = (a: Series, b: Series) => a.year === b.year && sameList(a.sales, b.sales) && sameList(a.net, b.net);

/**
 * Drawn again only when a figure changes: the screen computes new series on every render,
 * and each new data object makes Chart.js lay the chart out and animate it for a second.
 */
function YearlyChart({ current, previous }: Props) {
  const text = getComputedStyle(document.documentElement).getPropertyValue('--text').trim() || '#e5edf9';
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return (
    <figure className="yearly-chart">
      <Line
        role="img"
        aria-label={`Monthly sales and net profit, ${previous.year} and ${current.year}`}
        data={{
          labels: months,
          datasets: [
            { label: `Sales ${current.year}`, data: current.sales, borderColor: '#38bdf8', backgroundColor: '#38bdf8' },
            { label: `Net ${current.year}`, data: current.net, borderColor: '#4ade80', backgroundColor: '#4ade80' },
            { label: `Sales ${previous.year}`, data: previous.sales, borderColor: '#64748b', backgroundColor: '#64748b', borderDash: [6, 4] },
            { label: `Net ${previous.year}`, data: previous.net, borderColor: '#a3a3a3', backgroundColor: '#a3a3a3', borderDash: [6, 4] },
          ],
        }}
        options={{
          // The figure's CSS box sets the size (reserved while the chart loads).
          maintainAspectRatio: false,
          animation: { duration: 1000 },
          plugins: { legend: { labels: { color: text } } },
          scales: { x: { ticks: { color: text } }, y: { ticks: { color: text } } },
        }}
      />
    </figure>
  );
}

export default memo(YearlyChart, (before: Props, after: Props) => sameSeries(before.current, after.current) && sameSeries(before.previous, after.previous));
