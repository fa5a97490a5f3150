/**
 * Registers the service worker and offers updates: when a new version is waiting, the
 * app shows "New version available — Reload"; the reload happens only when the person
 * asks, and never while a field is being edited (its value not yet saved).
 */
import { Workbox } from 'workbox-window';

/** True while the focused input holds a value it has not saved (committed on blur). */
export function hasUnsavedInput(): boolean {
  const active = document.activeElement;
  return (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement) && active.value !== active.defaultValue;
}

export function registerServiceWorker(onUpdateReady: (apply: () => void) => void): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const workbox = new Workbox('/sw.js');
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
