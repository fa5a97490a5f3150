import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { codeAfterFirstPaint } from './scripts/code-after-first-paint.ts';

export default defineConfig({
  plugins: [
    react(),
    // The first paint needs only the page and its stylesheet: the code comes at low priority.
    { name: 'code-after-first-paint', transformIndexHtml: { order: 'post', handler: codeAfterFirstPaint } },
    VitePWA({
      // Our own worker (sw/sw.ts): precache plus background sync of the outbox.
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        name: 'Service Department Dashboard',
        short_name: 'Service Dash',
        description: 'Daily, weekly, monthly and yearly hours, sales and KPI targets for service departments.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#0f172a',
        theme_color: '#0f172a',
        // The installed app's long-press menu: an advisor goes straight to today's entry.
        shortcuts: [
          { name: 'Today', short_name: 'Today', description: "Enter today's hours and sales", url: '/today', icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }] },
          { name: 'Daily', short_name: 'Daily', description: "The month's daily grid", url: '/daily' },
        ],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,json}'],
      },
      devOptions: { enabled: false },
    }),
  ],
  // Dexie's default import wraps its ES5 build; its modern ES module is a third smaller,
  // which the service worker (mostly Dexie) and the first load feel. One copy for the
  // app and dexie-react-hooks alike, so there is no second instance.
  resolve: { alias: [{ find: /^dexie$/, replacement: 'dexie/dist/modern/dexie.mjs' }] },
  // Source maps show the app's source to anyone who asks; they are built only on request.
  build: { target: 'es2022', sourcemap: process.env.SOURCE_MAPS === 'true' },
});
