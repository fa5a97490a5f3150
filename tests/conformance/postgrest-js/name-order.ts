/**
 * The suite's files run one after the other in path order, as its Jest sequencer orders
 * them: some files change rows that later files read.
 */
import type { TestSpecification } from 'vitest/node';
import { BaseSequencer } from 'vitest/node';

export class NameOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }

  override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    return files;
  }
}
