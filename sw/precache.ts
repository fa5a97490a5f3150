/// <reference lib="webworker" />
/**
 * The app shell kept on the device: every file of the build, so the app starts with no
 * network. Each version of the app keeps its files in a cache of its own, named after
 * its file list, so an update waiting to be applied never changes the files the open
 * pages run on; the new version takes over its predecessor's copies of unchanged files
 * instead of downloading them again, and deletes the old cache once it is active.
 *
 * A few dozen lines of our own rather than a precaching library: the worker is
 * downloaded on every update check, and the device database's library is most of it.
 */

/** A file of the build; `revision` is null when the file's name carries its content hash. */
export type PrecacheEntry = { url: string; revision: string | null };

const cachePrefix = 'app-shell-';
/** Caches of the precaching library earlier versions of the app used. */
const retiredCacheMarker = 'workbox-precache';

/** The key a file is kept under: its address, with its revision when its name has none. */
export function precacheKey(entry: PrecacheEntry, origin: string): string {
  const url = new URL(entry.url, origin);
  if (entry.revision) url.searchParams.set('__revision', entry.revision);
  return url.href;
}

/** The version's cache: named after its files and revisions (FNV-1a), so each build has its own. */
export function precacheName(entries: readonly PrecacheEntry[], origin: string): string {
  let hash = 0x811c9dc5;
  for (const key of entries.map((entry) => precacheKey(entry, origin)).sort()) {
    for (let index = 0; index < key.length; index += 1) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193) >>> 0;
    hash = Math.imul(hash ^ 10, 0x01000193) >>> 0;
  }
  return `${cachePrefix}${hash.toString(16).padStart(8, '0')}`;
}

/** A redirected response cannot answer a navigation; keep the content without the redirect. */
async function storable(response: Response): Promise<Response> {
  if (!response.redirected) return response;
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers: response.headers });
}

async function fill(name: string, entries: readonly PrecacheEntry[], origin: string): Promise<void> {
  const cache = await caches.open(name);
  await Promise.all(
    entries.map(async (entry) => {
      const key = precacheKey(entry, origin);
      if (await cache.match(key)) return;
      // The same file and revision kept by the version before this one.
      const kept = await caches.match(key);
      const response = kept ?? (await fetch(new URL(entry.url, origin), { cache: 'reload' }));
      if (!response.ok) throw new Error(`${entry.url} answered ${response.status}; the new version waits for the next try`);
      await cache.put(key, await storable(response));
    }),
  );
}

async function dropOtherVersions(name: string): Promise<void> {
  const names = await caches.keys();
  await Promise.all(names.filter((other) => other !== name && (other.startsWith(cachePrefix) || other.includes(retiredCacheMarker))).map((other) => caches.delete(other)));
}

/**
 * Keeps the build's files at install, drops other versions' at activation, and answers
 * requests for them from the device, every navigation with `navigationFallback` (the
 * app's index.html: the routes are the app's, not the server's).
 */
export function precacheAppShell(scope: ServiceWorkerGlobalScope, entries: readonly PrecacheEntry[], navigationFallback: string): void {
  const origin = scope.location.origin;
  const name = precacheName(entries, origin);
  const keys = new Map(entries.map((entry) => [new URL(entry.url, origin).href, precacheKey(entry, origin)]));
  const fallbackKey = keys.get(new URL(navigationFallback, origin).href);

  scope.addEventListener('install', (event) => event.waitUntil(fill(name, entries, origin)));
  scope.addEventListener('activate', (event) => event.waitUntil(dropOtherVersions(name)));
  scope.addEventListener('fetch', (event) => {
    const { request } = event;
    if (request.method !== 'GET') return;
    const url = new URL(request.url);
    if (url.origin !== origin) return;
    const key = request.mode === 'navigate' ? fallbackKey : keys.get(`${url.origin}${url.pathname}`);
    if (!key) return;
    event.respondWith(
      (async () => {
        const kept = await (await caches.open(name)).match(key);
        return kept ?? fetch(request);
      })(),
    );
  });
}
