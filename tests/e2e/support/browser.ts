/**
 * The machine's Chromium for every browser test, and the one failure policy they share:
 * every page of every browser a test opens is watched for uncaught page errors, console
 * errors and Content-Security-Policy violations. A test declares the console errors it
 * expects (a drill that cuts the network expects failed requests); anything else is a
 * fault, and the world that opened the browser fails its file when it closes.
 */
import type { BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { expect, TestRunner } from 'vitest';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Launch arguments for every browser test: no sandbox (containers), no GPU, nothing phoning home. */
export const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

/**
 * A persistent-profile browser (not incognito: installability and storage behave as for a
 * person). Prefer a world's own builder (startE2E, startDrillStack), which also watches it.
 */
export function launchBrowser(profile: string, options: { viewport?: { width: number; height: number } } = {}): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, { executablePath: chromiumPath, headless: true, args: chromiumArgs, ...options });
}

/**
 * The console's failed-request lines, whatever failed them: expected wherever a test cuts
 * the network, drops replies or stops the backend (the drills).
 */
export const networkFailures = /Failed to load resource|net::ERR_|ERR_CONNECTION|ERR_EMPTY_RESPONSE|ERR_INTERNET_DISCONNECTED|WebSocket connection|^TypeError: Failed to fetch/i;

/**
 * The lines a browser logs for requests made while it is offline: expected in a test that
 * takes it offline. A page cut off right after it opened also logs its service worker's
 * registration failing (the worker's script could not be fetched; the app registers it
 * again once the network is back).
 */
export const offlineFailures = /net::ERR_INTERNET_DISCONNECTED|^TypeError: Failed to fetch|^An unknown error occurred when fetching the script/;

/** The line a browser logs for a reply with this status: expected where a test makes the server refuse a request. */
export const refusedWith = (status: number) => new RegExp(`Failed to load resource: the server responded with a status of ${status}\\b`);

const cspMessage = /Content Security Policy/i;

type CspReporter = { __reportCspViolation(text: string): void };

export type BrowserFaults = {
  /** Everything the Content-Security-Policy blocked, in any watched page. */
  securityViolations: string[];
  /** Uncaught exceptions and unexpected console errors, in any watched page. */
  pageErrors: string[];
  /**
   * Declares console errors expected (matched against the message's text): for the rest of
   * the test when called inside one, for the whole file when called outside any test.
   */
  expectConsoleErrors(...patterns: RegExp[]): void;
  /** Watches a browser: its open pages, the pages it opens later, and CSP events in each. */
  watch(context: BrowserContext, perBrowser?: string[]): Promise<void>;
  /** Throws, listing every fault, when there was any. */
  check(): void;
};

export function browserFaults(expected: RegExp[] = []): BrowserFaults {
  const securityViolations: string[] = [];
  const pageErrors: string[] = [];
  const allowed: Array<{ pattern: RegExp; test?: string }> = expected.map((pattern) => ({ pattern }));

  /**
   * The test running, or the last one that ran (a late reply's error belongs to the test
   * that caused it): expect's currentTestName, which stays set between tests.
   */
  const lastTest = () => expect.getState().currentTestName;

  function watchPage(page: Page, sinks: string[][]): void {
    // Named after the test running when it happened, so the file's failure points at it.
    const record = (text: string) => {
      const during = lastTest();
      sinks.forEach((sink) => sink.push(during ? `${text} (during "${during}")` : text));
    };
    const isExpected = (text: string) => {
      const during = lastTest();
      return allowed.some(({ pattern, test }) => (test === undefined || test === during) && pattern.test(text));
    };
    page.on('pageerror', (error) => record(`pageerror: ${error.name}: ${error.message} ${error.stack?.split('\n').slice(0, 4).join(' | ') ?? ''}`));
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      if (cspMessage.test(text)) {
        securityViolations.push(text);
        return;
      }
      if (isExpected(text)) return;
      record(`console: ${text}`);
    });
  }

  return {
    securityViolations,
    pageErrors,
    expectConsoleErrors(...patterns) {
      // From a file's hooks, for the whole file: there expect's test name may still be the
      // previous file's last test (the browser files share one module graph per process).
      const test = TestRunner.getCurrentTest() ? lastTest() : undefined;
      allowed.push(...patterns.map((pattern) => ({ pattern, test })));
    },
    async watch(context, perBrowser) {
      const sinks = perBrowser ? [pageErrors, perBrowser] : [pageErrors];
      await context.exposeBinding('__reportCspViolation', (_source, text: string) => void securityViolations.push(text));
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          (window as unknown as CspReporter).__reportCspViolation(
            `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} in ${event.sourceFile}:${event.lineNumber}`,
          );
        });
      });
      for (const page of context.pages()) watchPage(page, sinks);
      context.on('page', (page) => watchPage(page, sinks));
    },
    check() {
      const faults = [
        ...(securityViolations.length ? [`The Content-Security-Policy blocked:\n${securityViolations.join('\n')}`] : []),
        ...(pageErrors.length ? [`Uncaught errors or unexpected console errors in the browser:\n${pageErrors.join('\n')}`] : []),
      ];
      if (faults.length) throw new Error(faults.join('\n'));
    },
  };
}
