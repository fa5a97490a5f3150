import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors } from '@dnd-kit/core';
import type { DragEndEvent } from '@dnd-kit/core';
import { arrayMove, rectSortingStrategy, SortableContext, sortableKeyboardCoordinates, useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useState } from 'react';
import { useDevice } from '../../data/device-context.tsx';
import { saveDashboardPreferences, useDashboardPreferences } from '../../data/repositories/store-and-people.ts';
import type { KpiId } from '../../domain/kpis.ts';
import { allKpiIds, orderedSelection } from '../../domain/kpis.ts';
import { monthLabel, shiftMonth } from '../../domain/month.ts';
import { useDailyMonth } from '../../data/month-view.ts';
import { useAccount } from '../session/session-context.tsx';
import { useSelectedMonth } from '../session/use-month.ts';
import type { Figure } from '../../domain/month-figures.ts';
import { lastYearLine } from '../../domain/month-figures.ts';
import { KpiTile } from '../../ui/KpiTile.tsx';

type History = Array<{ label: string; actual: string }>;

function SortableTile({ id, figure, history, lastYear }: { id: KpiId; figure: Figure; history: History; lastYear?: Figure }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id });
  const [open, setOpen] = useState(false);
  const actual = (
    <>
      <p>
        <button type="button" className="link" aria-expanded={open} onMouseEnter={() => setOpen(true)} onMouseLeave={() => setOpen(false)} onClick={() => setOpen(!open)}>
          Actual: {figure.actual}
        </button>
      </p>
      {open ? (
        <div role="tooltip" className="history">
          <strong>Last 3 Months (Actual)</strong>
          <ul>
            {history.map((h) => (
              <li key={h.label}>
                {h.label}: {h.actual}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
  const handle = (
    <button type="button" className="drag-handle" aria-label={`Move ${figure.label}`} {...attributes} {...listeners}>
      ⠿
    </button>
  );
  return (
    <div ref={setNodeRef} className="sortable-tile" style={{ transform: CSS.Transform.toString(transform), transition }}>
      <KpiTile title={figure.label} figure={figure} handle={handle} actual={actual} lastYear={lastYearLine(figure, lastYear)} className={isDragging ? 'dragging' : ''} />
    </div>
  );
}

/** The person's KPI tiles for the month, in their order; drag (or move by keyboard) to reorder. */
export function KpiDashboard() {
  const device = useDevice();
  const { userId, storeId } = useAccount();
  const { month } = useSelectedMonth();
  const preferences = useDashboardPreferences(userId, storeId);
  const current = useDailyMonth(storeId, month);
  const past = [useDailyMonth(storeId, shiftMonth(month, -1)), useDailyMonth(storeId, shiftMonth(month, -2)), useDailyMonth(storeId, shiftMonth(month, -3))];
  const lastYear = useDailyMonth(storeId, shiftMonth(month, -12));
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));

  if (preferences === undefined || !current) return <p className="kpi-loading">Loading KPI Data...</p>;
  const order = preferences ? orderedSelection(preferences.selected_kpis, preferences.kpi_order) : allKpiIds;
  if (order.length === 0) {
    return <p>No KPI containers selected. Go to Settings → Dashboard KPIs to choose which containers to display.</p>;
  }

  function onDragEnd(event: DragEndEvent) {
    const { active, over } = event;
    if (!storeId || !over || active.id === over.id) return;
    const next = arrayMove(order, order.indexOf(active.id as KpiId), order.indexOf(over.id as KpiId));
    void saveDashboardPreferences(device, storeId, { selected_kpis: next, kpi_order: next });
  }

  return (
    <section aria-labelledby="kpi-dashboard-title">
      <h2 id="kpi-dashboard-title">KPI Dashboard</h2>
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={order} strategy={rectSortingStrategy}>
          <div className="kpi-row">
            {order.map((id) => (
              <SortableTile
                key={id}
                id={id}
                figure={current.figures[id]}
                lastYear={lastYear?.figures[id]}
                history={past.map((data, i) => ({
                  label: monthLabel(shiftMonth(month, -(i + 1))),
                  actual: data ? data.figures[id].actual : '...',
                }))}
              />
            ))}
          </div>
        </SortableContext>
      </DndContext>
    </section>
  );
}
