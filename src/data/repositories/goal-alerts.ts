/**
 * The device's goal alerts (src/domain/goal-alerts.ts), kept in the device database's
 * meta store so every tab shows the same list and a reload does not alert twice.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { GoalAlert } from '../../domain/goal-alerts.ts';
import { mergeAlerts } from '../../domain/goal-alerts.ts';
import type { Device } from '../device-context.tsx';
import { useDevice } from '../device-context.tsx';

const key = 'goal-alerts';

/** Records alerts, one per store, figure and day; answers the ones that were new. */
export async function recordGoalAlerts(device: Pick<Device, 'db'>, alerts: GoalAlert[]): Promise<GoalAlert[]> {
  if (alerts.length === 0) return [];
  return device.db.transaction('rw', device.db.meta, async () => {
    const stored = ((await device.db.meta.get(key))?.value as GoalAlert[] | undefined) ?? [];
    const { all, added } = mergeAlerts(stored, alerts);
    if (added.length) await device.db.meta.put({ key, value: all });
    return added;
  });
}

/** The store's recent goal alerts, newest first. */
export function useGoalAlerts(storeId: string | null): GoalAlert[] | undefined {
  const device = useDevice();
  return useLiveQuery(async () => {
    const stored = ((await device.db.meta.get(key))?.value as GoalAlert[] | undefined) ?? [];
    return stored.filter((alert) => alert.storeId === storeId).reverse();
  }, [device, storeId]);
}
