import type { Row } from '../../data/synced-tables.ts';
import { numberLimitOf } from '../../domain/field-rules.ts';
import { formatCurrency, formatHours, formatPercent, formatRatio } from '../../domain/format.ts';
import type { YearlyInput, YearlyRow } from '../../domain/yearly.ts';
import { deriveYearlyRow, yearlySummary } from '../../domain/yearly.ts';
import { NumberCell } from '../../ui/NumberCell.tsx';

export const monthNames = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const inputFields = ['sales', 'gp_net', 'ros', 'personnel_exp', 'semi_fixed_exp', 'fixed_exp'] as const;
export type InputField = (typeof inputFields)[number];
const fieldLabels: Record<InputField, string> = {
  sales: 'Sales',
  gp_net: 'GP Net',
  ros: 'Hours',
  personnel_exp: 'Personnel Exp',
  semi_fixed_exp: 'Semi Fixed',
  fixed_exp: 'Fixed',
};

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export function monthInput(rows: Row[], month: number): YearlyInput {
  const row = rows.find((r) => Number(r.month) === month);
  return {
    month,
    sales: num(row?.sales),
    gp_net: num(row?.gp_net),
    ros: num(row?.ros),
    personnel_exp: num(row?.personnel_exp),
    semi_fixed_exp: num(row?.semi_fixed_exp),
    fixed_exp: num(row?.fixed_exp),
  };
}

type Props = {
  year: number;
  rows: Row[];
  /** Each month's days complete (1 to 12), for Hours Per Day. */
  daysComplete: ReadonlyMap<number, number>;
  onCommit(year: number, month: number, field: InputField, value: number | null): void;
};

/** One year: a row per month with its inputs and derived columns, then AVG and Total. */
export function YearBlock({ year, rows, daysComplete, onCommit }: Props) {
  const months = monthNames.map((_, i) => monthInput(rows, i + 1));
  const { total, average } = yearlySummary(months, daysComplete);
  const orDash = (value: number | null, show: (n: number) => string) => (value === null ? '-' : show(value));
  const cell = (input: YearlyInput, field: InputField, rowIndex: number, column: number) => (
    <td>
      <NumberCell
        label={`${fieldLabels[field]} ${monthNames[input.month - 1]} ${year}`}
        value={input[field]}
        limit={numberLimitOf('yearly_financial_inputs', field)}
        row={year * 100 + rowIndex}
        column={column}
        onCommit={(value) => onCommit(year, input.month, field, value)}
      />
    </td>
  );
  const summaryRow = (label: string, row: YearlyRow) => (
    <tr className="summary">
      <th scope="row">{label}</th>
      <td>{formatCurrency(row.sales)}</td>
      <td>{formatCurrency(row.gpNet)}</td>
      <td>{formatPercent(row.gpPercentage)}</td>
      <td>{formatHours(row.hours)}</td>
      <td>{orDash(row.hoursPerDay, formatRatio)}</td>
      <td>{formatCurrency(row.personnelExp)}</td>
      <td>{formatPercent(row.personnelPercentage)}</td>
      <td>{formatCurrency(row.semiFixedExp)}</td>
      <td>{formatPercent(row.semiFixedPercentage)}</td>
      <td>{formatCurrency(row.fixedExp)}</td>
      <td>{orDash(row.netProfit, formatCurrency)}</td>
      <td>{orDash(row.netProfitMarginRos, formatPercent)}</td>
    </tr>
  );
  return (
    <div className="scroll-x">
    <table className="yearly-table" aria-label={`Yearly trend ${year}`}>
      <caption>{year}</caption>
      <thead>
        <tr>
          {['Month', 'Sales', 'GP Net', 'GP%', 'Hours', 'Hours Per Day', 'Personnel Exp', '%', 'Semi Fixed', '%', 'Fixed', 'NET', 'ROS'].map((h, i) => (
            <th key={`${h}-${i}`} scope="col">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {months.map((input, rowIndex) => {
          const derived = deriveYearlyRow(input, daysComplete.get(input.month) ?? null);
          return (
            <tr key={input.month}>
              <th scope="row">{monthNames[input.month - 1]}</th>
              {cell(input, 'sales', rowIndex, 0)}
              {cell(input, 'gp_net', rowIndex, 1)}
              <td>{formatPercent(derived.gpPercentage)}</td>
              {cell(input, 'ros', rowIndex, 2)}
              <td>{orDash(derived.hoursPerDay, formatRatio)}</td>
              {cell(input, 'personnel_exp', rowIndex, 3)}
              <td>{formatPercent(derived.personnelPercentage)}</td>
              {cell(input, 'semi_fixed_exp', rowIndex, 4)}
              <td>{formatPercent(derived.semiFixedPercentage)}</td>
              {cell(input, 'fixed_exp', rowIndex, 5)}
              <td>{orDash(derived.netProfit, formatCurrency)}</td>
              <td>{orDash(derived.netProfitMarginRos, formatPercent)}</td>
            </tr>
          );
        })}
        {summaryRow('AVG', average)}
        {summaryRow('Total', total)}
      </tbody>
    </table>
    </div>
  );
}

