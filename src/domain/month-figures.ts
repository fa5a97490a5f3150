/**
 * The month's figures, each with its value, its target, its colour and the working that
 * shows how it came about with this month's numbers. Every screen that shows a KPI
 * (daily tiles, the dashboard, Today, the print pack) takes it from here, so one figure
 * never reads two ways. docs/figures.md describes each one.
 */
import type { TileStatus } from './colour-rules.ts';
import { asShown, higherIsBetter, lowerIsBetter, mixDistance, mixStatus, progressStatus } from './colour-rules.ts';
import type { IsoDate } from './calendar.ts';
import { formatCount, formatCurrency, formatPercent, formatRatio } from './format.ts';
import type { Category, Totals } from './kpi-math.ts';
import { effectiveTargets, elr, monthComplete, pacing, perDay, totalHours, totalSales } from './kpi-math.ts';
import type { KpiId } from './kpis.ts';
import { kpiCatalogue } from './kpis.ts';
import { formulas, working } from './formulas.ts';
import { changePercent, lastYearText } from './last-year.ts';
import { money2, num1, num2 } from './working-format.ts';

export type Mix = Record<Category, number>;

/** The Work Mix target until a store sets its own: CP 40%, W 30%, I 30% (docs/figures.md, "KPI tiles"). */
export const defaultMixTarget: Mix = { CP: 40, W: 30, I: 30 };

export type OperationalCounts = {
  rosOver30Days: number | null;
  dueBillsOver30Days: number | null;
  shopSupplies: number | null;
  asOf: IsoDate | null;
};

export const noOperationalCounts: OperationalCounts = { rosOver30Days: null, dueBillsOver30Days: null, shopSupplies: null, asOf: null };

/** Everything a month's figures are computed from, all read from the device database. */
export type MonthInputs = {
  /** Hours and sales of the month's own days, by category. */
  totals: Totals;
  daysComplete: number;
  workDays: number;
  /** The work days the store's pattern gives, shown when an entry differs. */
  patternWorkDays: number;
  /** Stored monthly targets by metric key (null: set empty). */
  targets: Readonly<Record<string, number | null>>;
  /** Customer-pay repair orders of the month (the monthly table's RO's), null when not entered. */
  cpRepairOrders: number | null;
  operational: OperationalCounts;
  mixTarget: Mix;
};

export type Figure = {
  id: KpiId;
  label: string;
  value: number | null;
  target: number | null;
  status: TileStatus;
  headline: string;
  actual: string;
  targetText: string;
  /** How the figure is computed, with this month's numbers. */
  working: string;
};

export type MonthFigures = Record<KpiId, Figure>;

const labelOf = (id: KpiId) => kpiCatalogue.find((kpi) => kpi.id === id)?.label ?? id;

/**
 * Total ELR target: a stored one, else the category targets weighted by this month's
 * hours in each (the CP target while no hours are recorded). The specification summed the
 * three ($540 with the default targets), a figure no shop sells at (docs/figures.md).
 */
export function totalElrTarget(inputs: Pick<MonthInputs, 'totals' | 'targets'>): { value: number; derived: boolean; working: string } {
  const targets = effectiveTargets(inputs.targets);
  if (targets.totalElr !== null) return { value: targets.totalElr, derived: false, working: `Total ELR target = ${money2(targets.totalElr)} (set in Settings)` };
  const hours = totalHours(inputs.totals);
  const byCategory: Array<[Category, number]> = [['CP', targets.cpElr], ['W', targets.warrantyElr], ['I', targets.internalElr]];
  if (hours === 0) return { value: targets.cpElr, derived: true, working: `Total ELR target = CP ELR target while no hours are recorded = ${money2(targets.cpElr)}` };
  const weighted = byCategory.reduce((sum, [category, target]) => sum + target * inputs.totals[category].hours, 0) / hours;
  const terms = byCategory.map(([category, target]) => `${money2(target)} × ${num1(inputs.totals[category].hours)} h`).join(' + ');
  return { value: weighted, derived: true, working: working('totalElrTarget', `(${terms}) / ${num1(hours)} h`, `${money2(weighted)} (category targets weighted by hours)`) };
}

function shares(totals: Totals): Mix | null {
  const hours = totalHours(totals);
  if (hours === 0) return null;
  return { CP: (totals.CP.hours / hours) * 100, W: (totals.W.hours / hours) * 100, I: (totals.I.hours / hours) * 100 };
}

const mixText = (mix: Mix) => `CP ${formatPercent(mix.CP)}, W ${formatPercent(mix.W)}, I ${formatPercent(mix.I)}`;

function rate(id: 'cpElr' | 'warrantyElr' | 'internalElr' | 'totalElr', sales: number, hours: number, target: number): Figure {
  const value = elr(sales, hours);
  return {
    id,
    label: labelOf(id),
    value,
    target,
    // Whole dollars, as shown.
    status: higherIsBetter(asShown(value, 0), asShown(target, 0)),
    headline: formatCurrency(value),
    actual: formatCurrency(value),
    targetText: formatCurrency(target),
    working: working(id, `${money2(sales)} / ${num1(hours)} h`, money2(value)),
  };
}

function perDayFigure(id: 'hoursPerDay' | 'salesPerDay', total: number, inputs: MonthInputs, target: number): Figure {
  const value = perDay(total, inputs.daysComplete);
  const show = id === 'hoursPerDay' ? formatRatio : formatCurrency;
  const decimals = id === 'hoursPerDay' ? 1 : 0;
  const totalText = id === 'hoursPerDay' ? `${num1(total)} h` : money2(total);
  return {
    id,
    label: labelOf(id),
    value,
    target,
    status: higherIsBetter(asShown(value, decimals), asShown(target, decimals)),
    headline: show(value),
    actual: show(value),
    targetText: show(target),
    working: working(id, `${totalText} / ${inputs.daysComplete}`, id === 'hoursPerDay' ? num2(value) : money2(value)),
  };
}

/** A count kept as of a date, where fewer is better. */
function openCount(id: 'rosOver30Days' | 'dueBillsOver30Days', value: number | null, target: number | null, asOf: IsoDate | null): Figure {
  const when = asOf ? ` (as of ${asOf})` : '';
  return {
    id,
    label: labelOf(id),
    value,
    target,
    status: lowerIsBetter(value, target),
    headline: value === null ? 'Not entered' : formatCount(value),
    actual: value === null ? 'enter it on the Monthly page' : `${formatCount(value)}${when}`,
    targetText: target === null ? '-' : `at most ${formatCount(target)}`,
    working: value === null ? `${labelOf(id)}: not entered for this month (Monthly page, month-end figures)` : `${labelOf(id)} = ${formatCount(value)} open${when}, fewer is better`,
  };
}

export function monthFigures(inputs: MonthInputs): MonthFigures {
  const targets = effectiveTargets(inputs.targets);
  const { totals, daysComplete, workDays } = inputs;
  const hours = totalHours(totals);
  const sales = totalSales(totals);
  const totalTarget = totalElrTarget(inputs);
  const cpRos = inputs.cpRepairOrders;
  const cpHoursPerRo = cpRos && cpRos > 0 ? totals.CP.hours / cpRos : null;
  const mix = shares(totals);
  const distance = mix ? mixDistance(mix, inputs.mixTarget) : null;
  const supplies = inputs.operational.shopSupplies;
  const suppliesPace = supplies === null || daysComplete === 0 ? null : pacing(supplies, daysComplete, workDays);
  const suppliesTarget = targets.shopSupplies;
  const patternNote = inputs.patternWorkDays !== workDays ? ` (pattern: ${inputs.patternWorkDays})` : '';
  const complete = monthComplete(daysComplete, workDays);

  return {
    monthComplete: {
      id: 'monthComplete',
      label: labelOf('monthComplete'),
      value: complete,
      target: workDays,
      status: progressStatus(daysComplete, workDays),
      headline: formatPercent(complete),
      actual: `${daysComplete} days`,
      targetText: `${workDays} work days${patternNote}`,
      working: working('monthComplete', `${daysComplete} / ${workDays}`, formatPercent(complete)),
    },
    hoursPerDay: perDayFigure('hoursPerDay', hours, inputs, targets.hoursPerDay),
    salesPerDay: perDayFigure('salesPerDay', sales, inputs, targets.salesPerDay),
    cpElr: rate('cpElr', totals.CP.sales, totals.CP.hours, targets.cpElr),
    warrantyElr: rate('warrantyElr', totals.W.sales, totals.W.hours, targets.warrantyElr),
    internalElr: rate('internalElr', totals.I.sales, totals.I.hours, targets.internalElr),
    totalElr: {
      ...rate('totalElr', sales, hours, totalTarget.value),
      targetText: `${formatCurrency(totalTarget.value)}${totalTarget.derived ? ' (category mix)' : ''}`,
      working: `${working('totalElr', `${money2(sales)} / ${num1(hours)} h`, money2(elr(sales, hours)))}; ${totalTarget.working}`,
    },
    cpHoursPerRo: {
      id: 'cpHoursPerRo',
      label: labelOf('cpHoursPerRo'),
      value: cpHoursPerRo,
      target: targets.cpHoursPerRo,
      status: cpHoursPerRo === null ? 'no-data' : higherIsBetter(asShown(cpHoursPerRo, 2), asShown(targets.cpHoursPerRo, 2)),
      headline: cpHoursPerRo === null ? 'no RO count' : num2(cpHoursPerRo),
      actual: cpHoursPerRo === null ? "enter CP RO's on the Monthly page" : `${num2(cpHoursPerRo)} h per RO`,
      // A zero target reads N/A: there is nothing to be a percentage of.
      targetText: targets.cpHoursPerRo === 0 ? 'N/A' : formatRatio(targets.cpHoursPerRo),
      working:
        cpHoursPerRo === null
          ? `${formulas.cpHoursPerRo}: no CP RO's entered for this month (Monthly page)`
          : working('cpHoursPerRo', `${num1(totals.CP.hours)} h / ${formatCount(cpRos ?? 0)}`, num2(cpHoursPerRo)),
    },
    rosOver30Days: openCount('rosOver30Days', inputs.operational.rosOver30Days, targets.rosOver30Days, inputs.operational.asOf),
    dueBillsOver30Days: openCount('dueBillsOver30Days', inputs.operational.dueBillsOver30Days, targets.weOweOver30Days, inputs.operational.asOf),
    shopSupplies: {
      id: 'shopSupplies',
      label: labelOf('shopSupplies'),
      value: supplies,
      target: suppliesTarget,
      status: suppliesPace === null ? (suppliesTarget ? 'no-data' : 'no-target') : higherIsBetter(suppliesPace, suppliesTarget),
      headline: supplies === null ? 'Not entered' : formatCurrency(supplies),
      actual: supplies === null ? 'enter it on the Monthly page' : `${formatCurrency(supplies)} so far, pacing ${formatCurrency(suppliesPace ?? 0)}`,
      targetText: suppliesTarget === null ? '-' : formatCurrency(suppliesTarget),
      working:
        supplies === null
          ? 'Shop Supplies: not entered for this month (Monthly page, month-end figures)'
          : working('shopSuppliesPacing', `${money2(supplies)} / ${daysComplete} × ${workDays}`, money2(suppliesPace ?? 0)),
    },
    workMixChart: {
      id: 'workMixChart',
      label: labelOf('workMixChart'),
      value: distance,
      target: 0,
      status: mixStatus(distance),
      headline: mix ? `CP ${formatPercent(mix.CP)}` : '-',
      actual: mix ? mixText(mix) : 'no hours yet',
      targetText: mixText(inputs.mixTarget),
      working: mix
        ? working(
            'workMixDistance',
            `(|${num1(mix.CP)} − ${num1(inputs.mixTarget.CP)}| + |${num1(mix.W)} − ${num1(inputs.mixTarget.W)}| + |${num1(mix.I)} − ${num1(inputs.mixTarget.I)}|) / 2`,
            `${num1(distance ?? 0)} points of hours in another category than the target`,
          )
        : 'Work Mix: no hours recorded this month',
    },
  };
}

/** The line under a tile comparing it with the same month a year before. */
export function lastYearLine(current: Figure, previous: Figure | undefined): string {
  if (!previous || previous.status === 'no-data' || previous.value === null) return lastYearText(null, null);
  // A distance from a target mix has no meaningful change: the mix itself is shown. Nor has
  // a month's progress: a month under way is not a fall from last year's finished one.
  const percent = current.id === 'workMixChart' || current.id === 'monthComplete' || current.status === 'no-data' ? null : changePercent(current.value, previous.value);
  return lastYearText(current.id === 'workMixChart' ? previous.actual : previous.headline, percent);
}
