/** Builds the app into dist/ (or APP_DIST_DIR) when it is missing or older than any of its sources. */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompress } from './precompress.ts';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where the build goes: dist/, or APP_DIST_DIR when two builds of one checkout must not share a folder. */
export const distDir = process.env.APP_DIST_DIR ? path.resolve(process.env.APP_DIST_DIR) : path.join(projectRoot, 'dist');

async function newestIn(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? await newestIn(full) : (await stat(full)).mtimeMs);
  }
  return newest;
}

/** Returns true when it built. */
export async function buildIfNeeded(onBuild: () => void = () => undefined): Promise<boolean> {
  const built = await stat(path.join(distDir, 'index.html')).then((s) => s.mtimeMs, () => 0);
  const sources = Math.max(
    ...(await Promise.all(['src', 'sw', 'public'].map((dir) => newestIn(path.join(projectRoot, dir))))),
    ...(await Promise.all(['index.html', 'vite.config.ts', 'package-lock.json'].map(async (f) => (await stat(path.join(projectRoot, f))).mtimeMs))),
  );
  if (built >= sources) return false;
  onBuild();
  const { build } = await import('vite');
  // Test runners set NODE_ENV=test, which Vite would carry into the bundle (React's
  // development build, import.meta.env.DEV true, no service worker).
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root: projectRoot, mode: 'production', logLevel: 'warn', build: { outDir: distDir, emptyOutDir: true } });
    await precompress(distDir);
  } finally {
    process.env.NODE_ENV = previous;
  }
  return true;
}
