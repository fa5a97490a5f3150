/**
 * The embedded backend's data folder (PGlite's files, the generated JWT secret, the lock)
 * belongs to the account that runs the backend and to nobody else on the machine: the
 * folder is 0700 and everything in it 0600 (folders 0700). PGlite sets some modes itself
 * (its initial files are 0666, a few it rewrites at start are 0644), so the modes are
 * fixed again after the database opened; the folder's own 0700 is what keeps other users
 * out in between.
 *
 * The lock file keeps a second process (a second `npm start`, a backup or a restore) from
 * opening the same PGlite files while a backend has them open, which would corrupt them.
 */
import { chmod, mkdir, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';

export const privateFolderMode = 0o700;
export const privateFileMode = 0o600;
const lockFileName = 'backend.lock';

/** From now on this process creates files only its own account can read. */
export function restrictNewFiles(): void {
  process.umask(0o077);
}

/** Creates the folder (0700) if missing and makes it and everything in it private. */
export async function secureDataFolder(dir: string): Promise<void> {
  restrictNewFiles();
  await mkdir(dir, { recursive: true, mode: privateFolderMode });
  await makePrivate(dir);
}

async function makePrivate(dir: string): Promise<void> {
  await chmod(dir, privateFolderMode);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await makePrivate(full);
    // Files may come and go while PGlite runs (temporary files renamed into place).
    else if (entry.isFile()) await chmod(full, privateFileMode).catch(ignoreMissing);
  }
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}

/** True when a folder is missing or holds nothing at all. */
export async function isEmptyFolder(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

export class DataFolderInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The data folder ${dir} is in use by another backend process (pid ${pid}). ` +
        'Stop it first (Ctrl-C where `npm start` runs); two processes must never open the same PGlite files.',
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid holding the folder's lock, when that process still runs. */
export async function lockHolder(dir: string): Promise<number | null> {
  const text = await readFile(path.join(dir, lockFileName), 'utf8').catch(() => '');
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : null;
}

/**
 * Takes the folder's lock for this process, replacing a lock left by a process that no
 * longer runs (a backend killed hard). Resolves to a function that releases it.
 */
export async function lockDataFolder(dir: string): Promise<() => Promise<void>> {
  const file = path.join(dir, lockFileName);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(file, 'wx', privateFileMode);
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return async () => {
        const holder = await readFile(file, 'utf8').catch(() => '');
        if (Number.parseInt(holder, 10) === process.pid) await rm(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = await lockHolder(dir);
      if (holder !== null) throw new DataFolderInUseError(dir, holder);
      await rm(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock of ${dir}.`);
}

/** The mode bits (like 0o600) of a file or folder. */
export async function modeOf(file: string): Promise<number> {
  return (await stat(file)).mode & 0o777;
}
