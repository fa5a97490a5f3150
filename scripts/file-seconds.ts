/**
 * Writes tests/file-seconds.json, the seconds each test file took, from vitest JSON
 * reports (`--reporter=json --outputFile.json=...`; `.ci/run` leaves them in
 * test-results/). The test runs read it to start the longest files first
 * (tests/support/longest-first.ts). Files a report does not name keep their seconds.
 *
 *   npm run test:file-seconds -- test-results/tests.json test-results/e2e.json
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileSecondsPath } from '../tests/support/longest-first.ts';

type Report = { testResults: Array<{ name: string; startTime: number; endTime: number }> };

const root = path.resolve(import.meta.dirname, '..');
const reports = process.argv.slice(2);
if (reports.length === 0) {
  console.error('Usage: npm run test:file-seconds -- REPORT.json [REPORT.json ...]');
  process.exit(2);
}
let seconds: Record<string, number> = {};
try {
  seconds = JSON.parse(readFileSync(fileSecondsPath, 'utf8')) as Record<string, number>;
} catch {
  // first run: nothing kept yet
}
// A report from another clone (a CI run's) names its files under that clone's folder.
const inProject = (file: string) => {
  const relative = path.relative(root, file);
  return relative.startsWith('..') ? relative.slice(relative.indexOf('tests/')) : relative;
};
for (const report of reports) {
  const { testResults } = JSON.parse(readFileSync(report, 'utf8')) as Report;
  for (const file of testResults) {
    seconds[inProject(file.name)] = Math.round((file.endTime - file.startTime) / 100) / 10;
  }
}
// Files since removed or renamed go.
for (const file of Object.keys(seconds)) if (!existsSync(path.join(root, file))) delete seconds[file];
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(fileSecondsPath, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${Object.keys(sorted).length} files in ${path.relative(root, fileSecondsPath)}`);
