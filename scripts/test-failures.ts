/**
 * Prints each failed test of the given vitest JSON reports with the first lines of its
 * message, and each test that failed and then passed when run again (CI runs a failed
 * test once more), so the end of a CI log (often all that is kept of it) names what
 * failed and what is unsteady.
 * Usage: tsx scripts/test-failures.ts REPORT.json...
 */
import { existsSync, readFileSync } from 'node:fs';

interface TestResult {
  fullName: string;
  status: string;
  failureMessages?: string[];
}
interface FileResult {
  name: string;
  status: string;
  message?: string;
  assertionResults?: TestResult[];
}

const firstLines = (text: string, count: number) => text.split('\n').slice(0, count).join('\n    ');

let failures = 0;
let unsteady = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, 'utf8')) as { testResults?: FileResult[] };
  for (const suite of report.testResults ?? []) {
    const failed = (suite.assertionResults ?? []).filter((test) => test.status === 'failed');
    // A file can fail with no failed test: an error in its setup, or one thrown between tests.
    if (failed.length === 0 && suite.status === 'failed') {
      failures += 1;
      console.log(`FAILED ${suite.name}\n    ${firstLines(suite.message || '(no message)', 12)}`);
    }
    for (const test of suite.assertionResults ?? []) {
      if (test.status !== 'passed' || !test.failureMessages?.length) continue;
      unsteady += 1;
      console.log(`PASSED ON A SECOND RUN ${suite.name} > ${test.fullName}\n    ${firstLines(test.failureMessages.join('\n'), 6)}`);
    }
    for (const test of failed) {
      failures += 1;
      console.log(`FAILED ${suite.name} > ${test.fullName}\n    ${firstLines((test.failureMessages ?? []).join('\n') || '(no message)', 12)}`);
    }
  }
}
console.log(`${failures} failed test(s), ${unsteady} passed only on a second run.`);
