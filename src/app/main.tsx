import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppDatabase } from '../data/app-database.ts';
import { deviceDatabaseName } from '../data/device.ts';
import { requestPersistentStorage } from '../data/storage-health.ts';
import { createAccountService } from '../sync/account.ts';
import { createAdminApi } from '../sync/admin-api.ts';
import { createDeviceClient } from '../sync/device-client.ts';
import { startSyncRuntime } from '../sync/sync-runtime.ts';
import { App } from './App.tsx';
import { storedTheme } from './layout/use-theme.ts';
import { watchDatabaseBlocked } from './storage-trouble.ts';
import { registerServiceWorker } from './pwa.ts';
import { loadRuntimeConfig } from './runtime-config.ts';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
document.documentElement.dataset.theme = storedTheme();

void (async () => {
  const config = await loadRuntimeConfig();
  const db = new AppDatabase(deviceDatabaseName);
  watchDatabaseBlocked(db);
  const { client, sessions } = createDeviceClient(config, db);
  const account = createAccountService(db, client);
  const sync = startSyncRuntime({ db, client, sessions });
  const admin = createAdminApi(client);
  // Asked at every start (the browser remembers a yes); the answer shows in the sync details.
  void requestPersistentStorage()
    .catch(() => false)
    .then((kept) => sync.status.setState({ storagePersisted: kept }));
  const reactRoot = createRoot(root);
  const render = (updateReady: (() => void) | null) =>
    reactRoot.render(
      <StrictMode>
        <App db={db} account={account} sync={sync} admin={admin} updateReady={updateReady} />
      </StrictMode>,
    );
  registerServiceWorker((apply) => render(apply));
  render(null);
})();
