/// <reference lib="webworker" />
/**
 * The service worker: precaches the app shell built by Vite so the app loads with no
 * network, answers every navigation with the shell so deep links work offline, and keeps
 * the last /app-config.json (which backend to use) for offline starts.
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html')));
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === '/app-config.json',
  new NetworkFirst({ cacheName: 'app-config', networkTimeoutSeconds: 3 }),
);

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
