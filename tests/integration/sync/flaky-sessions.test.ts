/**
 * The README's promise, kept through what a shop floor does to sessions: a refresh whose
 * reply is lost, a password changed on another device, an admin's ban. Edits are never
 * dropped and never sent under another person's identity.
 */
import { describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import type { Device } from './device.ts';
import { dailyWrite } from './device.ts';
import { useSyncedDevice } from './synced-device.ts';

type StoredSession = { access_token: string; refresh_token: string; expires_at: number };

async function storedSession(device: Device): Promise<{ key: string; session: StoredSession }> {
  const [item] = await device.db.authStorage.toArray();
  if (!item) throw new Error('no stored session');
  return { key: item.key, session: JSON.parse(item.value) as StoredSession };
}

const countOnServer = async (stack: TestStack) =>
  (await stack.database.query<{ n: number }>(`select count(*)::int as n from daily_inputs where entry_date >= '2031-01-01'`)).rows[0]?.n;

describe('a refresh whose reply is lost on the way back', () => {
  let stack: TestStack;
  let device: Device;
  useSyncedDevice('manager@example.com', (world) => ({ stack, device } = world));

  it('keeps the device signed in: the retry with the old token gets the session the lost reply carried, and every edit is pushed', async () => {
    const { key, session } = await storedSession(device);
    // The access token is due: the next sync refreshes first.
    await device.db.authStorage.put({ key, value: JSON.stringify({ ...session, expires_at: Math.floor(Date.now() / 1000) - 5 }) });
    await device.save(Array.from({ length: 30 }, (_, n) => dailyWrite(n, n + 1)));

    const engine = device.engine();
    device.network.cutRequest(1, 'after-commit'); // the server rotates the token; the device never hears
    expect(await engine.runOnce()).toMatchObject({ ok: false, reason: 'transient' });
    expect(device.network.cutsMade).toEqual(['after-commit']);
    expect((await storedSession(device)).session.refresh_token).toBe(session.refresh_token);
    const { rows } = await stack.database.query<{ revoked: boolean }>('select revoked from auth.refresh_tokens where token = $1', [session.refresh_token]);
    expect(rows[0]?.revoked).toBe(true);

    expect(await engine.runOnce()).toMatchObject({ ok: true, pushed: 30 });
    expect(engine.status.state).not.toBe('signed-out');
    expect(await countOnServer(stack)).toBe(30);
    expect(await device.db.outbox.count()).toBe(0);
    const renewed = (await storedSession(device)).session;
    expect(renewed.refresh_token).not.toBe(session.refresh_token);
    expect((await device.client.auth.refreshSession()).error).toBeNull(); // the family goes on
  });
});

// Access tokens of 20 s, as a drill would set them: the device must refresh before each sync.
const drill = { auth: { accessTokenSeconds: 20 } };

describe('a password changed on another device', () => {
  let stack: TestStack;
  let device: Device;
  useSyncedDevice('manager@example.com', (world) => ({ stack, device } = world), drill);

  it('ends this device\'s session; the edits wait, are not sent by the next person, and go when the same person signs in again', async () => {
    const desktop = await stack.signIn('manager@example.com');
    expect((await desktop.auth.updateUser({ password: 'new-rim-77' })).error).toBeNull();

    await device.save(Array.from({ length: 20 }, (_, n) => dailyWrite(n, n + 1)));
    const engine = device.engine();
    expect(await engine.runOnce()).toMatchObject({ ok: false, reason: 'signed-out' });
    expect(await device.db.outbox.count()).toBe(20);

    expect((await device.client.auth.signInWithPassword({ email: 'admin@example.com', password: demo.password })).error).toBeNull();
    expect(await engine.runOnce()).toMatchObject({ ok: true, pushed: 0 });
    expect(await countOnServer(stack)).toBe(0);
    expect(await device.db.outbox.count()).toBe(20);

    expect((await device.client.auth.signInWithPassword({ email: 'manager@example.com', password: demo.password })).error).not.toBeNull();
    expect((await device.client.auth.signInWithPassword({ email: 'manager@example.com', password: 'new-rim-77' })).error).toBeNull();
    expect(await engine.runOnce()).toMatchObject({ ok: true, pushed: 20 });
    expect(await countOnServer(stack)).toBe(20);
  });
});

describe('an admin banning and then unbanning the user', () => {
  let stack: TestStack;
  let device: Device;
  useSyncedDevice('manager@example.com', (world) => ({ stack, device } = world), drill);

  it('ends the session at once; the edits wait through the ban and are pushed after the unban and sign-in', async () => {
    const admin = stack.service().auth.admin;
    expect((await admin.updateUserById(demo.managerId, { ban_duration: '24h' })).error).toBeNull();
    await device.save(Array.from({ length: 15 }, (_, n) => dailyWrite(n, n + 1)));
    const engine = device.engine();
    expect(await engine.runOnce()).toMatchObject({ ok: false, reason: 'signed-out' });
    const refused = await device.client.auth.signInWithPassword({ email: 'manager@example.com', password: demo.password });
    expect(refused.error?.code).toBe('user_banned');
    expect(await device.db.outbox.count()).toBe(15);
    expect(await countOnServer(stack)).toBe(0);

    expect((await admin.updateUserById(demo.managerId, { ban_duration: 'none' })).error).toBeNull();
    expect((await device.client.auth.signInWithPassword({ email: 'manager@example.com', password: demo.password })).error).toBeNull();
    expect(await engine.runOnce()).toMatchObject({ ok: true, pushed: 15 });
    expect(await countOnServer(stack)).toBe(15);
    expect(await device.db.outbox.count()).toBe(0);
  });
});
