import { useDevice } from '../../data/device-context.tsx';
import { fieldLimits } from '../../domain/limits.ts';
import { saveStoreSettings, useStoreSettings } from '../../data/repositories/store-and-people.ts';
import type { FormResult, NumberField } from '../../ui/NumberFieldsForm.tsx';
import { FormMessage, NumberFieldsForm } from '../../ui/NumberFieldsForm.tsx';
import { useState } from 'react';
import { useAccount } from '../session/session-context.tsx';

/** The store's rates (currency, cents) and head counts (whole numbers), as the field limits say. */
export const storeSettingFields: NumberField[] = Object.entries(fieldLimits.store_settings).map(([key, limit]) => ({ key, label: limit.label, limit }));

/** The store's rates and head counts. */
export function StoreSettingsTab() {
  const [message, setMessage] = useState<FormResult | null>(null);
  const device = useDevice();
  const { storeId } = useAccount();
  const settings = useStoreSettings(storeId);
  if (settings === undefined) return <p>Loading store settings...</p>;
  const values = Object.fromEntries(
    storeSettingFields.map((field) => [field.key, settings?.[field.key] === null || settings?.[field.key] === undefined ? null : Number(settings[field.key])]),
  );
  return (
    <section aria-labelledby="store-settings-title">
      <h2 id="store-settings-title">Service Overview Settings</h2>
      <NumberFieldsForm
        key={storeId ?? 'no-store'}
        fields={storeSettingFields}
        values={values}
        onResult={setMessage}
        submitLabel="Save Settings"
        onSave={async (changes) => {
          if (!storeId) return 'Store ID is missing. Cannot save settings.';
          if (Object.keys(changes).length === 0) return 'No changes to save.';
          try {
            await saveStoreSettings(device, storeId, changes);
            return 'Store settings saved successfully!';
          } catch (error) {
            return `Failed to save settings: ${error instanceof Error ? error.message : String(error)}`;
          }
        }}
      />
      <FormMessage message={message} />
    </section>
  );
}
