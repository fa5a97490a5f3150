/**
 * The one list of how each figure is computed, in words. A figure's working on screen is
 * its formula here followed by this month's numbers ("CP ELR = CP sales / CP hours =
 * $12,450.00 / 68.2 h = $182.55"); docs/figures.md quotes every formula of this list
 * word for word (a test holds the two together).
 */

export const formulas = {
  monthComplete: 'Month Complete = days complete / work days',
  hoursPerDay: 'Hours Per Day = total hours / days complete',
  salesPerDay: 'Sales Per Day = total sales / days complete',
  cpElr: 'CP ELR = CP sales / CP hours',
  warrantyElr: 'Warranty ELR = Warranty sales / Warranty hours',
  internalElr: 'Internal ELR = Internal sales / Internal hours',
  totalElr: 'Total ELR = total sales / total hours',
  totalElrTarget: 'Total ELR target = (CP target × CP hours + Warranty target × W hours + Internal target × I hours) / total hours',
  cpHoursPerRo: 'CP Hours Per RO = CP hours / CP repair orders',
  shopSuppliesPacing: 'Shop Supplies pacing = shop supplies / days complete × work days',
  workMixDistance: 'Work Mix distance = (|CP share − CP target| + |W share − W target| + |I share − I target|) / 2',
  categoryHours: "Hours = the sum of the days' hours",
  categorySales: "Sales = the sum of the days' sales",
  categoryElr: 'ELR = sales / hours',
  dailyAverage: 'Daily average = week total / days complete',
  grossPercent: '% = gross / sales × 100',
  totalLabour: 'TOTAL LABOUR = the sum of the GROSS column',
  totalSales: 'TOTAL SALES = the sum of the SALES column',
  pacing: 'PACING = daily sales / days complete × work days',
  salesTarget: 'TARGET = Sales Per Day target × work days',
  change: 'Change = (this year − last year) / last year × 100',
  gpPercent: 'GP% = GP Net / Sales × 100',
  yearlyHoursPerDay: 'Hours Per Day = Hours / days complete',
  expensePercent: '% = expense / GP Net × 100',
  netProfit: 'NET = GP Net − Personnel Exp − Semi Fixed − Fixed',
  returnOnSales: 'ROS = NET / Sales × 100',
  yearlyAverage: 'AVG = Total / months with figures',
} as const;

export type FormulaId = keyof typeof formulas;

/** "<formula> = <the numbers> = <the result>"; either part may be left out. */
export function working(id: FormulaId, numbers: string | null, result: string | null = null): string {
  return [formulas[id], numbers, result].filter((part) => part !== null && part !== '').join(' = ');
}
