/// <reference lib="webworker" />
/**
 * The service worker: precaches the app shell built by Vite so the app loads with no
 * network, answers every navigation with the shell so deep links work offline, keeps
 * the last /app-config.json (which backend to use) for offline starts, takes control of
 * open pages on its first install, and pushes queued edits on the browser's Background
 * Sync event, even with every tab closed.
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import { resolveRuntimeConfig } from '../src/app/runtime-config.ts';
import { backgroundSyncTag } from '../src/data/device.ts';
import { backgroundPush } from '../src/sync/background-push.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };
type SyncEvent = ExtendableEvent & { tag: string };

const configUrl = '/app-config.json';

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html')));
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === configUrl,
  new NetworkFirst({ cacheName: 'app-config', networkTimeoutSeconds: 3 }),
);

// A device may go offline right after installing, before any page asked for the config
// through this worker: keep it from the start, or an offline start would not know its
// backend (and fall back to the built-in one, which the app's CSP rightly blocks).
self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const response = await fetch(configUrl, { cache: 'no-cache' }).catch(() => undefined);
      if (response?.ok) await (await caches.open('app-config')).put(configUrl, response);
    })(),
  );
});

// The first install takes control of the pages already open, so a person who signs in on
// a new tablet and loses the network in the same visit can still reload. An update never
// does: it waits, and the page offers "Reload" (src/app/pwa.ts), so no open screen changes
// version under a person's hands or with edits still being typed.
let firstInstall = false;
self.addEventListener('install', () => {
  firstInstall = !self.registration.active;
});
self.addEventListener('activate', (event) => {
  if (firstInstall) event.waitUntil(self.clients.claim());
});

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

function workerConfig() {
  return resolveRuntimeConfig({
    fetchConfig: async () => {
      const response = await fetch(configUrl).catch(() => caches.match(configUrl));
      if (!response?.ok) throw new Error('no backend configuration');
      return response.json() as Promise<unknown>;
    },
    buildTime: {
      url: import.meta.env.VITE_SUPABASE_URL as string | undefined,
      anonKey: import.meta.env.VITE_SUPABASE_ANON_KEY as string | undefined,
    },
  });
}

self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  if (sync.tag !== backgroundSyncTag) return;
  sync.waitUntil(
    (async () => {
      await backgroundPush(await workerConfig(), self.navigator.locks, () => self.clients.matchAll({ type: 'window' }));
    })(),
  );
});
