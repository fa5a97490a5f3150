/// <reference lib="webworker" />
/**
 * The service worker: precaches the app shell built by Vite so the app loads with no
 * network, answers every navigation with the shell so deep links work offline, keeps
 * the last /app-config.json (which backend to use) for offline starts, takes control of
 * open pages on its first install, and pushes queued edits on the browser's Background
 * Sync event, even with every tab closed.
 */
import { resolveRuntimeConfig } from '../src/app/runtime-config.ts';
import { backgroundSyncTag } from '../src/data/device.ts';
import { backgroundPush } from '../src/sync/background-push.ts';
import type { PrecacheEntry } from './precache.ts';
import { precacheAppShell } from './precache.ts';

// The build's file list, written in by the build (vite-plugin-pwa's injectManifest).
declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: PrecacheEntry[] };
type SyncEvent = ExtendableEvent & { tag: string };

const configUrl = '/app-config.json';
const configCache = 'app-config';
const configNetworkTimeoutMs = 3_000;

precacheAppShell(self, self.__WB_MANIFEST, '/index.html');

/**
 * The configuration from the network when it answers within 3 seconds (and kept for
 * offline starts), else the kept copy, else whatever the network answers in the end.
 */
async function configNetworkFirst(network: Promise<Response>): Promise<Response> {
  const answered = await Promise.race([network.catch(() => null), new Promise<null>((resolve) => setTimeout(() => resolve(null), configNetworkTimeoutMs))]);
  return answered ?? (await caches.match(configUrl, { cacheName: configCache })) ?? network;
}

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin || url.pathname !== configUrl) return;
  const network = fetch(event.request).then(async (response) => {
    if (response.ok) await (await caches.open(configCache)).put(configUrl, response.clone());
    return response;
  });
  // The copy is kept even when the kept one answered first.
  event.waitUntil(network.catch(() => undefined));
  event.respondWith(configNetworkFirst(network));
});

// A device may go offline right after installing, before any page asked for the config
// through this worker: keep it from the start, or an offline start would not know its
// backend (and fall back to the built-in one, which the app's CSP rightly blocks).
self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const response = await fetch(configUrl, { cache: 'no-cache' }).catch(() => undefined);
      if (response?.ok) await (await caches.open(configCache)).put(configUrl, response);
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
