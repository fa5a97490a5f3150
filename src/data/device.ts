/** Names shared by the app and its service worker for what the device keeps. */
export const deviceDatabaseName = 'service-dashboard';
export const authStorageKey = 'service-dashboard-auth';
export const backgroundSyncTag = 'outbox-push';
export const syncLeaderLock = 'sync-leader';
