/**
 * Suite hooks for sync tests that need one signed-in device whose first sync is done:
 * a fresh local stack, the device, and a clean shutdown. `assign` receives them.
 */
import { afterAll, beforeAll } from 'vitest';
import type { AuthSettingsOverrides } from '../../../supabase/local/auth/settings.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import type { Device } from './device.ts';
import { createDevice } from './device.ts';

export function useSyncedDevice(
  email: string,
  assign: (world: { stack: TestStack; device: Device }) => void,
  options: { auth?: AuthSettingsOverrides } = {},
): void {
  let world: { stack: TestStack; device: Device } | undefined;
  beforeAll(async () => {
    const stack = await startTestStack({ auth: options.auth });
    const device = await createDevice(stack, email);
    await device.engine().runOnce('start');
    world = { stack, device };
    assign(world);
  });
  afterAll(async () => {
    world?.device.close();
    await world?.stack.stop();
  });
}
