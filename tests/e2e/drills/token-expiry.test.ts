/**
 * Drill 4: the access token expires while the tablet is offline. The backend issues
 * tokens that live 5 s (LOCAL_SUPABASE_JWT_EXPIRY, see the README's settings); the
 * tablet stays offline well past that, keeps taking entries, and reconnects: nobody is
 * signed out and every edit reaches the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DrillStack, Tablet } from '../support/drill-stack.ts';
import { startDrillStack } from '../support/drill-stack.ts';
import type { Cell } from '../support/drill-steps.ts';
import { byCell, cellKey, daysOf, deviceCounts, enter, openMonth, serverCells, untilDeviceIdle, untilPast } from '../support/drill-steps.ts';
import { until } from '../../support/poll.ts';
import { SyncBarModel } from '../support/pages.ts';

const month = '2031-09';
/** Short, so the tablet's stored token is long expired within seconds of going offline. */
const tokenSeconds = 5;

describe('drill: the token expires while offline', () => {
  let drill: DrillStack;
  let tablet: Tablet;

  beforeAll(async () => {
    drill = await startDrillStack({ env: { LOCAL_SUPABASE_JWT_EXPIRY: String(tokenSeconds) } });
    tablet = await drill.tablet();
    await new SyncBarModel(tablet.page).waitForSynced();
  });
  afterAll(() => drill?.close());

  it('keeps the person signed in and pushes every edit after reconnecting', async () => {
    const { page, context } = tablet;
    await openMonth(page, drill.appUrl, month);
    // The network goes while nothing is in flight. A token refresh cut after the server
    // answered it spends the refresh token the device still holds; presented again after
    // the server's reuse interval (10 s, as on hosted Supabase) it ends the session. That
    // is a lost reply (drill 2's subject, and in "What the app does not promise"); with
    // 5 s tokens this device refreshes on every cycle, so it would be cut at random here.
    await untilDeviceIdle(drill.proxy);
    await context.setOffline(true);
    // The last token the device received was issued before this moment.
    const offlineAt = Date.now();
    const cells: Cell[] = daysOf(month, 10).map((date, i) => ({ date, category: 'I', metric: 'hours', value: 3 + i }));
    for (const [i, cell] of cells.entries()) {
      await enter(page, cell);
      if (i === 4) {
        // Reopened with an expired stored token, while offline.
        await untilPast(offlineAt + tokenSeconds * 1000 + 500);
        await page.reload();
        await openMonth(page, drill.appUrl, month);
      }
    }
    // Twice the token's life: the stored token is long expired when the network returns.
    await untilPast(offlineAt + 2 * tokenSeconds * 1000);
    expect((await deviceCounts(page)).outbox).toBe(cells.length);

    await context.setOffline(false);
    const client = await drill.signedInClient('manager@example.com');
    await until(
      async () => byCell(await serverCells(client, `${month}-01`, `${month}-30`)),
      (onServer) => cells.every((cell) => onServer.get(cellKey(cell)) === cell.value),
      30_000,
      'every edit on the server',
    );
    await until(() => deviceCounts(page), (c) => c.outbox === 0, 10_000, 'an empty outbox');
    expect(page.url()).not.toContain('/login');
    expect(await page.getByRole('alert', { name: 'Session ended' }).count()).toBe(0);
    expect(tablet.errors).toEqual([]);
  });
});
