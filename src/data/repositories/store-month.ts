/**
 * Per-store, per-month records: weeks (days complete, work days), KPI targets, the
 * monthly gross inputs and the yearly financial months.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { IsoDate } from '../../domain/calendar.ts';
import { parseDate } from '../../domain/calendar.ts';
import type { Device } from '../device-context.tsx';
import { useDevice, writeContext } from '../device-context.tsx';
import { saveRows } from '../local-writes.ts';
import type { LocalRow } from '../synced-tables.ts';
import type { LaborType } from '../../domain/monthly-table.ts';
import { weekPartEnd } from '../../domain/work-days.ts';

/**
 * A week part's change (weekStart is the part's first day: a Sunday, or the 1st): only the
 * fields given are written, so two quick edits never undo each other.
 */
export type WeekInput = { weekStart: IsoDate; daysComplete?: number | null; workDays?: number | null };

export async function saveWeeks(device: Device, storeId: string, weeks: WeekInput[]): Promise<number> {
  const rows = await device.db.mirror('weekly_store_performance').bulkGet(weeks.map((week) => [storeId, week.weekStart]));
  return saveRows(
    device.db,
    weeks.map((week, i) => {
      const start = parseDate(week.weekStart);
      return {
        table: 'weekly_store_performance' as const,
        row: {
          ...(rows[i] ? {} : { id: crypto.randomUUID() }),
          store_id: storeId,
          week_start_date: week.weekStart,
          week_end_date: weekPartEnd(week.weekStart),
          year: start.getFullYear(),
          ...(week.daysComplete !== undefined ? { days_complete: week.daysComplete } : {}),
          ...(week.workDays !== undefined ? { work_days: week.workDays } : {}),
        },
      };
    }),
    writeContext(device),
  );
}

/** Targets of one month as metric key -> value (null when set empty). */
export function useMonthlyTargets(storeId: string | null, year: number, month: number): Record<string, number | null> | undefined {
  const device = useDevice();
  return useLiveQuery(async () => {
    if (!storeId) return {};
    const rows = await device.db.keyRange('monthly_targets', [storeId, year, month]).toArray();
    return Object.fromEntries(rows.map((row) => [row.metric_key, row.target_value === null ? null : Number(row.target_value)]));
  }, [device, storeId, year, month]);
}

export function saveMonthlyTargets(device: Device, storeId: string, year: number, month: number, targets: Record<string, number | null>) {
  return saveRows(
    device.db,
    Object.entries(targets).map(([metric_key, target_value]) => ({
      table: 'monthly_targets' as const,
      row: { store_id: storeId, year, month, metric_key, target_value },
    })),
    writeContext(device),
  );
}

export type { LaborType } from '../../domain/monthly-table.ts';
export type LaborGross = { gross_value: number | null; direct_sales_value: number | null; return_on_sales: number | null };

export function useLaborGross(storeId: string | null, monthYear: IsoDate): LocalRow<'monthly_labor_gross_inputs'>[] | undefined {
  const device = useDevice();
  return useLiveQuery(
    async () => (storeId ? device.db.keyRange('monthly_labor_gross_inputs', [storeId, monthYear]).toArray() : []),
    [device, storeId, monthYear],
  );
}

export function saveLaborGross(device: Device, storeId: string, monthYear: IsoDate, laborType: LaborType, values: Partial<LaborGross>) {
  return saveRows(device.db, [{ table: 'monthly_labor_gross_inputs', row: { store_id: storeId, month_year: monthYear, labor_type: laborType, ...values } }], writeContext(device));
}

export type YearlyFields = Partial<Record<'sales' | 'gp_net' | 'ros' | 'personnel_exp' | 'semi_fixed_exp' | 'fixed_exp', number | null>>;

export function useYearlyInputs(storeId: string | null, year: number): LocalRow<'yearly_financial_inputs'>[] | undefined {
  const device = useDevice();
  return useLiveQuery(
    async () => (storeId ? device.db.keyRange('yearly_financial_inputs', [storeId, year]).toArray() : []),
    [device, storeId, year],
  );
}

export function saveYearlyMonth(device: Device, storeId: string, year: number, month: number, fields: YearlyFields) {
  return saveRows(device.db, [{ table: 'yearly_financial_inputs', row: { store_id: storeId, year, month, ...fields } }], writeContext(device));
}

export type OperationalFields = Partial<Record<'ros_over_30_days' | 'due_bills_over_30_days' | 'shop_supplies', number | null>> & { as_of_date?: IsoDate | null };

/** The month's counts from the dealer system (open ROs and due bills over 30 days, shop supplies), with the day they were counted. */
export function saveOperationalInputs(device: Device, storeId: string, year: number, month: number, fields: OperationalFields) {
  return saveRows(device.db, [{ table: 'monthly_operational_inputs', row: { store_id: storeId, year, month, ...fields } }], writeContext(device));
}
