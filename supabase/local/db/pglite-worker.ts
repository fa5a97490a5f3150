/**
 * The worker thread that owns PGlite for the backend (worker-database.ts is its only
 * caller). It runs each request as it comes; the event loop side sends one statement at
 * a time and keeps transactions whole, so this side holds no state but the listeners.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import type { WorkerReply, WorkerRequest, WorkerSetup } from './pglite-protocol.ts';
import { errorFields } from './pglite-protocol.ts';

if (!parentPort) throw new Error('pglite-worker.ts runs only as a worker thread');
const port = parentPort;
const setup = workerData as WorkerSetup;
const reply = (message: WorkerReply) => port.postMessage(message);

async function serve(pglite: PGlite): Promise<void> {
  const stops = new Map<string, () => Promise<void>>();
  const answer = async (request: WorkerRequest): Promise<WorkerReply> => {
    switch (request.kind) {
      case 'query': {
        const result = await pglite.query<Record<string, unknown>>(request.sql, request.params);
        return { kind: 'result', id: request.id, rows: result.rows, affectedRows: result.affectedRows ?? 0 };
      }
      case 'exec':
        await pglite.exec(request.sql);
        break;
      case 'listen':
        if (!stops.has(request.channel)) {
          const channel = request.channel;
          stops.set(channel, await pglite.listen(channel, (payload) => reply({ kind: 'notify', channel, payload })));
        }
        break;
      case 'unlisten':
        await stops.get(request.channel)?.();
        stops.delete(request.channel);
        break;
      case 'close':
        await pglite.close();
        break;
    }
    return { kind: 'result', id: request.id, rows: [], affectedRows: 0 };
  };
  port.on('message', (request: WorkerRequest) => {
    answer(request).then(reply, (error: unknown) => reply({ kind: 'error', id: request.id, error: errorFields(error) }));
  });
}

PGlite.create(setup.dataDir, { extensions: { pgcrypto } }).then(
  async (pglite) => {
    await serve(pglite);
    reply({ kind: 'ready' });
  },
  (error: unknown) => reply({ kind: 'open-failed', error: errorFields(error) }),
);
