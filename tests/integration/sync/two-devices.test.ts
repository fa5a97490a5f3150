import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import type { Device } from './device.ts';
import { createDevice } from './device.ts';

const key = { store_id: demo.storeA, year: 2031, month: 6 };

describe('two devices editing offline', () => {
  let stack: TestStack;
  let tablet: Device;
  let desktop: Device;
  const serverRow = async () =>
    (
      await stack.database.query<{ sales: string; gp_net: string; personnel_exp: string }>(
        'select sales::text, gp_net::text, personnel_exp::text from yearly_financial_inputs where store_id = $1 and year = 2031 and month = 6',
        [demo.storeA],
      )
    ).rows;
  const localRow = (device: Device) => device.db.mirror('yearly_financial_inputs').get([demo.storeA, 2031, 6]);

  beforeAll(async () => {
    stack = await startTestStack();
    await stack.database.query(
      'insert into yearly_financial_inputs (store_id, year, month, sales, gp_net, personnel_exp) values ($1, 2031, 6, 100, 70, 20)',
      [demo.storeA],
    );
    tablet = await createDevice(stack, 'manager@example.com');
    desktop = await createDevice(stack, 'admin@example.com');
    for (const device of [tablet, desktop]) expect(await device.engine().runOnce('start')).toMatchObject({ ok: true });
  });
  afterAll(async () => {
    tablet?.close();
    desktop?.close();
    await stack?.stop();
  });

  it('keeps both edits of different fields, converges on one value of the same field, and logs the other', async () => {
    tablet.network.online = false;
    desktop.network.online = false;
    await tablet.save([{ table: 'yearly_financial_inputs', row: { ...key, sales: 111, personnel_exp: 21 } }]);
    await desktop.save([{ table: 'yearly_financial_inputs', row: { ...key, gp_net: 77, personnel_exp: 22 } }]);
    expect(await tablet.engine().runOnce()).toMatchObject({ ok: false, reason: 'transient' });

    tablet.network.online = true;
    expect(await tablet.engine().runOnce()).toMatchObject({ ok: true, pushed: 1 });
    desktop.network.online = true;
    expect(await desktop.engine().runOnce()).toMatchObject({ ok: true, pushed: 1 });
    expect(await tablet.engine().runOnce()).toMatchObject({ ok: true, pushed: 0 });

    // Different fields: both survive. Same field: the last to arrive (the desktop) wins.
    expect(await serverRow()).toEqual([{ sales: '111.00', gp_net: '77.00', personnel_exp: '22.00' }]);
    for (const device of [tablet, desktop]) {
      expect(await localRow(device)).toMatchObject({ sales: 111, gp_net: 77, personnel_exp: 22 });
    }
    // The desktop saw the tablet's value arrive under its own pending edit: that is logged there.
    expect(await desktop.db.conflicts.toArray()).toMatchObject([
      { table: 'yearly_financial_inputs', field: 'personnel_exp', old: 20, theirs: 21, ours: 22 },
    ]);
    expect(await tablet.db.conflicts.count()).toBe(0);
  });
});
