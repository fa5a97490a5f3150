/**
 * Drill 1: the backend dies mid-shift. Thirty cells entered online, the backend killed
 * (SIGKILL) while a push is in flight, thirty more entered against a dead backend, two
 * reloads, a restart: every value on the server exactly once soon after, and the
 * indicator shows nothing waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DrillStack, Tablet } from '../support/drill-stack.ts';
import { startDrillStack } from '../support/drill-stack.ts';
import type { Cell } from '../support/drill-steps.ts';
import { byCell, cellKey, daysOf, deviceCounts, enter, indicatorText, openMonth, serverCells, untilDeviceIdle } from '../support/drill-steps.ts';
import { until } from '../../support/poll.ts';
import { showsNothingWaiting, SyncBarModel } from '../support/pages.ts';

const month = '2031-05';

describe('drill: the backend dies mid-shift', () => {
  let drill: DrillStack;
  let tablet: Tablet;

  beforeAll(async () => {
    drill = await startDrillStack();
    tablet = await drill.tablet();
    await new SyncBarModel(tablet.page).waitForSynced();
  });
  afterAll(() => drill?.close());

  it('keeps all 60 values through a kill during a push, two reloads and a restart', async () => {
    const { page } = tablet;
    const days = daysOf(month, 30);
    const first: Cell[] = days.map((date, i) => ({ date, category: 'CP', metric: 'hours', value: i + 1.5 }));
    const second: Cell[] = days.map((date, i) => ({ date, category: 'CP', metric: 'sales', value: 100 * (i + 1) + 0.25 }));
    await openMonth(page, drill.appUrl, month);
    for (const cell of first.slice(0, 29)) await enter(page, cell);
    await until(() => deviceCounts(page), (c) => c.outbox === 0, 30_000, 'the first 29 pushed');

    // The device idle first: a cycle a Realtime echo of those pushes starts would otherwise
    // be the request that hangs on the frozen backend (for its 20 s timeout), with the
    // 30th value's push queued behind it.
    await untilDeviceIdle(drill.proxy);
    // Freeze the backend, enter the 30th value: its push reaches the backend and hangs there; then kill it.
    const forwardedBefore = drill.proxy.stats().forwarded;
    drill.backend.pause();
    await enter(page, first[29] as Cell);
    await until(async () => drill.proxy.stats().forwarded, (n) => n > forwardedBefore, 15_000, 'a push sent to the frozen backend');
    await drill.backend.kill('SIGKILL');

    for (const cell of second) await enter(page, cell);
    expect((await deviceCounts(page)).outbox).toBeGreaterThanOrEqual(30);
    await page.reload();
    await openMonth(page, drill.appUrl, month);
    await page.reload();
    await openMonth(page, drill.appUrl, month);
    // Nothing typed is lost on the device while the backend is down.
    for (const cell of [first[29] as Cell, ...second]) {
      expect(await page.getByLabel(`${cell.category} ${cell.metric === 'hours' ? 'Hours' : 'Sales'} ${cell.date}`).inputValue()).toBe(String(cell.value));
    }

    await drill.backend.restart();
    const restartedAt = Date.now();
    const client = await drill.signedInClient('manager@example.com');
    const expected = new Map([...first, ...second].map((cell) => [cellKey(cell), cell.value]));
    // The device learns the backend is back when its Realtime channel joins again (the
    // client retries every 10 s at most once the backend has been away a while) or when
    // its own backoff ends, whichever comes first.
    const onServer = await until(
      async () => byCell(await serverCells(client, `${month}-01`, `${month}-31`)),
      (cells) => [...expected].every(([key, value]) => cells.get(key) === value),
      30_000,
      'all 60 values on the server',
    ).catch(async (error: unknown) => {
      // What the device and the restarted backend say, to tell a slow retry from lost rows.
      const service = drill.backend.client(drill.backend.serviceRoleKey);
      const stored = await service.from('daily_inputs').select('entry_date', { count: 'exact', head: true }).gte('entry_date', `${month}-01`).lte('entry_date', `${month}-31`);
      console.log(
        [
          `indicator: ${await indicatorText(page)}`,
          `device: ${JSON.stringify(await deviceCounts(page))}`,
          `rows of ${month} on the server (service role): ${stored.count ?? stored.error?.message}`,
          `backend restarted: ${drill.backend.ready().appliedMigrations} migrations applied, seeded: ${drill.backend.ready().seeded}`,
          `backend output: ${drill.backend.output().slice(-4000)}`,
        ].join('\n'),
      );
      throw error;
    });
    const landedMs = Date.now() - restartedAt;
    expect(onServer.size).toBe(60); // byCell already failed on any cell held twice
    await until(() => indicatorText(page), showsNothingWaiting, 10_000, 'the indicator showing nothing waiting');
    expect((await deviceCounts(page)).outbox).toBe(0);
    expect(tablet.errors).toEqual([]);
    console.log(`drill 1: 60 values on the server ${landedMs} ms after the backend answered again`);
  });
});
