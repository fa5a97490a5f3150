import { describe, expect, it } from 'vitest';
import { signJwt } from '../../../supabase/local/jwt.ts';
import type { TestStack } from '../../support/local-stack.ts';
import type { Device } from './device.ts';
import { dailyWrite } from './device.ts';
import { useSyncedDevice } from './synced-device.ts';

describe('an access token that expires while the device is offline', () => {
  let stack: TestStack;
  let device: Device;
  const serverCount = async () =>
    (await stack.database.query<{ n: number }>(`select count(*)::int as n from daily_inputs where entry_date >= '2031-01-01'`)).rows[0]?.n;

  /** Rewrites the stored session: an access token that expired, and what the client believes of it. */
  async function expireStoredToken(claimedExpiresAt: number) {
    const [item] = await device.db.authStorage.toArray();
    if (!item) throw new Error('no stored session');
    const session = JSON.parse(item.value) as { access_token: string; expires_at: number };
    const claims = JSON.parse(Buffer.from(session.access_token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
    const past = Math.floor(Date.now() / 1000) - 60;
    session.access_token = await signJwt({ ...claims, iat: past - 3600, exp: past }, stack.keys.jwtSecret);
    session.expires_at = claimedExpiresAt;
    await device.db.authStorage.put({ key: item.key, value: JSON.stringify(session) });
  }

  useSyncedDevice('manager@example.com', (world) => ({ stack, device } = world));

  it('keeps the session and all 100 queued edits offline, refreshes on reconnect, then pushes them all', async () => {
    device.network.online = false;
    await expireStoredToken(Math.floor(Date.now() / 1000) - 60);
    await device.save(Array.from({ length: 100 }, (_, n) => dailyWrite(n, n + 1)));
    const engine = device.engine();
    expect(await engine.runOnce()).toMatchObject({ ok: false, reason: 'transient' });
    expect(await device.db.authStorage.count()).toBe(1);
    expect(await device.db.outbox.count()).toBe(100);

    device.network.online = true;
    expect(await engine.runOnce()).toMatchObject({ ok: true, pushed: 100 });
    expect(await serverCount()).toBe(100);
    expect(await device.db.deadLetters.count()).toBe(0);
  });

  it('answers a 401 for a token the client still believed valid with a refresh and a retry, dropping nothing', async () => {
    await expireStoredToken(Math.floor(Date.now() / 1000) + 3000);
    await device.save(Array.from({ length: 100 }, (_, n) => dailyWrite(200 + n, n + 1)));
    const result = await device.engine().runOnce();
    expect(result).toMatchObject({ ok: true, pushed: 100 });
    expect(await serverCount()).toBe(200);
    expect(await device.db.deadLetters.count()).toBe(0);
  });
});
