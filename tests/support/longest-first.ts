/**
 * Runs the longest test files first, so that with two test processes the last files to
 * start are short ones and neither process idles while the other finishes a long file.
 * Each file's seconds come from `tests/file-seconds.json`, written from a run's JSON
 * report by `npm run test:file-seconds -- REPORT...`; a file not listed yet (a new one)
 * runs first, since it may be long. A clean clone has no vitest cache, so the order
 * cannot come from the previous run as vitest's own sequencer would take it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TestSpecification } from 'vitest/node';
import { BaseSequencer } from 'vitest/node';

export const fileSecondsPath = path.resolve(import.meta.dirname, '../file-seconds.json');

function readSeconds(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(fileSecondsPath, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = readSeconds();
    const root = this.ctx.config.root;
    const weight = (spec: TestSpecification) => seconds[path.relative(root, spec.moduleId)] ?? Number.POSITIVE_INFINITY;
    return [...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      return weight(b) - weight(a) || a.moduleId.localeCompare(b.moduleId);
    });
  }
}
