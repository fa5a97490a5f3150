/**
 * Writes a brotli (.br) and a gzip (.gz) copy next to each text file of the build, once,
 * at build time, so the app server sends compressed files without compressing per
 * request (brotli at its best setting is too slow to do per request). A hosted static
 * host does the same from these files or on its own (README, "Deploying").
 *
 * Run after `vite build` (npm run build) and by npm start's build.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const compressible = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.webmanifest', '.txt']);
/** Smaller files gain nothing worth a second request header. */
const smallestWorthIt = 1024;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

async function filesIn(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesIn(full)));
    else if (compressible.has(path.extname(entry.name))) found.push(full);
  }
  return found;
}

/** Compresses every text file of `distDir`; returns how many files got compressed copies. */
export async function precompress(distDir: string): Promise<number> {
  let count = 0;
  for (const file of await filesIn(distDir)) {
    if ((await stat(file)).size < smallestWorthIt) continue;
    const content = await readFile(file);
    const [br, gz] = await Promise.all([
      brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
      gzipped(content, { level: 9 }),
    ]);
    await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    count += 1;
  }
  return count;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dist = path.resolve(process.argv[2] ?? 'dist');
  void precompress(dist).then((count) => process.stdout.write(`Compressed copies (.br, .gz) of ${count} files in ${dist}\n`));
}
