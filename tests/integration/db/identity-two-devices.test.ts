/**
 * Two tablets that create the same week offline give it two ids (the week screen names a
 * new row with a fresh id: src/data/repositories/store-month.ts). Since a figure's id
 * never changes on the server, the second push must still land: the row keeps the id it
 * was created with, the second tablet's value is applied and recorded, nothing is
 * refused, and both tablets end with the server's row.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { engines } from '../../support/test-databases.ts';
import type { Device } from '../sync/device.ts';
import { createDevice } from '../sync/device.ts';

const week = { store_id: demo.storeA, week_start_date: '2031-06-01', week_end_date: '2031-06-07', year: 2031 };

for (const engine of engines) {
  describe(`two tablets creating the same week offline on ${engine}`, () => {
    let stack: TestStack;
    let tablet: Device;
    let desktop: Device;

    beforeAll(async () => {
      stack = await startTestStack({ engine });
      tablet = await createDevice(stack, 'manager@example.com');
      desktop = await createDevice(stack, 'admin@example.com');
      for (const device of [tablet, desktop]) expect(await device.engine().runOnce('start')).toMatchObject({ ok: true });
    }, 60_000);
    afterAll(async () => {
      tablet?.close();
      desktop?.close();
      await stack?.stop();
    });

    it('lands both pushes, keeps the first id, and records the second value', async () => {
      const [tabletId, desktopId] = [randomUUID(), randomUUID()];
      tablet.network.online = false;
      desktop.network.online = false;
      await tablet.save([{ table: 'weekly_store_performance', row: { id: tabletId, ...week, work_days: 5 } }]);
      await desktop.save([{ table: 'weekly_store_performance', row: { id: desktopId, ...week, work_days: 6 } }]);

      tablet.network.online = true;
      expect(await tablet.engine().runOnce()).toMatchObject({ ok: true, pushed: 1 });
      desktop.network.online = true;
      expect(await desktop.engine().runOnce()).toMatchObject({ ok: true, pushed: 1 });
      expect(await tablet.engine().runOnce()).toMatchObject({ ok: true, pushed: 0 });

      const { rows } = await stack.database.query<{ id: string; work_days: number }>(
        'select id, work_days from public.weekly_store_performance where store_id = $1 and week_start_date = $2',
        [demo.storeA, week.week_start_date],
      );
      expect(rows).toEqual([{ id: tabletId, work_days: 6 }]);
      for (const device of [tablet, desktop]) {
        expect(await device.db.deadLetters.count()).toBe(0);
        expect(await device.db.mirror('weekly_store_performance').get([demo.storeA, week.week_start_date])).toMatchObject({ id: tabletId, work_days: 6 });
      }
      const { rows: history } = await stack.database.query<{ old_value: unknown; new_value: unknown; changed_by: string }>(
        `select old_value, new_value, changed_by from audit.change_history
          where table_name = 'weekly_store_performance' and field = 'work_days' and row_key ->> 'week_start_date' = $1 order by id`,
        [week.week_start_date],
      );
      expect(history).toEqual([
        { old_value: null, new_value: 5, changed_by: demo.managerId },
        { old_value: 5, new_value: 6, changed_by: demo.adminId },
      ]);
    }, 60_000);
  });
}
