import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppDatabase } from '../data/app-database.ts';
import { deviceDatabaseName } from '../data/device.ts';
import { requestPersistentStorage } from '../data/storage-health.ts';
import { createDeviceClient } from '../sync/device-client.ts';
import { startSyncRuntime } from '../sync/sync-runtime.ts';
import { App } from './App.tsx';
import { registerServiceWorker } from './pwa.ts';
import { loadRuntimeConfig } from './runtime-config.ts';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

void (async () => {
  const config = await loadRuntimeConfig();
  const db = new AppDatabase(deviceDatabaseName);
  const { client, sessions } = createDeviceClient(config, db);
  const sync = startSyncRuntime({ db, client, sessions });
  void requestPersistentStorage();
  let applyUpdate: (() => void) | null = null;
  const render = () =>
    createRoot(root).render(
      <StrictMode>
        <App config={config} sync={sync} updateReady={applyUpdate} />
      </StrictMode>,
    );
  registerServiceWorker((apply) => {
    applyUpdate = apply;
    render();
  });
  render();
})();
