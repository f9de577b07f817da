// `npm run serve`: the live build (dist/current), its API and functions on PORT (default 4321), in
// WORKERS threads (default: one per core) that share one port and their state; a newly published
// build is picked up between requests, without a restart.
import { randomBytes } from 'node:crypto';
import { createServer as createNetServer } from 'node:net';
import { Worker } from 'node:worker_threads';
import { readConfig } from './config.ts';
import { serve } from './serve.ts';
import { localSessionBus } from '../state/session-bus.ts';
import { sharedMemory } from '../state/shared-memory.ts';
import { sharedRateLimiter } from '../state/rate-limit-table.ts';
import { sharedStreamCounter } from '../state/stream-counter.ts';
import { REDIS_WAIT_MS, redisState } from '../state/redis.ts';
import type { WorkerData } from './worker.ts';
import { resolve } from 'node:path';
import { PUBLISH } from '../artefact/roots.ts';
import { scheduleBuilds } from './schedule.ts';
import { recordServer } from '../pipeline/live/running-servers.ts';
import { UNSIGNED_STREAMS_LOG } from '../../functions/sse.ts';

const config = readConfig();
process.env.FOLIO_DIST_ROOT = config.distRoot;
// Separate processes (REDIS_URL) cannot share a key made at start: each would sign with its own,
// so they sign nothing; everything else is served.
if (config.redisUrl && !config.signingSecret) console.error(UNSIGNED_STREAMS_LOG);
else if (!config.signingSecret) console.warn('EVENT_SIGNING_SECRET is not set: stream events are signed with a random key that changes at every start.');
// Made once here, so every worker signs with the same key.
const signingSecret = config.signingSecret ?? (config.redisUrl ? undefined : randomBytes(32).toString('base64url'));
for (const note of config.contact.notes) console.warn(note);
// A busy port is one line with the fix, before any worker starts (not a stack per thread).
if (config.port !== 0) {
  const busy = await new Promise<boolean>((resolve) => {
    const probe = createNetServer()
      .once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'EADDRINUSE'))
      .listen({ port: config.port, host: config.host ?? '::', exclusive: true }, () => probe.close(() => resolve(false)));
  });
  if (busy) {
    console.error(`Port ${config.port} is already in use (another Folio, or another program): stop it, or serve on another port, e.g. PORT=${config.port + 1} npm start`);
    process.exit(1);
  }
}
const memory = sharedMemory();
// A build that would re-point this server's absolute URLs (another PORT or SITE_URL) finds it by its
// record, written before the line that says the server is up.
const announce = async (port: number, siteUrl: string, buildId: string) => {
  await recordServer(resolve(config.distRoot, PUBLISH.out), `http://localhost:${port}`).catch((e: Error) => console.error(`could not record this server for the builds (${e.message}); serving`));
  console.log(`Folio listening on http://localhost:${port} (site ${siteUrl}, build ${buildId}, ${config.workers} worker${config.workers > 1 ? 's' : ''})`);
};

if (config.workers === 1) {
  const redis = config.redisUrl ? redisState(config.redisUrl, (m) => console.error(m)) : undefined;
  if (redis && !(await redis.ready(REDIS_WAIT_MS))) console.error(`redis: not reachable within ${REDIS_WAIT_MS / 1000} s; serving, requests are counted once it is`);
  const serving = await serve(
    config,
    {
      limiter: config.rateLimit > 0 ? (redis?.limiter(config.rateLimit, config.rateWindowSeconds) ?? sharedRateLimiter(memory.rateTable, config.rateLimit, config.rateWindowSeconds)) : undefined,
      streams: redis?.streams ?? sharedStreamCounter(memory.counters),
      sessions: redis?.sessions ?? localSessionBus(),
      signingSecret,
      worker: { index: 1, count: 1 },
      crash: () => process.exit(70),
      lock: redis?.lock,
      store: redis?.health,
    },
    { port: config.port, reusePort: false },
  );
  await announce(serving.port, serving.siteUrl, serving.buildId);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void serving.close().then(() => redis?.close()).then(() => process.exit(0)));
} else {
  const workers = new Set<Worker>();
  let stopping = false;
  /** Starts a worker and resolves when it listens; a worker that dies is replaced. */
  const start = (index: number, port: number) =>
    new Promise<{ port: number; siteUrl: string; buildId: string }>((resolve, reject) => {
      const data: WorkerData = { memory, index: index + 1, workers: config.workers, holdsContact: index === 0, signingSecret, port };
      const worker = new Worker(new URL('./worker.ts', import.meta.url), { workerData: data });
      workers.add(worker);
      worker.on('message', (m: { kind: string; port: number; siteUrl: string; buildId: string }) => {
        if (m.kind === 'listening') resolve(m);
        if (m.kind === 'crash') process.exit(70);
      });
      worker.once('error', (e) => {
        console.error(`worker ${index} failed: ${e.stack ?? e.message}`);
        reject(e);
      });
      worker.once('exit', (code) => {
        workers.delete(worker);
        if (stopping) return;
        console.error(`worker ${index} exited (${code}); starting another`);
        void start(index, port).catch(() => process.exit(1));
      });
    });
  // The first picks the port (PORT=0 means any free one); the others join it with SO_REUSEPORT.
  const first = await start(0, config.port);
  await Promise.all(Array.from({ length: config.workers - 1 }, (_, i) => start(i + 1, first.port)));
  await announce(first.port, first.siteUrl, first.buildId);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, async () => {
      stopping = true;
      await Promise.all([...workers].map((w) => new Promise((done) => (w.once('exit', done), w.postMessage({ kind: 'stop' })))));
      process.exit(0);
    });
  }
}
// Scheduled posts go out at their time: this process builds again then (schedule.ts).
scheduleBuilds(resolve(config.distRoot, PUBLISH.out), { log: (m) => console.log(m), error: (m) => console.error(m) });
