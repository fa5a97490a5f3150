/**
 * Copies the domain rules the edge functions share with the app (the e-mail and password
 * rule, and the limits it reads) into supabase/functions/_shared/. Supabase deploys a
 * function from supabase/functions alone, and its bundler fails on imports that reach
 * outside that folder, so the function cannot import src/ itself. Each copy is the source
 * with a header naming it; a unit test (tests/unit/admin-api/shared-copies.test.ts) fails
 * when a copy differs from what this script writes.
 *
 * Run after changing a source: `npm run functions:shared`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Source and copy, relative to the repository; the copies import each other as the sources do. */
export const sharedCopies = [
  { source: 'src/domain/credentials.ts', copy: 'supabase/functions/_shared/domain/credentials.ts' },
  { source: 'src/domain/limits.ts', copy: 'supabase/functions/_shared/domain/limits.ts' },
] as const;

export function copyText(source: string, sourceText: string): string {
  return `// Copy of ${source}, written by \`npm run functions:shared\`: edit the source, then run it.\n${sourceText}`;
}

/** What each copy must hold, read from its source. */
export async function expectedCopies(): Promise<Array<{ copy: string; text: string }>> {
  return Promise.all(
    sharedCopies.map(async ({ source, copy }) => ({
      copy,
      text: copyText(source, await readFile(path.join(root, source), 'utf8')),
    })),
  );
}

export const repositoryRoot = root;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const { copy, text } of await expectedCopies()) {
    await writeFile(path.join(root, copy), text);
    console.log(`wrote ${copy}`);
  }
}
