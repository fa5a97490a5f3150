/**
 * The Hours Mix doughnut (CP, W, I hours). Loaded lazily: chart.js is the app's largest
 * dependency and only this and the yearly chart need it.
 */
import { ArcElement, Chart, Legend, Tooltip } from 'chart.js';
import { memo } from 'react';
import { Doughnut } from 'react-chartjs-2';

Chart.register(ArcElement, Tooltip, Legend);

/**
 * `target` is the store's Work Mix target as text ("CP 40%, W 30%, I 30%" until a store
 * sets its own). Drawn again only when a figure changes: each new data object makes
 * Chart.js lay the chart out and animate it for a second.
 */
function HoursMixChart({ cp, w, i, target }: { cp: number; w: number; i: number; target: string }) {
  const empty = cp + w + i === 0;
  // Chart.js draws on a canvas: it takes the theme's text colour as a value, not from CSS.
  const textColor = getComputedStyle(document.documentElement).getPropertyValue('--text').trim() || '#e5edf9';
  return (
    <figure className="hours-mix">
      <Doughnut
        aria-label={`Hours mix: CP ${cp}, W ${w}, I ${i} hours`}
        role="img"
        data={{
          labels: ['CP', 'W', 'I'],
          // With no hours yet the slices are equal, so the chart still shows its parts.
          datasets: [{ data: empty ? [1, 1, 1] : [cp, w, i], backgroundColor: ['#38bdf8', '#f59e0b', '#a78bfa'] }],
        }}
        options={{ cutout: '50%', animation: { duration: 1000 }, plugins: { legend: { position: 'bottom', labels: { color: textColor } } } }}
      />
      <figcaption>Target: {target}</figcaption>
    </figure>
  );
}

export default memo(HoursMixChart);
