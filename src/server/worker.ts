// One worker thread of `npm run serve`: the server over the state the main thread shares.
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { readConfig } from './config.ts';
import { serve } from './serve.ts';
import { sharedRateLimiter } from '../state/rate-limit-table.ts';
import { sharedStreamCounter } from '../state/stream-counter.ts';
import { threadSessionBus } from '../state/session-bus.ts';
import { holdContact, relayedContact } from '../state/contact-relay.ts';
import { REDIS_WAIT_MS, redisState } from '../state/redis.ts';
import type { SharedMemory } from '../state/shared-memory.ts';
import type { ContactService } from '../contact/service.ts';

export interface WorkerData {
  memory: SharedMemory;
  /** 1-based. */
  index: number;
  workers: number;
  /** The first worker holds paid contact; the others relay to it. */
  holdsContact: boolean;
  signingSecret: string | undefined;
  port: number;
}

const data = workerData as WorkerData;
const config = readConfig();
// With REDIS_URL the state is shared with other processes too; else between these threads.
const redis = config.redisUrl ? redisState(config.redisUrl, (m) => console.error(m), { workers: data.workers }) : undefined;
if (redis && !(await redis.ready(REDIS_WAIT_MS))) console.error(`redis: not reachable within ${REDIS_WAIT_MS / 1000} s; serving, requests are counted once it is`);
const threads = redis ? undefined : threadSessionBus('folio-mcp-sessions', data.workers);
const sessions = redis?.sessions ?? threads!;
const relays = new Map<string, ContactService | undefined>();
const serving = await serve(
  config,
  {
    limiter: config.rateLimit > 0 ? (redis?.limiter(config.rateLimit, config.rateWindowSeconds) ?? sharedRateLimiter(data.memory.rateTable, config.rateLimit, config.rateWindowSeconds)) : undefined,
    streams: redis?.streams ?? sharedStreamCounter(data.memory.counters),
    sessions,
    signingSecret: data.signingSecret,
    worker: { index: data.index, count: data.workers },
    lock: redis?.lock,
    store: redis?.health,
    crash: () => {
      // The whole process goes, as in a real crash: the main thread exits; this thread does nothing more.
      parentPort!.postMessage({ kind: 'crash' });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    },
    contactHolder: data.holdsContact
      ? undefined
      : (root) => {
          if (!relays.has(root)) relays.set(root, config.contact[root] ? relayedContact(root) : undefined);
          return relays.get(root);
        },
  },
  { port: data.port, reusePort: data.workers > 1 },
);
const held = data.holdsContact ? holdContact((root) => serving.contact(root)) : undefined;
parentPort!.postMessage({ kind: 'listening', port: serving.port, buildId: serving.buildId, siteUrl: serving.siteUrl, threadId });
parentPort!.on('message', async (m: { kind: string }) => {
  if (m.kind !== 'stop') return;
  held?.stop();
  threads?.stop();
  await serving.close();
  await redis?.close();
  process.exit(0);
});
