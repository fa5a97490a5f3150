import type { ReactNode } from 'react';
import type { Row } from '../../data/synced-tables.ts';
import { numberLimitOf } from '../../domain/field-rules.ts';
import { formatCurrency, formatHours } from '../../domain/format.ts';
import type { MonthShare } from '../../domain/last-year.ts';
import { lastYearBasis } from '../../domain/last-year.ts';
import type { YearlyInput, YearlyRow } from '../../domain/yearly.ts';
import { deriveYearlyRow, hasYearlyData, likeForLike, yearlySummary } from '../../domain/yearly.ts';
import { monthNames } from '../../domain/month.ts';
import { ExpensePercentCell, GpPercentCell, HoursPerDayCell, NetCells, VersusCells } from './derived-cells.tsx';
import { NumberCell } from '../../ui/NumberCell.tsx';

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
  /** Each month's days complete and work days (1 to 12), for Hours Per Day and a part-way month's comparison. */
  days: ReadonlyMap<number, MonthShare>;
  /**
   * The year before's months: each month's sales then, and the change since, beside its
   * sales; Total and AVG against the same months then (docs/figures.md, Yearly).
   */
  previous?: Row[];
  onCommit(year: number, month: number, field: InputField, value: number | null): void;
};

/** One year: a row per month with its inputs and derived columns, then AVG and Total. */
export function YearBlock({ year, rows, days, previous, onCommit }: Props) {
  const months = monthNames.map((_, i) => monthInput(rows, i + 1));
  const daysComplete = new Map([...days].map(([month, share]) => [month, share.daysComplete]));
  const { total, average } = yearlySummary(months, daysComplete);
  const cell = (input: YearlyInput, field: InputField, rowIndex: number, column: number) => (
    <td className={`input-${field}`}>
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
  const previousMonths = previous ? monthNames.map((_, i) => monthInput(previous, i + 1)) : null;
  // A part-way month is compared with the same share of its month a year before.
  const monthVersus = (input: YearlyInput) => {
    if (!previousMonths) return null;
    const share = days.get(input.month);
    const before = input.sales === null ? (previousMonths[input.month - 1]?.sales ?? null) : lastYearBasis(previousMonths[input.month - 1]?.sales ?? null, share);
    const partWay = input.sales !== null && share && share.daysComplete > 0 && share.daysComplete < share.workDays;
    return <VersusCells current={input.sales} before={before} note={partWay ? `(${share.daysComplete} of ${share.workDays} days)` : undefined} />;
  };
  const compared = previousMonths ? likeForLike(months, previousMonths, days) : null;
  const summaryVersus = (per: number) =>
    previousMonths ? <VersusCells current={compared ? compared.current / per : null} before={compared ? compared.previous / per : null} note={compared?.label} /> : null;
  // A year with no figures at all has no total: "-", as a month without figures shows.
  const anyFigures = months.some(hasYearlyData);
  const summed = (text: string) => (anyFigures ? text : '-');
  const summaryRow = (label: string, row: YearlyRow, versus: ReactNode) => (
    <tr className="summary">
      <th scope="row">{label}</th>
      <td>{summed(formatCurrency(row.sales))}</td>
      {versus}
      <td>{summed(formatCurrency(row.gpNet))}</td>
      <GpPercentCell row={row} />
      <td>{summed(formatHours(row.hours))}</td>
      <HoursPerDayCell row={row} days={row.hoursPerDay ? row.hours / row.hoursPerDay : null} />
      <td>{summed(formatCurrency(row.personnelExp))}</td>
      <ExpensePercentCell expense={row.personnelExp} row={row} percent={row.personnelPercentage} />
      <td>{summed(formatCurrency(row.semiFixedExp))}</td>
      <ExpensePercentCell expense={row.semiFixedExp} row={row} percent={row.semiFixedPercentage} />
      <td>{summed(formatCurrency(row.fixedExp))}</td>
      <NetCells row={row} />
    </tr>
  );
  return (
    <div className="scroll-x">
      <table className="yearly-table" aria-label={`Yearly trend ${year}`}>
        <caption>{year}</caption>
        <thead>
          <tr>
            {['Month', 'Sales', ...(previous ? [`Sales ${year - 1}`, 'Change'] : []), 'GP Net', 'GP%', 'Hours', 'Hours Per Day', 'Personnel Exp', '%', 'Semi Fixed', '%', 'Fixed', 'NET', 'ROS'].map((h, i) => (
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
                {monthVersus(input)}
                {cell(input, 'gp_net', rowIndex, 1)}
                <GpPercentCell row={derived} />
                {cell(input, 'ros', rowIndex, 2)}
                <HoursPerDayCell row={derived} days={daysComplete.get(input.month) ?? null} />
                {cell(input, 'personnel_exp', rowIndex, 3)}
                <ExpensePercentCell expense={derived.personnelExp} row={derived} percent={derived.personnelPercentage} />
                {cell(input, 'semi_fixed_exp', rowIndex, 4)}
                <ExpensePercentCell expense={derived.semiFixedExp} row={derived} percent={derived.semiFixedPercentage} />
                {cell(input, 'fixed_exp', rowIndex, 5)}
                <NetCells row={derived} />
              </tr>
            );
          })}
          {summaryRow('AVG', average, summaryVersus(compared?.count ?? 1))}
          {summaryRow('Total', total, summaryVersus(1))}
        </tbody>
      </table>
    </div>
  );
}

