import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppDatabase } from '../../../src/data/app-database.ts';
import type { Device } from '../../../src/data/device-context.tsx';
import { storeMembers } from '../../../src/features/admin/StoresTab.tsx';
import { migrateLegacyKpiPreferences } from '../../../src/features/settings/legacy-kpi-preferences.ts';
import type { AdminUser } from '../../../src/server/admin-api.ts';

const user = (email: string, store: string | null): AdminUser => ({
  id: email,
  email,
  email_confirmed_at: null,
  user_metadata: {},
  app_metadata: { store_id: store },
});

describe('storeMembers', () => {
  const store = { id: 's1', name: 'Demo Motors', subdomain: null };
  it('lists the first two users of the store, then "+N more"', () => {
    expect(storeMembers(store, [user('a@x.io', 's1'), user('b@x.io', 's2')])).toBe('a@x.io');
    expect(storeMembers(store, [user('a@x.io', 's1'), user('b@x.io', 's1')])).toBe('a@x.io, b@x.io');
    expect(storeMembers(store, ['a', 'b', 'c', 'd'].map((n) => user(`${n}@x.io`, 's1')))).toBe('a@x.io, b@x.io +2 more');
    expect(storeMembers(store, [])).toBe('-');
  });
});

describe('moving the old local-storage KPI choice into the database', () => {
  let device: Device;
  const memory = new Map<string, string>();
  beforeEach(() => {
    memory.clear();
    Object.assign(globalThis, {
      localStorage: {
        getItem: (key: string) => memory.get(key) ?? null,
        setItem: (key: string, value: string) => void memory.set(key, value),
        removeItem: (key: string) => void memory.delete(key),
      },
    });
    device = { db: new AppDatabase('legacy', { indexedDB: new IDBFactory(), IDBKeyRange }), userId: 'u1', now: () => 1 };
  });
  afterEach(() => device.db.close());

  it('saves the old choice once, through the outbox, and removes the old keys', async () => {
    memory.set('selectedKPIs', JSON.stringify(['cpElr', 'bogus', 'totalElr']));
    memory.set('kpiDashboardOrder', JSON.stringify(['totalElr', 'cpElr']));
    expect(await migrateLegacyKpiPreferences(device, 's1')).toBe(true);
    expect(await device.db.mirror('user_dashboard_preferences').get(['u1', 's1'])).toMatchObject({
      selected_kpis: ['cpElr', 'totalElr'],
      kpi_order: ['totalElr', 'cpElr'],
    });
    expect(await device.db.outbox.count()).toBe(1);
    expect([...memory.keys()]).toEqual([]);
    expect(await migrateLegacyKpiPreferences(device, 's1')).toBe(false);
  });

  it('lets a choice already in the database win, still removing the old keys', async () => {
    await device.db.mirror('user_dashboard_preferences').put({ user_id: 'u1', store_id: 's1', selected_kpis: ['hoursPerDay'] });
    memory.set('selectedKPIs', JSON.stringify(['cpElr']));
    expect(await migrateLegacyKpiPreferences(device, 's1')).toBe(false);
    expect(await device.db.mirror('user_dashboard_preferences').get(['u1', 's1'])).toMatchObject({ selected_kpis: ['hoursPerDay'] });
    expect(memory.size).toBe(0);
  });
});
