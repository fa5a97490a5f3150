import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { AuthenticatorTab } from './AuthenticatorTab.tsx';
import { KpiPreferencesTab } from './KpiPreferencesTab.tsx';
import { StoreSettingsTab } from './StoreSettingsTab.tsx';
import { TargetsTab } from './TargetsTab.tsx';
import { WorkPatternTab } from './WorkPatternTab.tsx';

const tabs = [
  ['targets', 'SWOT Targets', TargetsTab],
  ['store', 'Service Overview Settings', StoreSettingsTab],
  ['kpis', 'Dashboard KPIs', KpiPreferencesTab],
  ['work-pattern', 'Work Pattern', WorkPatternTab],
  ['authenticator', 'Authenticator', AuthenticatorTab],
] as const;

type TabId = (typeof tabs)[number][0];

/**
 * Settings: targets (default tab), store configuration, dashboard tiles, the work pattern
 * (saved on the device, synced when possible) and the person's authenticator app
 * (online). `?tab=authenticator` opens that tab.
 */
export function SettingsPage() {
  const asked = new URLSearchParams(useLocation().search).get('tab');
  const [active, setActive] = useState<TabId>(tabs.find(([id]) => id === asked)?.[0] ?? 'targets');
  const Current = tabs.find(([id]) => id === active)?.[2] ?? TargetsTab;
  return (
    <section className="card" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <div role="tablist" aria-label="Settings" className="tabs">
        {tabs.map(([id, label]) => (
          <button key={id} type="button" role="tab" id={`tab-${id}`} aria-selected={active === id} aria-controls="settings-panel" onClick={() => setActive(id)}>
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="settings-panel" aria-labelledby={`tab-${active}`}>
        <Current />
      </div>
    </section>
  );
}
