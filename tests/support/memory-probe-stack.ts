/**
 * The local stack in a process of its own, for measuring what the backend holds: started
 * with `node --expose-gc --import tsx`, it sends { url, anonKey } once listening and
 * answers each 'heap' message with its memory after a full garbage collection. The
 * measuring test's own sockets and frames stay out of the figures.
 */
import { startTestStack } from './local-stack.ts';

const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('start with --expose-gc');

const stack = await startTestStack();
process.on('message', (message) => {
  if (message === 'heap') {
    collect();
    collect();
    const { heapUsed, external, arrayBuffers, rss } = process.memoryUsage();
    process.send?.({ heapUsed, external, arrayBuffers, rss, stats: stack.realtimeStats() });
  }
  if (message === 'stop') void stack.stop().then(() => process.exit(0));
});
process.on('disconnect', () => void stack.stop().then(() => process.exit(0)));
process.send?.({ url: stack.url, anonKey: stack.keys.anonKey });
