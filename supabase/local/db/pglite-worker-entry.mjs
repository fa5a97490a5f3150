// Starts pglite-worker.ts in a worker thread. Worker threads do not inherit the
// TypeScript loader the backend runs under (tsx), so the worker registers it first.
import { register } from 'tsx/esm/api';

register();
await import('./pglite-worker.ts');
