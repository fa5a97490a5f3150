import { formatCount, formatCurrency, formatHours, formatRatio } from '../../domain/format.ts';
import { scoreCardColumns } from '../../domain/front-end-team.ts';
import { elr } from '../../domain/kpi-math.ts';
import type { AdvisorMonth } from '../../domain/month-export.ts';
import type { DailyMonth } from '../../data/month-view.ts';

/** Each week's part of the month: its days, hours, sales and ELR. */
export function WeeksSection({ month }: { month: DailyMonth }) {
  return (
    <section className="pack-section" aria-labelledby="pack-weeks">
      <h2 id="pack-weeks">Weekly summaries</h2>
      <table className="monthly-table" aria-label="Weekly summaries">
        <thead>
          <tr>
            {['Week', 'Dates', 'Days Complete', 'Work Days', 'Hours', 'Sales', 'ELR'].map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {month.grid.map((week) => {
            const figures = month.weeks.get(week.start);
            if (!figures) return null;
            const hours = figures.totals.CP.hours + figures.totals.W.hours + figures.totals.I.hours;
            const sales = figures.totals.CP.sales + figures.totals.W.sales + figures.totals.I.sales;
            return (
              <tr key={week.start}>
                <th scope="row">Week {week.index}</th>
                <td>
                  {figures.part.start} to {figures.part.end}
                </td>
                <td>{figures.daysComplete}</td>
                <td>{figures.workDays}</td>
                <td>{formatHours(hours)}</td>
                <td>{formatCurrency(sales)}</td>
                <td>{formatCurrency(elr(sales, hours))}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

/** The advisors' month: days, pay and their score card. */
export function AdvisorsSection({ advisors }: { advisors: AdvisorMonth[] }) {
  const money = new Set(scoreCardColumns.filter((c) => c.money).map((c) => c.key));
  return (
    <section className="pack-section" aria-labelledby="pack-advisors">
      <h2 id="pack-advisors">Advisor score card</h2>
      {advisors.length === 0 ? (
        <p>No advisors this month.</p>
      ) : (
        <table className="monthly-table" aria-label="Advisor score card">
          <thead>
            <tr>
              {['Advisor', 'Days Worked', 'Pay', ...scoreCardColumns.map((c) => c.label)].map((h) => (
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {advisors.map((advisor) => (
              <tr key={advisor.name}>
                <th scope="row">{advisor.name}</th>
                <td>{advisor.daysWorked === null ? '-' : formatCount(advisor.daysWorked)}</td>
                <td>{advisor.pay === null ? '-' : formatCurrency(advisor.pay)}</td>
                {scoreCardColumns.map((c) => (
                  <td key={c.key}>{money.has(c.key) ? formatCurrency(advisor.score[c.key]) : formatRatio(advisor.score[c.key])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
