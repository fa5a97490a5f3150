/**
 * Goal alerts on a screen where entries are made. A save made here arms the watch with
 * the figures as they were; the next reading of the month after it compares against
 * them, and a figure that fell below its amber or red threshold is recorded (once per
 * figure per day) and handed to the screen as a notice. Figures moved by sync alone (the
 * first sync bringing targets after values, another device's edit) never alert: the
 * person who typed the entry is the one to tell.
 */
import { useEffect, useRef, useState } from 'react';
import { useDevice } from '../../data/device-context.tsx';
import { recordGoalAlerts } from '../../data/repositories/goal-alerts.ts';
import type { GoalAlert } from '../../domain/goal-alerts.ts';
import { crossedThresholds } from '../../domain/goal-alerts.ts';
import type { MonthFigures } from '../../domain/month-figures.ts';
import { todayIso } from '../../data/month-view.ts';

export type GoalAlertWatch = {
  alert: GoalAlert | null;
  dismiss(): void;
  /** Wraps a save: its effect on the figures is what may alert. */
  watch<T>(save: Promise<T>): Promise<T>;
};

export function useGoalAlertWatch(storeId: string | null, month: string, figures: MonthFigures | undefined): GoalAlertWatch {
  const device = useDevice();
  const current = useRef<{ month: string; figures: MonthFigures | undefined }>({ month, figures });
  const armed = useRef<{ month: string; figures: MonthFigures } | null>(null);
  const [alert, setAlert] = useState<GoalAlert | null>(null);

  useEffect(() => {
    current.current = { month, figures };
    const before = armed.current;
    if (!before || !figures || !storeId || before.figures === figures) return;
    armed.current = null;
    if (before.month !== month) return;
    const crossed = crossedThresholds(before.figures, figures, { storeId, day: todayIso(), at: Date.now() });
    if (crossed.length === 0) return;
    // An alert that cannot be stored (storage full) is not worth an error over the entry itself.
    void recordGoalAlerts(device, crossed).then(
      (added) => {
        const newest = added[added.length - 1];
        if (newest) setAlert(newest);
      },
      () => undefined,
    );
  }, [device, storeId, month, figures]);

  return {
    alert,
    dismiss: () => setAlert(null),
    async watch(save) {
      const { month: seenMonth, figures: seen } = current.current;
      if (seen) armed.current = { month: seenMonth, figures: seen };
      try {
        const result = await save;
        // Nothing changed (the same value again): nothing to compare.
        if (result === 0) armed.current = null;
        return result;
      } catch (error) {
        armed.current = null;
        throw error;
      }
    },
  };
}
