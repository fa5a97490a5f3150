/**
 * `npm run lighthouse`: Lighthouse's scores and metrics for the app's pages, medians of N
 * runs, printed as one table. Nothing here passes or fails; docs/performance.md keeps the
 * figures and how to read them.
 *
 * The built app (dist/, built first when stale) is served by the app server and talks to
 * the embedded backend as its own process, both on free ports, as `npm start` runs them.
 * The machine's Chromium runs with the browser tests' flags and a fresh profile.
 *
 * Pages:
 *  - /login: a first visit (Lighthouse's default: the origin's service worker, Cache
 *    Storage and HTTP cache cleared before each run), in a profile nobody signed in to;
 *  - an inner page "warm": a returning tablet. The profile signed in once as the demo
 *    manager and finished its first sync; before each run the page was opened once so the
 *    service worker is installed and holds the app; Lighthouse clears nothing;
 *  - an inner page "cold": the same signed-in profile with Lighthouse's default reset
 *    (service worker, Cache Storage and HTTP cache cleared, IndexedDB kept): the app's
 *    code comes from the network again, the session and the month's rows are still on the
 *    device, so the page opens signed in (as after a browser's cache was cleared).
 *
 * Options (after `npm run lighthouse --`):
 *   --runs N          runs per page (default 3; LIGHTHOUSE_RUNS)
 *   --desktop         Lighthouse's desktop profile instead of its default mobile one
 *   --pages LIST      comma-separated: login, daily, daily-cold, or any route of the app
 *                     (`/weekly`, `/monthly?month=2026-01`, measured warm); `all` is login,
 *                     daily-cold and every screen warm. Default: login,daily,daily-cold
 *   --dist DIR        measure another build (default dist/)
 *   --save DIR        also write each run's Lighthouse report (JSON) there
 *   --details         list the audits that did not pass in the median run of each page
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Flags, Result } from 'lighthouse';
import lighthouse, { desktopConfig } from 'lighthouse';
import { startAppServer } from '../../scripts/app-server.ts';
import { buildIfNeeded, distDir as defaultDist } from '../../scripts/build-if-needed.ts';
import { startBackendProcess } from '../support/backend-process.ts';
import type { AuditBrowser } from './lighthouse-browser.ts';
import { launchAuditBrowser, signIn, warmUp } from './lighthouse-browser.ts';

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: process.env.LIGHTHOUSE_RUNS ?? '3' },
    desktop: { type: 'boolean', default: false },
    pages: { type: 'string', default: 'login,daily,daily-cold' },
    dist: { type: 'string' },
    save: { type: 'string' },
    details: { type: 'boolean', default: false },
  },
});

const runs = Number(options.runs);
if (!Number.isInteger(runs) || runs < 1 || runs > 50) throw new Error(`--runs takes a whole number from 1 to 50, not "${options.runs}"`);

/** Every screen a signed-in person can open (admin-only ones need the admin account, which this script does not use). */
const screens = ['/', '/today', '/daily', '/daily-weekly', '/weekly', '/monthly', '/yearly', '/service-overview', '/front-end-team', '/settings', '/print'];

type PageSpec = { name: string; route: string; kind: 'signed-out' | 'warm' | 'cold' };

function pageSpecs(list: string): PageSpec[] {
  const names = list === 'all' ? ['login', 'daily-cold', ...screens] : list.split(',').map((name) => name.trim());
  return names.map((name): PageSpec => {
    if (name === 'login') return { name: '/login', route: '/login', kind: 'signed-out' };
    if (name === 'daily') return { name: '/daily warm', route: '/daily', kind: 'warm' };
    if (name === 'daily-cold') return { name: '/daily cold', route: '/daily', kind: 'cold' };
    if (name.startsWith('/')) return { name: `${name} warm`, route: name, kind: 'warm' };
    throw new Error(`unknown page "${name}": login, daily, daily-cold or a route such as /weekly`);
  });
}

const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const metrics = [
  ['FCP', 'first-contentful-paint', 's'],
  ['LCP', 'largest-contentful-paint', 's'],
  ['TBT', 'total-blocking-time', 'ms'],
  ['CLS', 'cumulative-layout-shift', ''],
  ['SI', 'speed-index', 's'],
] as const;

type Figures = Record<string, number>;

function figuresOf(lhr: Result): Figures {
  const figures: Figures = {};
  for (const category of categories) figures[category] = Math.round((lhr.categories[category]?.score ?? Number.NaN) * 100);
  for (const [label, audit] of metrics) figures[label] = lhr.audits[audit]?.numericValue ?? Number.NaN;
  return figures;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

function formatMetric(value: number, unit: string): string {
  if (unit === 's') return `${(value / 1000).toFixed(2)} s`;
  if (unit === 'ms') return `${Math.round(value)} ms`;
  return value.toFixed(3);
}

/** The audits of a report that did not pass (score under 0.9), with what Lighthouse says they cost. */
function failedAudits(lhr: Result): string[] {
  const lines: string[] = [];
  for (const audit of Object.values(lhr.audits)) {
    if (audit.score === null || audit.score >= 0.9 || audit.scoreDisplayMode === 'informative' || audit.scoreDisplayMode === 'manual') continue;
    const saving = audit.details && 'overallSavingsMs' in audit.details && audit.details.overallSavingsMs ? `, saves ${Math.round(Number(audit.details.overallSavingsMs))} ms` : '';
    lines.push(`    ${audit.id} (${audit.score}): ${audit.title}${audit.displayValue ? ` — ${audit.displayValue}` : ''}${saving}`);
  }
  return lines;
}

/**
 * Lighthouse's trace of a load sometimes misses the load's start (NO_NAVSTART) or first
 * paint, and its message then asks to run it again: such a run is run again, up to twice,
 * and said so; any other failure ends the measurement.
 */
const retriedFailure = /run Lighthouse again/i;

async function audit(url: string, flags: Flags, config: typeof desktopConfig | undefined): Promise<Result> {
  for (let attempt = 1; ; attempt += 1) {
    const result = await lighthouse(url, flags, config);
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (!lhr.runtimeError) return lhr;
    const failure = `${lhr.runtimeError.code} ${lhr.runtimeError.message}`;
    if (attempt > 2 || !retriedFailure.test(lhr.runtimeError.message)) throw new Error(`Lighthouse failed on ${url}: ${failure}`);
    process.stdout.write(`  (Lighthouse failed on ${url}: ${lhr.runtimeError.code}; running it again)\n`);
  }
}

async function main() {
  const pages = pageSpecs(options.pages);
  const dist = options.dist ? path.resolve(options.dist) : defaultDist;
  if (!options.dist && (await buildIfNeeded(() => process.stdout.write('Building the app (dist/ is missing or older than its sources)...\n')))) {
    process.stdout.write('Built.\n');
  }
  const backend = await startBackendProcess({ env: { LOCAL_SUPABASE_LOG: 'warn' } });
  const app = await startAppServer({ distDir: dist, port: 0, config: { supabaseUrl: backend.url, supabaseAnonKey: backend.anonKey } });
  // One browser that never signs in (the login page) and one signed in once (the inner pages).
  const browsers: AuditBrowser[] = [];
  const reports = new Map<string, Result[]>();
  try {
    const signedOut = await launchAuditBrowser();
    browsers.push(signedOut);
    const signedIn = await launchAuditBrowser();
    browsers.push(signedIn);
    if (pages.some((page) => page.kind !== 'signed-out')) await signedIn.withPage((page) => signIn(page, app.url));
    const config = options.desktop ? desktopConfig : undefined;
    if (options.save) await mkdir(options.save, { recursive: true });
    // Each round measures every page once, so the machine's load of the moment falls on all of them alike.
    for (let round = 1; round <= runs; round += 1) {
      for (const spec of pages) {
        const browser = spec.kind === 'signed-out' ? signedOut : signedIn;
        const url = `${app.url}${spec.route}`;
        if (spec.kind === 'warm') {
          await browser.withPage((page) => warmUp(page, url, (opened) => opened.locator('main, .splash').first().waitFor()));
        }
        const flags: Flags = {
          port: browser.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: [...categories],
          disableStorageReset: spec.kind === 'warm',
        };
        const lhr = await audit(url, flags, config);
        if (spec.kind !== 'signed-out' && new URL(lhr.finalDisplayedUrl).pathname === '/login') {
          throw new Error(`${spec.name} opened the login page: the profile is no longer signed in`);
        }
        reports.set(spec.name, [...(reports.get(spec.name) ?? []), lhr]);
        const figures = figuresOf(lhr);
        process.stdout.write(
          `  run ${round}/${runs} ${spec.name}: performance ${figures.performance}, CLS ${formatMetric(figures.CLS ?? Number.NaN, '')}, TBT ${formatMetric(figures.TBT ?? Number.NaN, 'ms')}\n`,
        );
        if (options.save) {
          const file = `${spec.name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}-${round}.json`;
          await writeFile(path.join(options.save, file), JSON.stringify(lhr));
        }
      }
    }
  } finally {
    for (const browser of browsers) await browser.close();
    await app.close();
    await backend.stop();
  }
  printTable(reports);
}

function printTable(reports: Map<string, Result[]>) {
  const header = ['page', 'performance', 'accessibility', 'best practices', 'SEO', ...metrics.map(([label]) => label)];
  const rows: string[][] = [];
  for (const [name, lhrs] of reports) {
    const all = lhrs.map(figuresOf);
    const medianOf = (key: string) => median(all.map((figures) => figures[key] ?? Number.NaN));
    const spread = (key: string) => {
      const values = all.map((figures) => figures[key] ?? Number.NaN);
      return values.length > 1 ? ` (${Math.min(...values)}-${Math.max(...values)})` : '';
    };
    rows.push([
      name,
      `${medianOf('performance')}${spread('performance')}`,
      String(medianOf('accessibility')),
      String(medianOf('best-practices')),
      String(medianOf('seo')),
      ...metrics.map(([label, , unit]) => formatMetric(medianOf(label), unit)),
    ]);
  }
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const profile = options.desktop ? 'desktop' : 'mobile (4x CPU slowdown, slow 4G, simulated)';
  process.stdout.write(`\nLighthouse ${reports.values().next().value?.[0]?.lighthouseVersion ?? ''}, ${profile}; medians of ${runs} run(s), performance's range in brackets\n`);
  process.stdout.write(`${line(header)}\n${line(widths.map((width) => '-'.repeat(width)))}\n`);
  for (const row of rows) process.stdout.write(`${line(row)}\n`);
  if (options.details) {
    for (const [name, lhrs] of reports) {
      // The run whose performance score is the median one.
      const sorted = [...lhrs].sort((a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0));
      const middle = sorted[Math.floor((sorted.length - 1) / 2)];
      if (!middle) continue;
      const failed = failedAudits(middle);
      process.stdout.write(`\n${name}: ${failed.length ? 'audits not passed' : 'every audit passed'}\n${failed.join('\n')}${failed.length ? '\n' : ''}`);
    }
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
