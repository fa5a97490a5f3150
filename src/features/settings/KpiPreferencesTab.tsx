import { useState } from 'react';
import { useDevice } from '../../data/device-context.tsx';
import { saveDashboardPreferences, useDashboardPreferences } from '../../data/repositories/store-and-people.ts';
import type { KpiId } from '../../domain/kpis.ts';
import { allKpiIds, kpiCatalogue, orderedSelection } from '../../domain/kpis.ts';
import type { FormResult } from '../../ui/NumberFieldsForm.tsx';
import { FormMessage } from '../../ui/NumberFieldsForm.tsx';
import { useAccount } from '../session/session-context.tsx';

type Choice = { order: KpiId[]; selected: Set<KpiId> };

/** Which KPI tiles the dashboard shows and in what order; kept per person, on every device. */
export function KpiPreferencesTab() {
  const { userId, storeId } = useAccount();
  const saved = useDashboardPreferences(userId, storeId);
  // Kept here so the outcome outlives the chooser's re-renders.
  const [message, setMessage] = useState<FormResult | null>(null);
  if (saved === undefined) return <p>Loading KPI Data...</p>;
  const selected = saved ? orderedSelection(saved.selected_kpis, saved.kpi_order) : allKpiIds;
  const initial: Choice = { order: [...selected, ...allKpiIds.filter((id) => !selected.includes(id))], selected: new Set(selected) };
  return (
    <section aria-labelledby="kpi-title">
      <h2 id="kpi-title">Dashboard KPIs</h2>
      <KpiChooser key={userId ?? 'no-user'} initial={initial} storeId={storeId} onResult={setMessage} />
      <FormMessage message={message} />
    </section>
  );
}

const shownKpis = (choice: Choice) => choice.order.filter((id) => choice.selected.has(id));
const sameKpis = (a: Choice, b: Choice) => JSON.stringify(shownKpis(a)) === JSON.stringify(shownKpis(b));

/**
 * The person's unsaved choice, kept until saved: a choice synced from another device replaces
 * what is shown only while nothing here is being changed, so no edit in progress is wiped.
 */
function KpiChooser({ initial, storeId, onResult: setMessage }: { initial: Choice; storeId: string | null; onResult(message: FormResult): void }) {
  const device = useDevice();
  const [draft, setDraft] = useState<Choice | null>(null);
  const initialKey = JSON.stringify(shownKpis(initial));
  const [seenInitial, setSeenInitial] = useState(initialKey);
  if (seenInitial !== initialKey) {
    setSeenInitial(initialKey);
    // Dropped once saved, or when it never differed from what was saved before.
    const drafted = draft && JSON.stringify(shownKpis(draft));
    if (drafted === initialKey || drafted === seenInitial) setDraft(null);
  }
  const choice = draft ?? initial;
  const label = (id: KpiId) => kpiCatalogue.find((kpi) => kpi.id === id)?.label ?? id;

  function move(index: number, by: number) {
    const order = [...choice.order];
    const [item] = order.splice(index, 1);
    order.splice(index + by, 0, item as KpiId);
    setDraft({ ...choice, order });
  }
  function toggle(id: KpiId) {
    const selected = new Set(choice.selected);
    if (selected.has(id)) selected.delete(id);
    else selected.add(id);
    setDraft({ ...choice, selected });
  }
  async function save() {
    if (!storeId) return setMessage({ text: 'Store ID is missing. Cannot save settings.', error: true });
    const selected_kpis = shownKpis(choice);
    if (sameKpis(choice, initial)) return setMessage({ text: 'No changes to save.', error: false });
    try {
      await saveDashboardPreferences(device, storeId, { selected_kpis, kpi_order: selected_kpis });
      setMessage({ text: 'Dashboard preferences saved.', error: false });
    } catch {
      setMessage({ text: 'Failed to save preferences', error: true });
    }
  }

  return (
    <>
      <ol className="kpi-choices">
        {choice.order.map((id, index) => (
          <li key={id}>
            <label>
              <input type="checkbox" checked={choice.selected.has(id)} onChange={() => toggle(id)} />
              {label(id)}
            </label>
            <button type="button" aria-label={`Move ${label(id)} up`} disabled={index === 0} onClick={() => move(index, -1)}>
              Up
            </button>
            <button type="button" aria-label={`Move ${label(id)} down`} disabled={index === choice.order.length - 1} onClick={() => move(index, 1)}>
              Down
            </button>
          </li>
        ))}
      </ol>
      <button type="button" className="primary" onClick={() => void save()}>
        Save Dashboard KPIs
      </button>
    </>
  );
}
