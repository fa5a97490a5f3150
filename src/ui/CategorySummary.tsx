import { formatCurrency, formatHours } from '../domain/format.ts';
import { working } from '../domain/formulas.ts';
import { dailyAverage, elr } from '../domain/kpi-math.ts';
import { money2, num1 } from '../domain/working-format.ts';
import { FigureValue } from './FigureWorking.tsx';

export type CategoryLine = { name: string; hours: number; sales: number };

/**
 * Hours, sales and ELR per labour category, each showing how it was computed. With
 * `averageOver` the hours and sales are daily averages over that many days complete (over
 * 1 when none: docs/figures.md, "Daily, Weekly and Today"); the ELR always comes from the totals.
 */
export function CategorySummary({ label, lines, averageOver }: { label: string; lines: CategoryLine[]; averageOver?: number | null }) {
  const averaging = averageOver !== undefined;
  const shown = (total: number, unit: 'h' | '$') => {
    const value = averaging ? dailyAverage(total, averageOver) : total;
    const text = unit === 'h' ? formatHours(value) : formatCurrency(value);
    const totalText = unit === 'h' ? `${num1(total)} h` : money2(total);
    const days = averageOver && averageOver > 0 ? averageOver : 1;
    return <FigureValue text={text} working={averaging ? working('dailyAverage', `${totalText} / ${days}`, text) : working(unit === 'h' ? 'categoryHours' : 'categorySales', null, totalText)} />;
  };
  return (
    <table aria-label={label}>
      <thead>
        <tr>
          <th scope="col"> </th>
          <th scope="col">Hours</th>
          <th scope="col">Sales</th>
          <th scope="col">ELR</th>
        </tr>
      </thead>
      <tbody>
        {lines.map(({ name, hours, sales }) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td>{shown(hours, 'h')}</td>
            <td>{shown(sales, '$')}</td>
            <td>
              <FigureValue text={formatCurrency(elr(sales, hours))} working={working('categoryElr', `${money2(sales)} / ${num1(hours)} h`, money2(elr(sales, hours)))} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
