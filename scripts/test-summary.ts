/**
 * The end of a CI log (often all that is kept of it): the totals of the given vitest JSON
 * reports, each failed test with the first lines of its message, and each test that
 * failed and then passed when run again (CI runs a failed test once more). Exits 1 when
 * a test failed or none passed.
 * Usage: tsx scripts/test-summary.ts REPORT.json...
 */
import { existsSync, readFileSync } from 'node:fs';

interface TestResult {
  fullName: string;
  status: string;
  failureMessages?: string[] | null;
}
interface FileResult {
  name: string;
  status: string;
  message?: string;
  assertionResults?: TestResult[];
}
interface Report {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests?: number;
  testResults?: FileResult[];
}

const firstLines = (text: string, count: number) => text.split('\n').slice(0, count).join('\n    ');

const totals = { passed: 0, failed: 0, skipped: 0 };
let failedFiles = 0;
let unsteady = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  for (const suite of report.testResults ?? []) {
    const tests = suite.assertionResults ?? [];
    // A file can fail with no failed test: an error in its setup, or one thrown between tests.
    if (suite.status === 'failed' && !tests.some((test) => test.status === 'failed')) {
      failedFiles += 1;
      console.log(`FAILED ${suite.name}\n    ${firstLines(suite.message || '(no message)', 12)}`);
    }
    for (const test of tests) {
      const messages = (test.failureMessages ?? []).join('\n');
      if (test.status === 'failed') console.log(`FAILED ${suite.name} > ${test.fullName}\n    ${firstLines(messages || '(no message)', 12)}`);
      else if (test.status === 'passed' && messages) {
        unsteady += 1;
        console.log(`PASSED ON A SECOND RUN ${suite.name} > ${test.fullName}\n    ${firstLines(messages, 6)}`);
      }
    }
  }
}
console.log(`vitest: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
console.log(`${totals.failed + failedFiles} failed test(s) or file(s), ${unsteady} passed only on a second run.`);
if (totals.failed + failedFiles > 0 || totals.passed === 0) process.exit(1);
