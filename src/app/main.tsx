import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppDatabase } from '../data/app-database.ts';
import { monthRowsOf } from '../data/repositories/month-rows.ts';
import { deviceDatabaseName } from '../data/device.ts';
import { observeSyncCounts } from '../data/observe.ts';
import { requestPersistentStorage } from '../data/storage-health.ts';
import { createAccountService } from '../sync/account.ts';
import type { Connection } from './connect.ts';
import { deferredAdminApi, deferredServerReads, deferredSyncRuntime } from './deferred-services.ts';
import { createSyncStatusStore } from '../sync/status-store.ts';
import { App } from './App.tsx';
import { storedTheme } from './layout/use-theme.ts';
import { watchDatabaseBlocked } from './storage-trouble.ts';
import { registerServiceWorker } from './pwa.ts';
import { preloadScreenFor } from './routes.tsx';
import { loadRuntimeConfig } from './runtime-config.ts';
import { loadWithRetry } from '../ui/load-with-retry.ts';
import './styles/base.css';
import './styles/frame.css';
import './styles/entry.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
document.documentElement.dataset.theme = storedTheme();
preloadScreenFor(window.location.pathname);

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
const render = (updateReady: (() => void) | null) =>
  reactRoot.render(
    <StrictMode>
      <App db={db} account={account} sync={sync} reads={reads} admin={admin} updateReady={updateReady} />
    </StrictMode>,
  );
registerServiceWorker((apply) => render(apply));
render(null);
// supabase-js and the sync runtime load once the screen has drawn what it reads from the
// device (a month's rows), at the latest after a second (a screen without month rows, or
// a hidden tab, which paints no frames). Starting them is tens of milliseconds of main
// thread an offline start would otherwise spend before its grid. With nobody signed in
// they load when the person starts signing in (a touch, a key, a focus, or the form
// sent): a form takes longer to fill in than they take to arrive, and the login page
// loads no more than it shows. Until then the device database itself gives the login
// page its count of edits waiting on the device.
let loading = false;
const load = () => {
  if (loading) return;
  loading = true;
  stopWatching();
  void Promise.all([loadWithRetry(() => import('./connect.ts')), config]).then(([{ connect }, backend]) => connected(connect(backend, db, status)));
};
const afterPaint = () => requestAnimationFrame(() => setTimeout(load));
const intents = ['pointerdown', 'keydown', 'focusin', 'submit'] as const;
const onIntent = () => load();
let signedOutWatchers: Array<() => void> = [];
const watchers = [
  monthRowsOf(db).subscribe(afterPaint),
  account.state.subscribe((state) => {
    if (state.status !== 'signed-out' || signedOutWatchers.length > 0) return;
    for (const type of intents) document.addEventListener(type, onIntent, { capture: true, passive: true });
    signedOutWatchers = [
      () => intents.forEach((type) => document.removeEventListener(type, onIntent, { capture: true })),
      observeSyncCounts(db, (counts) => sync.status.setState({ ...counts, countsRead: true })),
    ];
  }),
  () => signedOutWatchers.forEach((stop) => stop()),
];
function stopWatching() {
  for (const stop of watchers.splice(0)) stop();
}
setTimeout(() => {
  if (account.state.getState().status !== 'signed-out') load();
}, 1_000);
