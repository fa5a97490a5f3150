import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppDatabase } from '../data/app-database.ts';
import { deviceDatabaseName } from '../data/device.ts';
import { observeSyncCounts } from '../data/observe.ts';
import { requestPersistentStorage } from '../data/storage-health.ts';
import { createAccountService } from '../sync/account.ts';
import type { Connection } from './connect.ts';
import { connectWhen } from './connect-when.ts';
import { deferredAdminApi, deferredServerReads, deferredSyncRuntime } from './deferred-services.ts';
import { createSyncStatusStore } from '../sync/status-store.ts';
import { App } from './App.tsx';
import { storedTheme } from './layout/use-theme.ts';
import { watchDatabaseBlocked } from './storage-trouble.ts';
import { registerServiceWorker } from './pwa.ts';
import { preloadScreenFor } from './routes.tsx';
import { loadRuntimeConfig } from './runtime-config.ts';
import { loadWithRetry } from '../ui/load-with-retry.ts';
import { onScreenDrawn } from '../ui/screen-drawn.ts';
import './styles/base.css';
import './styles/frame.css';
import './styles/entry.css';

/** The longest the first render waits for the code of the screen it opens on. */
const openingScreenWaitMs = 3_000;

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
document.documentElement.dataset.theme = storedTheme();
const openingScreen = preloadScreenFor(window.location.pathname);

// Which backend to use is needed only once the backend's client loads: the screens read
// the device database, so they do not wait for /app-config.json.
const config = loadRuntimeConfig();
const db = new AppDatabase(deviceDatabaseName);
watchDatabaseBlocked(db);
// The backend's client and the sync runtime load after the first screen is painted:
// the screens read the device database, and the download and start-up of supabase-js
// should not delay them.
const status = createSyncStatusStore(navigator.onLine);
let connected: (connection: Connection) => void = () => undefined;
const connection = new Promise<Connection>((resolve) => {
  connected = resolve;
});
const account = createAccountService(db, connection.then(({ client }) => client));
const sync = deferredSyncRuntime(status, connection.then(({ sync: runtime }) => runtime));
const reads = deferredServerReads(connection.then(({ reads: server }) => server));
const admin = deferredAdminApi(connection.then(({ admin: api }) => api));
// Asked at every start (the browser remembers a yes); the answer shows in the sync details.
void requestPersistentStorage()
  .catch(() => false)
  .then((kept) => sync.status.setState({ storagePersisted: kept }));
const reactRoot = createRoot(root);
// A new version's "apply" once its worker waits (null until then); the app draws it as a banner.
let updateReady: (() => void) | null = null;
let started = false;
const render = () =>
  reactRoot.render(
    <StrictMode>
      <App db={db} account={account} sync={sync} reads={reads} admin={admin} updateReady={updateReady} />
    </StrictMode>,
  );
registerServiceWorker((apply) => {
  updateReady = apply;
  if (started) render();
});
// The first render waits for the opening screen's code (the page shows the product's name
// meanwhile), at most `openingScreenWaitMs`, or until a first try to fetch it failed:
// drawn before it, the frame would show "Loading..." in its place, and React holds back
// the screen that replaces it for up to 300 ms more. See docs/performance.md, "A slow
// tablet and Lighthouse".
void Promise.race([openingScreen, new Promise((resolve) => setTimeout(resolve, openingScreenWaitMs))]).then(() => {
  started = true;
  render();
});
// supabase-js and the sync runtime load when they are first wanted (connect-when.ts).
connectWhen({
  load: () =>
    void Promise.all([loadWithRetry(() => import('./connect.ts')), config]).then(([{ connect }, backend]) => connected(connect(backend, db, status))),
  account: account.state,
  onScreenDrawn,
  target: document,
  // The login page's count of edits waiting on the device, from the device database itself.
  whileSignedOut: () => observeSyncCounts(db, (counts) => sync.status.setState({ ...counts, countsRead: true })),
  afterPaint: (work) => requestAnimationFrame(() => setTimeout(work)),
  latestMs: 1_000,
});
