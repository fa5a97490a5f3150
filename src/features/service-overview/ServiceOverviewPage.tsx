import { useStoreSettings } from '../../data/repositories/store-and-people.ts';
import type { Row } from '../../data/synced-tables.ts';
import { formatCurrencyOrDash } from '../../domain/format.ts';
import { monthLabel } from '../../domain/month.ts';
import { CategorySummary } from '../../ui/CategorySummary.tsx';
import { useDailyMonth } from '../../data/month-view.ts';
import { useAccount } from '../session/session-context.tsx';
import { useSelectedMonth } from '../session/use-month.ts';
import { useScreenDrawn } from '../../ui/screen-drawn.ts';

const rates = [
  ['labour_rate', 'Labour Rate'],
  ['warranty_rate', 'Warranty Rate'],
  ['internal_rate', 'Internal Rate'],
] as const;
const counts = [
  ['stalls', 'Stalls'],
  ['journeyman_technicians', 'Journeyman Technicians'],
  ['apprentice_technicians', 'Apprentice Technicians'],
  ['lube_techs', 'Lube Techs'],
  ['service_advisors', 'Service Advisors'],
  ['appt_coordinator', 'Appointment Coordinator'],
  ['dispatcher', 'Dispatcher'],
  ['service_manager', 'Service Manager'],
] as const;

/** The month at a glance: days, the store's configuration and the month's hours and sales by category. */
export function ServiceOverviewPage() {
  const { storeId } = useAccount();
  const { month, move } = useSelectedMonth();
  const data = useDailyMonth(storeId, month);
  // Read field by field, by the keys the field limits list.
  const settings: Row | null | undefined = useStoreSettings(storeId);
  useScreenDrawn(data !== undefined && settings !== undefined);
  const value = (key: string) => (settings?.[key] === null || settings?.[key] === undefined ? null : Number(settings[key]));
  return (
    <section className="card overview" aria-labelledby="overview-title">
      <h1 id="overview-title">Service Overview</h1>
      <div className="month-navigator" role="group" aria-label="Overview month">
        <button type="button" onClick={() => move(-1)}>
          Previous Month
        </button>
        <span>{monthLabel(month)}</span>
        <button type="button" onClick={() => move(1)}>
          Next Month
        </button>
      </div>
      {data && settings !== undefined ? (
        <div className="overview-grid">
          <dl aria-label="Month">
            <dt>Month</dt>
            <dd>{monthLabel(month)}</dd>
            <dt>Days Complete</dt>
            <dd>{data.days.daysComplete}</dd>
            <dt>Work Days</dt>
            <dd>
              {data.days.workDays}
              {data.days.pattern.workDays !== data.days.workDays ? <span className="hint"> (pattern: {data.days.pattern.workDays})</span> : null}
            </dd>
          </dl>
          <dl aria-label="Store configuration">
            {rates.map(([key, label]) => (
              <div key={key}>
                <dt>{label}</dt>
                <dd>{formatCurrencyOrDash(value(key))}</dd>
              </div>
            ))}
            {counts.map(([key, label]) => (
              <div key={key}>
                <dt>{label}</dt>
                <dd>{value(key) ?? '-'}</dd>
              </div>
            ))}
          </dl>
          <CategorySummary label="Monthly summary" lines={(['CP', 'W', 'I'] as const).map((name) => ({ name, ...data.totals[name] }))} />
        </div>
      ) : (
        <p>Loading performance data...</p>
      )}
    </section>
  );
}
