import { describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import type { Device } from './device.ts';
import { dailyWrite } from './device.ts';
import { useSyncedDevice } from './synced-device.ts';

describe('a session the server revoked while edits were queued', () => {
  let stack: TestStack;
  let device: Device;
  const onServer = async () =>
    (await stack.database.query<{ n: number }>(`select count(*)::int as n from daily_inputs where entry_date >= '2031-01-01'`)).rows[0]?.n;

  useSyncedDevice('manager@example.com', (world) => ({ stack, device } = world));

  it('keeps the edits, asks to sign in, pushes nothing for another user, and pushes after the same user returns', async () => {
    await device.save(Array.from({ length: 20 }, (_, n) => dailyWrite(n, n + 1)));
    // Signed out everywhere (e.g. an admin reset): every refresh token of the user is gone.
    await stack.database.query('delete from auth.sessions where user_id = $1', [demo.managerId]);
    const [stored] = await device.db.authStorage.toArray();
    const session = JSON.parse(stored?.value ?? '{}') as Record<string, unknown>;
    await device.db.authStorage.put({ key: stored?.key ?? '', value: JSON.stringify({ ...session, expires_at: 0 }) });

    const engine = device.engine();
    expect(await engine.runOnce()).toMatchObject({ ok: false, reason: 'signed-out' });
    expect(engine.status.state).toBe('signed-out');
    expect(await device.db.outbox.count()).toBe(20);

    // Someone else signs in on this tablet: the first user's edits are not theirs to send.
    const other = await device.client.auth.signInWithPassword({ email: 'admin@example.com', password: demo.password });
    expect(other.error).toBeNull();
    expect(await engine.runOnce()).toMatchObject({ ok: true, pushed: 0 });
    expect(await onServer()).toBe(0);
    expect(await device.db.outbox.count()).toBe(20);

    await device.client.auth.signInWithPassword({ email: 'manager@example.com', password: demo.password });
    expect(await engine.runOnce()).toMatchObject({ ok: true, pushed: 20 });
    expect(await onServer()).toBe(20);
  });
});
