/**
 * The day's recap a service manager sends to the team's group chat: the day's hours,
 * sales and labour rate by category, the month so far with the month's labour rates,
 * the sales pacing against target, what each remaining work day needs (the pace lines of
 * the Daily screen, in their words), and the month's top advisor by labour sales. Plain
 * text, a line per subject, short enough for a phone's chat. Its figures are the screens'
 * own (the month's figures and paces as src/domain/month-figures.ts and pace.ts give them
 * to the tiles and "Needed per remaining day"), so the recap never reads differently
 * from the app. docs/figures.md, "The day's recap".
 */
import type { IsoDate } from './calendar.ts';
import { parseDate } from './calendar.ts';
import { formatCurrency, formatRatio } from './format.ts';
import type { Category, Totals } from './kpi-math.ts';
import { elr, totalHours, totalSales } from './kpi-math.ts';
import type { MonthFigures } from './month-figures.ts';
import type { PaceLine } from './pace.ts';

export type RecapAdvisor = { name: string; labourSales: number | null; hours: number | null };

export type RecapInput = {
  storeName: string | null;
  /** The day the recap's first lines are about, with its figures; null when nothing is entered this month yet. */
  day: { date: IsoDate; totals: Totals } | null;
  /** The month so far: its own days' totals, days complete and work days. */
  month: { totals: Totals; daysComplete: number; workDays: number };
  /** The month's figures and pace lines as the Daily screen shows them. */
  figures: MonthFigures;
  paces: readonly PaceLine[];
  /** The Monthly table's PACING and TARGET (the daily sales carried to the month's end, the Sales Per Day target over the work days). */
  salesPacing: { pacing: number; target: number };
  advisors: readonly RecapAdvisor[];
};

const categories: Category[] = ['CP', 'W', 'I'];
const dayFormat = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
const hours = (value: number) => `${formatRatio(value)} h`;

/** "CP 32.0 h, $6,080, ELR $190": the rate only where there are hours to divide by. */
function categoryText(category: Category, totals: Totals): string {
  const { hours: h, sales } = totals[category];
  return `${category} ${hours(h)}, ${formatCurrency(sales)}${h > 0 ? `, ELR ${formatCurrency(elr(sales, h))}` : ''}`;
}

function allText(totals: Totals, rate: string): string {
  const h = totalHours(totals);
  return `${hours(h)}, ${formatCurrency(totalSales(totals))}${h > 0 ? `, ELR ${rate}` : ''}`;
}

const monthRate: Record<Category, keyof Pick<MonthFigures, 'cpElr' | 'warrantyElr' | 'internalElr'>> = { CP: 'cpElr', W: 'warrantyElr', I: 'internalElr' };

/** The advisor with the most labour sales this month; none while nobody has any. */
export function topAdvisor(advisors: readonly RecapAdvisor[]): RecapAdvisor | null {
  let top: RecapAdvisor | null = null;
  for (const advisor of advisors) if ((advisor.labourSales ?? 0) > (top?.labourSales ?? 0)) top = advisor;
  return top;
}

/** The latest day up to `today` with any figure entered, of the days given (a month's). */
export function latestDayWithFigures(days: ReadonlyMap<IsoDate, Totals>, today: IsoDate): IsoDate | null {
  let latest: IsoDate | null = null;
  for (const [date, totals] of days) {
    if (date > today || (totalHours(totals) === 0 && totalSales(totals) === 0)) continue;
    if (latest === null || date > latest) latest = date;
  }
  return latest;
}

export function dayRecapText(input: RecapInput): string {
  const { day, month, figures } = input;
  const lines: string[] = [];
  const store = input.storeName ? `${input.storeName}: ` : '';
  if (day) {
    lines.push(`${store}service numbers for ${dayFormat.format(parseDate(day.date))}`);
    lines.push(`Day: ${allText(day.totals, formatCurrency(elr(totalSales(day.totals), totalHours(day.totals))))}`);
    lines.push(categories.map((category) => categoryText(category, day.totals)).join('; '));
  } else {
    lines.push(`${store}service numbers: nothing entered this month yet`);
  }
  lines.push(`Month to date (${month.daysComplete} of ${month.workDays} work days complete): ${allText(month.totals, figures.totalElr.headline)}`);
  lines.push(
    categories
      .map((category) => {
        const { hours: h, sales } = month.totals[category];
        return `${category} ${hours(h)}, ${formatCurrency(sales)}${h > 0 ? `, ELR ${figures[monthRate[category]].headline}` : ''}`;
      })
      .join('; '),
  );
  lines.push(`Sales pacing ${formatCurrency(input.salesPacing.pacing)} against a target of ${formatCurrency(input.salesPacing.target)}.`);
  for (const line of input.paces) if (line.id === 'hours' || line.id === 'sales' || line.id === 'totalElr') lines.push(`${line.label}: ${line.pace.words}`);
  const top = topAdvisor(input.advisors);
  if (top) lines.push(`Top advisor: ${top.name}, ${formatCurrency(top.labourSales ?? 0)} labour sales${top.hours ? ` on ${hours(top.hours)}` : ''} this month`);
  return lines.join('\n');
}
