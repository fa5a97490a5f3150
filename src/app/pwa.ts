/**
 * Registers the service worker and offers updates: when a new version is waiting, the
 * app shows "New version available — Reload"; the reload happens only when the person
 * asks, and never while a field is being edited (its value not yet saved).
 */
import type { Workbox } from 'workbox-window';
import { loadWithRetry } from '../ui/load-with-retry.ts';

/** True while the focused input holds a value it has not saved (committed on blur). */
export function hasUnsavedInput(): boolean {
  const active = document.activeElement;
  return (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement) && active.value !== active.defaultValue;
}

/**
 * workbox-window is fetched here rather than with the app: registering waits for the
 * page's load event anyway, and the first paint does not need it.
 */
export function registerServiceWorker(onUpdateReady: (apply: () => void) => void): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  void loadWithRetry(() => import('workbox-window')).then(({ Workbox }) => registerWith(new Workbox('/sw.js'), onUpdateReady));
}

function registerWith(workbox: Workbox, onUpdateReady: (apply: () => void) => void): void {
  workbox.addEventListener('waiting', () => {
    onUpdateReady(() => {
      const reload = () => {
        workbox.addEventListener('controlling', () => window.location.reload());
        workbox.messageSkipWaiting();
      };
      if (!hasUnsavedInput()) return reload();
      // Let the field commit its value first; it saves on blur.
      document.activeElement?.addEventListener('blur', () => setTimeout(reload, 0), { once: true });
    });
  });
  const register = (): void => {
    // Offline when the page finished loading, the worker's script cannot be fetched and
    // registering fails; try again when the network is back, or the app would never work
    // offline on this device until someone reloads it online.
    workbox.register().catch(() => window.addEventListener('online', register, { once: true }));
  };
  register();
}
