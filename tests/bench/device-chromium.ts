/**
 * What a store feels on a device, measured in headless Chromium against the built app
 * (its service worker included) and the embedded backend as its own process, through
 * the drills' proxy (which can add a round trip's delay):
 *  - a device's first sync: rows per second and requests;
 *  - a keystroke: from leaving a cell to the screen's figures changing, and painted;
 *  - a month switch on /daily: to the new month's values, and painted; against the
 *    same month's three REST reads at a 100 ms round trip;
 *  - first load: the JavaScript a first visit downloads before and after its first
 *    paint (compressed, as sent), and sw.js;
 *  - an offline reload: first contentful paint, a usable grid (the first weeks' inputs
 *    enabled, with values) and every week of the grid drawn.
 * Everything but the first load is measured twice: on Chromium as it runs on this
 * machine, and with its CPU slowed 4x (DevTools' CPU throttling, as Lighthouse's mobile
 * profile does), for a shop floor's mid-range tablet; the two are printed side by side.
 * BENCH_CPU_THROTTLE sets the slowdown (1 measures once, unthrottled).
 * Figures are medians (p50) and p95 of repeated runs; nothing here passes or fails.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { buildIfNeeded, projectRoot } from '../../scripts/build-if-needed.ts';
import { syncedTableNames } from '../../src/data/synced-tables.ts';
import { serviceLimits } from '../../src/domain/limits.ts';
import { demo } from '../support/demo.ts';
import { chromiumPath } from '../e2e/support/harness.ts';
import type { DrillStack } from '../e2e/support/drill-stack.ts';
import { startDrillStack } from '../e2e/support/drill-stack.ts';
import type { BenchLine } from './realtime-flood.ts';

/** A measurement's line, with the same measurement under CPU throttling beside it when taken. */
export type DeviceLine = BenchLine & { key: string; p95?: number; throttled?: { ms: number; p95?: number } };

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

const monthOf = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}`;

/** Rows in the device's mirrors, read straight from IndexedDB. */
function deviceRows(page: Page): Promise<number> {
  return page.evaluate(
    (tables) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('service-dashboard');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(tables, 'readonly');
          let total = 0;
          let left = tables.length;
          for (const table of tables) {
            const request = tx.objectStore(table).count();
            request.onsuccess = () => {
              total += request.result;
              left -= 1;
              if (left === 0) {
                db.close();
                resolve(total);
              }
            };
          }
        };
      }),
    [...syncedTableNames],
  );
}

/**
 * What IndexedDB alone takes for the same rows in this browser: every row of the device's
 * mirrors written again, in one transaction, into a new database with the same stores
 * and indexes. No sync can store rows faster than this; the first sync is measured
 * against it.
 */
function indexedDbFloor(page: Page): Promise<{ rows: number; ms: number }> {
  return page.evaluate(
    (tables) =>
      new Promise<{ rows: number; ms: number }>((resolve, reject) => {
        const source = indexedDB.open('service-dashboard');
        source.onerror = () => reject(source.error);
        source.onsuccess = () => {
          const db = source.result;
          const read = db.transaction(tables, 'readonly');
          const shapes = tables.map((name) => {
            const store = read.objectStore(name);
            return { name, keyPath: store.keyPath, indexes: [...store.indexNames].map((index) => ({ index, keyPath: store.index(index).keyPath })) };
          });
          const rows: Array<{ table: string; row: unknown }> = [];
          for (const name of tables) {
            const all = read.objectStore(name).getAll();
            all.onsuccess = () => rows.push(...all.result.map((row: unknown) => ({ table: name, row })));
          }
          read.oncomplete = () => {
            db.close();
            const scratchName = `bench-floor-${Date.now()}`;
            const target = indexedDB.open(scratchName, 1);
            target.onupgradeneeded = () => {
              for (const shape of shapes) {
                const store = target.result.createObjectStore(shape.name, { keyPath: shape.keyPath });
                for (const { index, keyPath } of shape.indexes) store.createIndex(index, keyPath);
              }
            };
            target.onerror = () => reject(target.error);
            target.onsuccess = () => {
              const copy = target.result;
              const started = performance.now();
              const write = copy.transaction(tables, 'readwrite');
              for (const { table, row } of rows) write.objectStore(table).put(row);
              write.oncomplete = () => {
                const ms = performance.now() - started;
                copy.close();
                indexedDB.deleteDatabase(scratchName);
                resolve({ rows: rows.length, ms });
              };
              write.onerror = () => reject(write.error);
            };
          };
        };
      }),
    [...syncedTableNames],
  );
}

/**
 * One first sync's worth of pulls by another client, so the backend is warm (its query
 * plans and caches), as it is for every device but the first after it starts.
 */
async function warmBackend(drill: DrillStack): Promise<void> {
  const client = await drill.signedInClient('manager@example.com');
  const minYear = new Date().getUTCFullYear() - 1;
  const counts = await client.rpc('pull_row_counts', { p_tables: [...syncedTableNames], p_min_year: minYear });
  const pulled = await client.rpc('pull_changes_many', { p_requests: syncedTableNames.map((table) => ({ table, cursor: null, min_year: minYear })), p_limit: serviceLimits.pullRequestRows });
  if (counts.error || pulled.error) throw new Error(`warming the backend failed: ${(counts.error ?? pulled.error)?.message}`);
}

/**
 * Slows the page's CPU `rate` times (1: as the machine runs it). The setting belongs to the
 * page's DevTools session, so it holds across the page's navigations and reloads.
 */
async function throttleCpu(page: Page, rate: number): Promise<void> {
  if (rate === 1) return;
  const session = await page.context().newCDPSession(page);
  await session.send('Emulation.setCPUThrottlingRate', { rate });
}

async function firstSync(drill: DrillStack, cpuRate: number): Promise<{ lines: DeviceLine[]; page: Page }> {
  await warmBackend(drill);
  const before = drill.proxy.stats().forwardedByPath;
  const tablet = await drill.tablet({ signIn: false });
  const { page } = tablet;
  await throttleCpu(page, cpuRate);
  let firstPull = 0;
  let inRequests = 0;
  page.on('request', (request) => {
    if (!firstPull && /\/rest\/v1\/rpc\/pull_/.test(request.url())) firstPull = performance.now();
  });
  page.on('requestfinished', (request) => {
    if (/\/rest\/v1\/rpc\/pull_/.test(request.url())) inRequests += request.timing().responseEnd;
  });
  await page.goto(`${drill.appUrl}/login`);
  await page.getByLabel('E-mail').fill('manager@example.com');
  await page.getByLabel('Password').fill(demo.password);
  // The page's long tasks, to tell when the start screen has drawn what the sync brought.
  await page.evaluate(() => {
    const tasks: Array<{ end: number }> = [];
    (window as unknown as { benchLongTasks: typeof tasks }).benchLongTasks = tasks;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push({ end: entry.startTime + entry.duration });
    }).observe({ type: 'longtask' });
  });
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByText(/^Last synced \d/).waitFor({ timeout: 120_000 });
  const ms = performance.now() - firstPull;
  const after = drill.proxy.stats().forwardedByPath;
  // Drawn: the end of the last long task within two seconds of the indicator saying so.
  const pageNow = await page.evaluate(() => performance.now());
  const nodeNow = performance.now();
  await page.waitForTimeout(2_000);
  const lastTaskEnd = await page.evaluate(
    (since) => Math.max(since, ...(window as unknown as { benchLongTasks: Array<{ end: number }> }).benchLongTasks.filter((task) => task.end <= since + 2_000).map((task) => task.end)),
    pageNow,
  );
  const drawnMs = nodeNow + (lastTaskEnd - pageNow) - firstPull;
  const rows = await deviceRows(page);
  const floor = await indexedDbFloor(page);
  const pulls = Object.entries(after)
    .filter(([route]) => /rpc\/pull_/.test(route))
    .reduce((sum, [route, count]) => sum + count - (before[route] ?? 0), 0);
  return {
    page,
    lines: [
      {
        key: 'first-sync',
        case: `Chromium first sync: ${rows.toLocaleString('en-US')} rows, ${Math.round((rows / ms) * 1000).toLocaleString('en-US')} rows/s, ${Math.round(inRequests)} ms of it waiting for pull replies`,
        requests: pulls,
        ms,
      },
      {
        key: 'first-sync-drawn',
        case: `Chromium first sync until the start screen has drawn it (${Math.round((rows / drawnMs) * 1000).toLocaleString('en-US')} rows/s)`,
        requests: pulls,
        ms: drawnMs,
      },
      {
        key: 'indexeddb-floor',
        case: `IndexedDB alone: the same ${floor.rows.toLocaleString('en-US')} rows in one transaction, ${Math.round((floor.rows / floor.ms) * 1000).toLocaleString('en-US')} rows/s (the first sync is ${(ms / floor.ms).toFixed(1)}x this)`,
        requests: 0,
        ms: floor.ms,
      },
    ],
  };
}

/**
 * Waits until the page's start-up is over (its first sync cycle done, and no request to
 * the backend for a second), so the timings below are of the action alone.
 */
async function settled(page: Page, backendUrl: string): Promise<void> {
  await page.getByText(/^Last synced \d/).waitFor({ timeout: 60_000 });
  let last = performance.now();
  const seen = (request: { url(): string }) => {
    if (request.url().startsWith(backendUrl)) last = performance.now();
  };
  page.context().on('request', seen);
  while (performance.now() - last < 1_000) await page.waitForTimeout(200);
  page.context().off('request', seen);
}

/**
 * Types a new value into a cell (the cell stores it as it is typed); the time until the
 * screen's figures change, and until painted.
 */
async function keystrokes(page: Page, drill: DrillStack, month: string, rounds: number): Promise<DeviceLine[]> {
  await page.goto(`${drill.appUrl}/daily?month=${month}`);
  const label = `CP Hours ${month}-02`;
  await page.getByLabel(label).waitFor();
  await settled(page, drill.proxy.url);
  const shown: number[] = [];
  const painted: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const timing = await page.evaluate(
      async ({ label: cellLabel, value }) => {
        const input = document.querySelector<HTMLInputElement>(`input[aria-label="${cellLabel}"]`);
        const section = document.querySelector('section.daily');
        if (!input || !section) throw new Error('no daily grid');
        input.focus();
        // The figures around the grid, not the cell itself (its value, its "saved" sign).
        const own = input.closest('.cell-field') ?? input;
        const changed = new Promise<number>((resolve, reject) => {
          const observer = new MutationObserver((records) => {
            if (records.some((record) => !own.contains(record.target))) {
              observer.disconnect();
              resolve(performance.now());
            }
          });
          observer.observe(section, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['class'] });
          setTimeout(() => reject(new Error(`the figures did not change within 10 s of typing ${value} into ${cellLabel}`)), 10_000);
        });
        const started = performance.now();
        const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
        setter?.call(input, String(value));
        input.dispatchEvent(new Event('input', { bubbles: true }));
        const shownAt = await changed;
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
        const paintedAt = performance.now();
        input.blur();
        return { shown: shownAt - started, painted: paintedAt - started };
      },
      { label, value: 100 + (i % 2) + i / 100 },
    );
    shown.push(timing.shown);
    painted.push(timing.painted);
    await page.waitForTimeout(100);
  }
  return [
    { key: 'keystroke-shown', case: `Chromium keystroke to figures on screen, p50 (p95 ${percentile(shown, 95).toFixed(1)} ms)`, requests: 0, ms: percentile(shown, 50), p95: percentile(shown, 95) },
    { key: 'keystroke-painted', case: `Chromium keystroke to figures painted, p50 (p95 ${percentile(painted, 95).toFixed(1)} ms)`, requests: 0, ms: percentile(painted, 50), p95: percentile(painted, 95) },
  ];
}

/** Prev/Next on /daily between two months with data; to the new month's first value, and painted. */
async function monthSwitches(page: Page, drill: DrillStack, months: [string, string], rounds: number) {
  await page.goto(`${drill.appUrl}/daily?month=${months[0]}`);
  await page.getByLabel(`CP Hours ${months[0]}-01`).waitFor();
  await settled(page, drill.proxy.url);
  let requests = 0;
  const count = (request: { url(): string }) => {
    if (/\/rest\/v1\//.test(request.url())) requests += 1;
  };
  page.on('request', count);
  const values: number[] = [];
  const painted: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const forward = i % 2 === 0;
    const target = forward ? months[1] : months[0];
    const timing = await page.evaluate(
      async ({ forward: next, target: month }) => {
        const buttons = document.querySelectorAll<HTMLButtonElement>('[aria-label="Daily month"] button');
        const button = next ? buttons[1] : buttons[0];
        if (!button) throw new Error('no month buttons');
        // No named helper functions in here: the bench's TypeScript runner would wrap them
        // in a helper the page does not have.
        const selector = `input[aria-label="CP Hours ${month}-01"]`;
        const started = performance.now();
        const arrived = new Promise<number>((resolve, reject) => {
          const observer = new MutationObserver(() => {
            const cell = document.querySelector<HTMLInputElement>(selector);
            if (cell && cell.value !== '') {
              observer.disconnect();
              resolve(performance.now());
            }
          });
          // (A grid that writes a month's values into the inputs it keeps also changes their
          // labels, which the observer sees.)
          observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
          setTimeout(() => reject(new Error(`${selector} showed no value within 10 s of the switch`)), 10_000);
        });
        button.click();
        const valuesAt = await arrived;
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
        return { values: valuesAt - started, painted: performance.now() - started };
      },
      { forward, target },
    );
    values.push(timing.values);
    painted.push(timing.painted);
    await page.waitForTimeout(50);
  }
  page.off('request', count);
  return { values, painted, requests };
}

/** The month's three REST reads (daily inputs, weeks, targets) at once, as a screen reading the server would. */
async function restMonthReads(drill: DrillStack, month: string, rounds: number, delayMs: number): Promise<number[]> {
  const client = await drill.signedInClient('manager@example.com');
  const { data } = await client.auth.getSession();
  const token = data.session?.access_token ?? '';
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, monthNumber, 0)).toISOString().slice(0, 10);
  const headers = { apikey: drill.backend.anonKey, Authorization: `Bearer ${token}` };
  const base = `${drill.proxy.url}/rest/v1`;
  const reads = [
    `${base}/daily_inputs?select=*&store_id=eq.${demo.storeA}&entry_date=gte.${month}-01&entry_date=lte.${last}`,
    `${base}/weekly_store_performance?select=*&store_id=eq.${demo.storeA}&week_start_date=lte.${last}&week_end_date=gte.${month}-01`,
    `${base}/monthly_targets?select=*&store_id=eq.${demo.storeA}&year=eq.${year}&month=eq.${monthNumber}`,
  ];
  drill.proxy.delay(delayMs);
  const times: number[] = [];
  try {
    for (let i = 0; i < rounds; i += 1) {
      const started = performance.now();
      const answers = await Promise.all(reads.map((url) => fetch(url, { headers })));
      const bodies = await Promise.all(answers.map((answer) => answer.json() as Promise<unknown>));
      if (answers.some((answer) => !answer.ok)) throw new Error(`a REST read failed: ${JSON.stringify(bodies)}`);
      times.push(performance.now() - started);
    }
  } finally {
    drill.proxy.restore();
  }
  return times;
}

/** A first visit's JavaScript, as sent (compressed), split at the first paint. */
async function firstLoad(appUrl: string): Promise<DeviceLine[]> {
  const html = await readFile(path.join(distDir(), 'index.html'), 'utf8');
  const initial = new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]));
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const sizes: Array<{ url: string; bytes: number }> = [];
    page.on('requestfinished', (request) => {
      if (!request.url().endsWith('.js')) return;
      void request.sizes().then((size) => sizes.push({ url: new URL(request.url()).pathname, bytes: size.responseBodySize }));
    });
    await page.goto(`${appUrl}/login`);
    await page.getByRole('button', { name: 'Login' }).waitFor();
    await page.waitForTimeout(1500);
    const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN);
    const before = sizes.filter((size) => initial.has(size.url)).reduce((sum, size) => sum + size.bytes, 0);
    const after = sizes.filter((size) => !initial.has(size.url) && !size.url.endsWith('sw.js')).reduce((sum, size) => sum + size.bytes, 0);
    // As sent: fetch decodes the body, so the size is the header's.
    const sentSize = async (encoding: string) => {
      const answer = await fetch(`${appUrl}/sw.js`, { headers: { 'Accept-Encoding': encoding } });
      const body = await answer.arrayBuffer();
      // A file sent as it is (no compressed copy) is streamed without a length: then its size is the body's.
      return answer.headers.get('content-encoding') ? Number(answer.headers.get('content-length')) : body.byteLength;
    };
    const swGzip = await sentSize('gzip');
    const swBrotli = await sentSize('br');
    return [
      { key: 'first-visit-before', case: `first visit: JavaScript before first paint, ${(before / 1024).toFixed(1)} kB as sent (${initial.size} files)`, requests: initial.size, ms: fcp },
      { key: 'first-visit-after', case: `first visit: JavaScript loaded after first paint, ${(after / 1024).toFixed(1)} kB as sent`, requests: sizes.length - initial.size, ms: 0 },
      { key: 'sw', case: `sw.js as sent: gzip ${(swGzip / 1024).toFixed(1)} kB, brotli ${(swBrotli / 1024).toFixed(1)} kB`, requests: 1, ms: 0 },
    ];
  } finally {
    await browser.close();
  }
}

/** Reloads /daily with the network cut: first contentful paint and the grid usable, from navigation start. */
async function offlineReloads(page: Page, appUrl: string, month: string, rounds: number): Promise<DeviceLine[]> {
  await page.goto(`${appUrl}/daily?month=${month}`);
  await page.getByLabel(`CP Hours ${month}-01`).waitFor();
  await page.context().setOffline(true);
  const fcp: number[] = [];
  const usable: number[] = [];
  const wholeGrid: number[] = [];
  try {
    for (let i = 0; i < rounds; i += 1) {
      await page.reload({ waitUntil: 'commit' });
      const ready = await page.waitForFunction(
        (label) => {
          const cell = document.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`);
          return cell && !cell.disabled && cell.value !== '' ? performance.now() : false;
        },
        `CP Hours ${month}-01`,
        { polling: 'raf', timeout: 30_000 },
      );
      usable.push((await ready.jsonValue()) as number);
      // The grid draws the weeks in view first and the rest right after (DayGrid): the whole of it too.
      const whole = await page.waitForFunction(() => (document.querySelector('.day-grid') && !document.querySelector('.day-grid[aria-busy]') ? performance.now() : false), undefined, {
        polling: 'raf',
        timeout: 30_000,
      });
      wholeGrid.push((await whole.jsonValue()) as number);
      fcp.push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN));
    }
  } finally {
    await page.context().setOffline(false);
  }
  return [
    { key: 'offline-fcp', case: `offline reload: first contentful paint, p50 (p95 ${percentile(fcp, 95).toFixed(0)} ms)`, requests: 0, ms: percentile(fcp, 50), p95: percentile(fcp, 95) },
    { key: 'offline-usable', case: `offline reload: usable grid with values, p50 (p95 ${percentile(usable, 95).toFixed(0)} ms)`, requests: 0, ms: percentile(usable, 50), p95: percentile(usable, 95) },
    { key: 'offline-whole', case: `offline reload: every week of the grid drawn, p50 (p95 ${percentile(wholeGrid, 95).toFixed(0)} ms)`, requests: 0, ms: percentile(wholeGrid, 50), p95: percentile(wholeGrid, 95) },
  ];
}

/** The build measured: dist/, or BENCH_DIST_DIR to measure another build (an older one, to compare) against the same backend. */
const distDir = () => process.env.BENCH_DIST_DIR ?? path.join(projectRoot, 'dist');

/** One device's measurements at one CPU speed; the first visit's bytes only when asked (they do not depend on the CPU). */
async function deviceRun(cpuRate: number, withFirstLoad: boolean): Promise<DeviceLine[]> {
  // Progress on stderr: a run takes minutes, and a stuck step should be named.
  const started = performance.now();
  const step = (name: string) => process.stderr.write(`  device at ${cpuRate}x CPU, ${((performance.now() - started) / 1000).toFixed(0)} s: ${name}\n`);
  step('starting the backend and the app');
  const drill = await startDrillStack({ distDir: distDir() });
  try {
    step('first sync');
    const { lines, page } = await firstSync(drill, cpuRate);
    step('keystrokes');
    const now = new Date();
    const thisMonth = monthOf(now);
    const previous = monthOf(new Date(now.getFullYear(), now.getMonth() - 1, 1));
    const earlier = monthOf(new Date(now.getFullYear(), now.getMonth() - 2, 1));
    lines.push(...(await keystrokes(page, drill, thisMonth, 30)));
    step('month switches');
    const switches = await monthSwitches(page, drill, [earlier, previous], 40);
    const rest = await restMonthReads(drill, previous, 20, 100);
    const painted50 = percentile(switches.painted, 50);
    lines.push(
      {
        key: 'switch-values',
        case: `Chromium month switch on /daily to values, p50 (p95 ${percentile(switches.values, 95).toFixed(1)} ms)`,
        requests: switches.requests,
        ms: percentile(switches.values, 50),
        p95: percentile(switches.values, 95),
      },
      {
        key: 'switch-painted',
        case: `Chromium month switch on /daily painted, p50 (p95 ${percentile(switches.painted, 95).toFixed(1)} ms)`,
        requests: switches.requests,
        ms: painted50,
        p95: percentile(switches.painted, 95),
      },
      {
        key: 'rest-reads',
        case: `the month's 3 REST reads at a 100 ms round trip, p50 (${(percentile(rest, 50) / painted50).toFixed(1)}x the device's painted switch)`,
        requests: 3,
        ms: percentile(rest, 50),
        p95: percentile(rest, 95),
      },
    );
    step('offline reloads');
    lines.push(...(await offlineReloads(page, drill.appUrl, previous, 10)));
    if (withFirstLoad) {
      step('first visit');
      lines.push(...(await firstLoad(drill.appUrl)));
    }
    return lines;
  } finally {
    await drill.close();
  }
}

/** The CPU slowdown measured beside the unthrottled run (BENCH_CPU_THROTTLE, default 4; 1: none). */
export const cpuThrottle = Number(process.env.BENCH_CPU_THROTTLE ?? 4);

export async function deviceChromiumBench(): Promise<DeviceLine[]> {
  if (!process.env.BENCH_DIST_DIR) await buildIfNeeded();
  const lines = await deviceRun(1, true);
  if (!(cpuThrottle > 1)) return lines;
  // Measured after the unthrottled run, on a backend of its own, so neither run warms the other.
  const slowed = new Map((await deviceRun(cpuThrottle, false)).map((line) => [line.key, line]));
  return lines.map((line) => {
    const other = slowed.get(line.key);
    if (!other || line.key === 'indexeddb-floor' || line.key === 'rest-reads') return line;
    return { ...line, throttled: { ms: other.ms, p95: other.p95 } };
  });
}

/** The device's lines as a table: p50 and p95 unthrottled and at the CPU slowdown, side by side. */
export function deviceTable(lines: DeviceLine[]): string {
  const measured = lines.filter((line) => line.throttled);
  if (measured.length === 0) return '';
  const name = (line: DeviceLine) => line.case.replace(/, p50.*$/, '').replace(/: \d[\d,]* rows.*$/, '').replace(/ \([^)]*\)$/, '');
  const width = Math.max(...measured.map((line) => name(line).length));
  const cell = (ms: number, p95?: number) => `${ms.toFixed(1)}${p95 === undefined ? '' : ` / ${p95.toFixed(1)}`}`.padStart(15);
  const out = [`${'device in Chromium, ms (p50 / p95)'.padEnd(width)}  ${'1x CPU'.padStart(15)}  ${`${cpuThrottle}x CPU`.padStart(15)}`];
  for (const line of measured) out.push(`${name(line).padEnd(width)}  ${cell(line.ms, line.p95)}  ${cell(line.throttled?.ms ?? Number.NaN, line.throttled?.p95)}`);
  const rest = lines.find((line) => line.key === 'rest-reads');
  const painted = lines.find((line) => line.key === 'switch-painted');
  if (rest && painted?.throttled) {
    out.push(`the month's 3 REST reads at 100 ms: ${rest.ms.toFixed(1)} ms p50, ${(rest.ms / painted.ms).toFixed(1)}x the painted switch at 1x, ${(rest.ms / painted.throttled.ms).toFixed(1)}x at ${cpuThrottle}x`);
  }
  return `${out.join('\n')}\n`;
}

if (process.argv[1]?.endsWith('device-chromium.ts')) {
  process.env.LOCAL_SUPABASE_LOG ??= 'warn';
  void deviceChromiumBench().then((lines) => {
    for (const line of lines) process.stdout.write(`${line.case.padEnd(100)} ${String(line.requests).padStart(6)} ${line.ms.toFixed(1).padStart(9)}\n`);
    process.stdout.write(`\n${deviceTable(lines)}`);
  });
}
