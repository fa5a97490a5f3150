/**
 * Gives the screens' repository hooks the device database and who is signed in. The
 * app provides it once; features never open the database themselves.
 */
import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import type { AppDatabase } from './app-database.ts';

export type Device = { db: AppDatabase; userId: string; now?: () => number };

const DeviceContext = createContext<Device | null>(null);

export function DeviceProvider({ device, children }: { device: Device; children: ReactNode }) {
  return <DeviceContext.Provider value={device}>{children}</DeviceContext.Provider>;
}

export function useDevice(): Device {
  const device = useContext(DeviceContext);
  if (!device) throw new Error('useDevice needs a DeviceProvider above it');
  return device;
}

export function writeContext(device: Device) {
  return { userId: device.userId, now: (device.now ?? Date.now)() };
}
