import { formatCurrency, formatHours } from '../domain/format.ts';
import { elr } from '../domain/kpi-math.ts';

export type CategoryLine = { name: string; hours: number; sales: number };

/**
 * Hours, sales and ELR per labour category. `scale` turns totals into what is shown
 * (e.g. a daily average); the ELR always comes from the totals.
 */
export function CategorySummary({ label, lines, scale = (n) => n }: { label: string; lines: CategoryLine[]; scale?: (n: number) => number }) {
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
            <td>{formatHours(scale(hours))}</td>
            <td>{formatCurrency(scale(sales))}</td>
            <td>{formatCurrency(elr(sales, hours))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
