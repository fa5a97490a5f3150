/**
 * The edge functions' copies of the domain rules (supabase/functions/_shared/domain) hold
 * exactly their sources: the admin function refuses the same e-mail addresses and
 * passwords as Auth and the admin screen, with the same limits.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedCopies, repositoryRoot, sharedCopies } from '../../../scripts/function-shared-copies.ts';

describe("the edge functions' copies of the domain rules", () => {
  it('cover every module of src/ the copies import', async () => {
    for (const { copy } of sharedCopies) {
      const text = await readFile(path.join(repositoryRoot, copy), 'utf8');
      for (const [, imported] of text.matchAll(/from '(\.[^']+)'/g)) {
        const target = path.join(path.dirname(copy), imported ?? '');
        expect(sharedCopies.map((c) => c.copy), `${copy} imports ${imported}`).toContain(target);
      }
    }
  });

  it.each(sharedCopies.map((c) => c.copy))('%s equals its source (run `npm run functions:shared` after changing the source)', async (copy) => {
    const expected = (await expectedCopies()).find((c) => c.copy === copy)?.text;
    expect(await readFile(path.join(repositoryRoot, copy), 'utf8')).toBe(expected);
  });
});
