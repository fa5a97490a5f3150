/**
 * Drill 2: replies lost after the server acted. The proxy drops a third of the replies to
 * pushes, pulls and token refreshes (the server did the work; the tablet never hears of
 * it) during a minute of steady entry, with access tokens that expire every 40 s so
 * refreshes are lost too. Nothing lost or doubled, never signed out, and the indicator
 * never says nothing waits while the device's outbox holds an edit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DrillStack, Tablet } from '../support/drill-stack.ts';
import { startDrillStack } from '../support/drill-stack.ts';
import type { Cell } from '../support/drill-steps.ts';
import { byCell, cellKey, daysOf, deviceCounts, enter, indicatorText, openMonth, serverCells } from '../support/drill-steps.ts';
import { until } from '../../support/poll.ts';
import { showsNothingWaiting, SyncBarModel } from '../support/pages.ts';

const month = '2031-06';
/** A minute keeps the drill inside CI's budget; the loss rate, not the length, is what breaks a client. */
const steadyEntryMs = Number(process.env.DRILL_ENTRY_MS ?? 60_000);

describe('drill: replies lost after the server acted', () => {
  let drill: DrillStack;
  let tablet: Tablet;

  beforeAll(async () => {
    drill = await startDrillStack({ env: { LOCAL_SUPABASE_JWT_EXPIRY: '40' } });
    tablet = await drill.tablet();
    await new SyncBarModel(tablet.page).waitForSynced();
  });
  afterAll(() => drill?.close());

  it('loses nothing, doubles nothing and never signs out while a third of the replies are lost', async () => {
    const { page } = tablet;
    await openMonth(page, drill.appUrl, month);
    drill.proxy.dropReplies([
      { path: /\/rest\/v1\/rpc\/push_changes(_reported)?$/, share: 1 / 3 },
      { path: /\/rest\/v1\/rpc\/pull_(changes(_many)?|row_counts)$/, share: 1 / 3 },
      { path: /\/auth\/v1\/token$/, share: 1 / 3 },
    ]);
    const days = daysOf(month, 12);
    const typed = new Map<string, number>();
    const falseClaims: string[] = [];
    const started = Date.now();
    for (let i = 0; Date.now() - started < steadyEntryMs; i += 1) {
      // The same cells again and again: later values must win, none may come back.
      const cell: Cell = { date: days[i % days.length] as string, category: i % 2 ? 'W' : 'CP', metric: i % 3 ? 'hours' : 'sales', value: i + 0.5 };
      await enter(page, cell);
      typed.set(cellKey(cell), cell.value);
      await page.waitForTimeout(400);
      // The indicator first, then the database: the outbox only shrinks in between.
      const shown = await indicatorText(page);
      const { outbox } = await deviceCounts(page);
      if (showsNothingWaiting(shown) && outbox > 0) falseClaims.push(`${shown} with ${outbox} in the outbox`);
      expect(page.url()).not.toContain('/login');
    }
    const lost = drill.proxy.stats();
    drill.proxy.restore();

    const client = await drill.signedInClient('manager@example.com');
    const onServer = await until(
      async () => byCell(await serverCells(client, `${month}-01`, `${month}-30`)),
      (cells) => [...typed].every(([key, value]) => cells.get(key) === value),
      30_000,
      'every last typed value on the server',
    );
    expect(onServer.size).toBe(typed.size);
    await until(() => deviceCounts(page), (c) => c.outbox === 0, 30_000, 'an empty outbox');
    const counts = await deviceCounts(page);
    expect(counts.deadLetters).toBe(0);
    // Only this tablet typed: nothing was changed on another device.
    expect(counts.conflicts).toBe(0);
    expect(falseClaims).toEqual([]);
    expect(page.url()).not.toContain('/login');
    expect(await page.getByText('Sign in again').count()).toBe(0);
    expect(tablet.errors).toEqual([]);
    console.log(`drill 2: ${typed.size} cells, ${lost.forwarded} requests ${JSON.stringify(lost.forwardedByPath)}, ${lost.dropped} replies dropped ${JSON.stringify(lost.droppedByPath)}`);
  });
});
