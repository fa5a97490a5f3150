import { useDevice } from '../../data/device-context.tsx';
import { saveStoreSettings, useStoreSettings } from '../../data/repositories/store-and-people.ts';
import type { FormResult, NumberField } from '../../ui/NumberFieldsForm.tsx';
import { FormMessage, NumberFieldsForm } from '../../ui/NumberFieldsForm.tsx';
import { useState } from 'react';
import { useAccount } from '../session/session-context.tsx';

export const storeSettingFields: NumberField[] = [
  { key: 'labour_rate', label: 'Labour Rate', step: '0.01' },
  { key: 'warranty_rate', label: 'Warranty Rate', step: '0.01' },
  { key: 'internal_rate', label: 'Internal Rate', step: '0.01' },
  { key: 'stalls', label: 'Stalls', integer: true },
  { key: 'journeyman_technicians', label: 'Journeyman Technicians', integer: true },
  { key: 'apprentice_technicians', label: 'Apprentice Technicians', integer: true },
  { key: 'lube_techs', label: 'Lube Techs', integer: true },
  { key: 'service_advisors', label: 'Service Advisors', integer: true },
  { key: 'appt_coordinator', label: 'Appointment Coordinator', integer: true },
  { key: 'dispatcher', label: 'Dispatcher', integer: true },
  { key: 'service_manager', label: 'Service Manager', integer: true },
];

/** The store's rates (currency, step 0.01) and head counts (whole numbers). */
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
