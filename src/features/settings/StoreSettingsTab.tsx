import { useState } from 'react';
import { useDevice } from '../../data/device-context.tsx';
import { saveStoreSettings, useStoreSettings } from '../../data/repositories/store-and-people.ts';
import type { Row } from '../../data/synced-tables.ts';
import { numberOrNull } from '../../data/values.ts';
import { isNumberLimit } from '../../domain/field-rules.ts';
import { fieldLimits } from '../../domain/limits.ts';
import { defaultMixTarget } from '../../domain/month-figures.ts';
import type { FormResult, NumberField } from '../../ui/NumberFieldsForm.tsx';
import { FormMessage, NumberFieldsForm } from '../../ui/NumberFieldsForm.tsx';
import { useAccount } from '../session/session-context.tsx';
import { errorText } from '../../sync/errors.ts';

const mixKeys = ['mix_target_cp', 'mix_target_w', 'mix_target_i'] as const;
const numberFields = (keys: (key: string) => boolean): NumberField[] =>
  Object.entries(fieldLimits.store_settings).flatMap(([key, limit]) => (isNumberLimit(limit) && keys(key) ? [{ key, label: limit.label, limit }] : []));

/** The store's rates (currency, cents) and head counts (whole numbers), as the field limits say. */
export const storeSettingFields: NumberField[] = numberFields((key) => !(mixKeys as readonly string[]).includes(key));
const mixFields: NumberField[] = numberFields((key) => (mixKeys as readonly string[]).includes(key));

/** The Work Mix target is three shares of hours: all empty (the default) or adding up to 100. */
export function mixProblem(values: Record<string, number | null>): string | null {
  const shares = mixKeys.map((key) => values[key] ?? null);
  if (shares.every((share) => share === null)) return null;
  if (shares.some((share) => share === null)) return 'enter all three shares of the Work Mix target, or none.';
  const total = shares.reduce<number>((sum, share) => sum + (share ?? 0), 0);
  return Math.abs(total - 100) < 0.005 ? null : `the Work Mix target's shares add up to ${total}%; they must add up to 100%.`;
}

/** The store's rates and head counts, and its Work Mix target. */
export function StoreSettingsTab() {
  const [message, setMessage] = useState<FormResult | null>(null);
  const [mixMessage, setMixMessage] = useState<FormResult | null>(null);
  const device = useDevice();
  const { storeId } = useAccount();
  // Read field by field, by the keys the field limits list.
  const settings: Row | null | undefined = useStoreSettings(storeId);
  if (settings === undefined) return <p>Loading store settings...</p>;
  const valuesOf = (fields: NumberField[]) => Object.fromEntries(fields.map((field) => [field.key, numberOrNull(settings?.[field.key])]));
  const save = async (changes: Record<string, number | null>, saved: string) => {
    if (!storeId) return 'Store ID is missing. Cannot save settings.';
    if (Object.keys(changes).length === 0) return 'No changes to save.';
    try {
      await saveStoreSettings(device, storeId, changes);
      return saved;
    } catch (error) {
      return `Failed to save settings: ${errorText(error)}`;
    }
  };
  return (
    <>
      <section aria-labelledby="store-settings-title">
        <h2 id="store-settings-title">Service Overview Settings</h2>
        <NumberFieldsForm
          key={storeId ?? 'no-store'}
          fields={storeSettingFields}
          values={valuesOf(storeSettingFields)}
          onResult={setMessage}
          submitLabel="Save Settings"
          onSave={(changes) => save(changes, 'Store settings saved successfully!')}
        />
        <FormMessage message={message} />
      </section>
      <section aria-labelledby="mix-target-title">
        <h2 id="mix-target-title">Work Mix target</h2>
        <p className="hint">
          The share of hours the store aims for in each labour category, in percent. Empty: CP {defaultMixTarget.CP}%, W {defaultMixTarget.W}%, I {defaultMixTarget.I}%.
        </p>
        <NumberFieldsForm
          key={`mix-${storeId ?? 'no-store'}`}
          fields={mixFields}
          values={valuesOf(mixFields)}
          onResult={setMixMessage}
          submitLabel="Save Work Mix Target"
          crossCheck={mixProblem}
          // All three are written together: the database takes the shares only as a whole.
          onSave={(changes) => save(Object.keys(changes).length ? Object.fromEntries(mixKeys.map((key) => [key, changes[key] !== undefined ? changes[key] : numberOrNull(settings?.[key])])) : {}, 'Work Mix target saved successfully!')}
        />
        <FormMessage message={mixMessage} />
      </section>
    </>
  );
}
