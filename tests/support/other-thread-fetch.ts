/**
 * Sends HTTP requests all at once from another thread, as other devices would. The
 * embedded backend on PGlite runs each statement synchronously on the test's own thread,
 * so requests sent from that thread would leave only one at a time; from a worker they
 * arrive together, while the server is busy, as they do in a store.
 */
import { Worker } from 'node:worker_threads';

export type ParallelRequest = { name: string; url: string; headers?: Record<string, string> };
export type ParallelAnswer = { name: string; status: number; retryAfter: string | null; body: unknown };

const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
Promise.all(workerData.map(async (request) => {
  const response = await fetch(request.url, { headers: request.headers });
  const text = await response.text();
  let body = text;
  try { body = JSON.parse(text); } catch {}
  return { name: request.name, status: response.status, retryAfter: response.headers.get('retry-after'), body };
}).map((answer) => answer.then((a) => { parentPort.postMessage({ answer: a }); return a; })))
  .then(() => parentPort.postMessage({ done: true }), (error) => parentPort.postMessage({ error: String(error) }));
`;

/** The answers in the order they arrived; `onAnswer` hears each as it arrives. */
export function fetchInParallelFromAnotherThread(requests: ParallelRequest[], onAnswer?: (answer: ParallelAnswer) => void): Promise<ParallelAnswer[]> {
  return new Promise((resolve, reject) => {
    const answers: ParallelAnswer[] = [];
    const worker = new Worker(workerSource, { eval: true, workerData: requests });
    worker.on('message', (message: { answer?: ParallelAnswer; done?: boolean; error?: string }) => {
      if (message.answer) {
        answers.push(message.answer);
        onAnswer?.(message.answer);
      }
      if (message.error) reject(new Error(message.error));
      if (message.done) resolve(answers);
      if (message.done || message.error) void worker.terminate();
    });
    worker.on('error', reject);
  });
}
