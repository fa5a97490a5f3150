import { useState } from 'react';
import { useDevice } from '../../data/device-context.tsx';
import { saveMonthlyTargets, useMonthlyTargets } from '../../data/repositories/store-month.ts';
import { numberLimitOf } from '../../domain/field-rules.ts';
import { monthLabel, yearAndMonth } from '../../domain/month.ts';
import { targetFields, targetHints, targetShown } from '../../domain/targets.ts';
import type { FormResult } from '../../ui/NumberFieldsForm.tsx';
import { FormMessage, NumberFieldsForm } from '../../ui/NumberFieldsForm.tsx';
import { useMonthDays } from '../../data/month-view.ts';
import { useAccount } from '../session/session-context.tsx';
import { useSelectedMonth } from '../session/use-month.ts';
import { errorText } from '../../sync/errors.ts';

/**
 * The month's KPI targets (the month of the sidebar); an empty field is saved as no target.
 * Work Days in Month is shown, not typed: it is the same figure every screen uses, from
 * the weeks' work days or the store's work pattern (Work Pattern tab).
 */
export function TargetsTab() {
  const [message, setMessage] = useState<FormResult | null>(null);
  const device = useDevice();
  const { storeId } = useAccount();
  const { month } = useSelectedMonth();
  const { year, month: monthNumber } = yearAndMonth(month);
  const stored = useMonthlyTargets(storeId, year, monthNumber);
  const days = useMonthDays(storeId, month);
  if (!stored || !days) return <p>Loading targets...</p>;
  const values = Object.fromEntries(targetFields.map((field) => [field.key, targetShown(stored, field.key)]));
  return (
    <section aria-labelledby="targets-title">
      <h2 id="targets-title">Targets for {monthLabel(month)}</h2>
      <p className="work-days-in-month">
        <span id="work-days-label">Work Days in Month</span>:{' '}
        <output aria-labelledby="work-days-label">{days.workDays}</output>
        <span className="hint">
          {' '}
          {days.workDays === days.pattern.workDays
            ? '(from the work pattern and the weeks; change them on the Weekly page or in Work Pattern)'
            : `(the weeks' entries; the work pattern gives ${days.pattern.workDays})`}
        </span>
      </p>
      <NumberFieldsForm
        key={`${storeId}-${month}`}
        fields={targetFields.map((field) => ({
          key: field.key,
          label: field.label,
          hint: targetHints[field.key],
          limit: numberLimitOf('monthly_targets', 'target_value', { metric_key: field.key }),
        }))}
        values={values}
        onResult={setMessage}
        submitLabel="Save Targets"
        onSave={async (changes) => {
          if (!storeId) return 'Store ID not available. Cannot save targets.';
          if (Object.keys(changes).length === 0) return 'No changes to save.';
          // A month's first save records every value shown (defaults included), so the
          // month keeps its targets even if the defaults change later.
          const firstSave = Object.keys(stored).length === 0;
          try {
            await saveMonthlyTargets(device, storeId, year, monthNumber, firstSave ? { ...values, ...changes } : changes);
            return 'Targets saved successfully!';
          } catch (error) {
            return `Failed to save targets: ${errorText(error)}`;
          }
        }}
      />
      <FormMessage message={message} />
    </section>
  );
}
