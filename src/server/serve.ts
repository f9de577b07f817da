import { createServer, type Server } from 'node:http';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { PUBLISH, ROOTS } from '../artefact/roots.ts';
import type { Root } from '../../functions/context.ts';
import type { StreamCounter } from '../../functions/sse.ts';
import type { ContactService } from '../contact/service.ts';
import { openContact } from '../contact/setup.ts';
import type { KeyedQueue } from '../contact/keyed-queue.ts';
import type { SessionBus } from '../state/session-bus.ts';
import type { ServerConfig } from './config.ts';
import { createFrontServer } from './front-server.ts';
import { HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, socketAnswers } from './socket-answer.ts';
import { enforceSendRate } from './send-rate.ts';
import { answerExpectation } from './unread-body.ts';
import { loadGeneration } from './generation.ts';
import type { SharedHost } from '../app/build.ts';
import { followLiveBuild } from './live-build.ts';
import type { RateLimiter } from '../app/policies/rate-limit.ts';
import pkg from '../../package.json' with { type: 'json' };
import type { StoreHealth } from '../state/store-circuit.ts';

/** What one worker shares with the others (or has alone when it is the only one). */
export interface WorkerState {
  limiter: RateLimiter | undefined;
  streams: StreamCounter;
  sessions: SessionBus;
  /** The same key in every worker, so every event verifies with it (absent: streams answer 503). */
  signingSecret: string | undefined;
  /** Which worker this is (1-based), of how many. */
  worker: { index: number; count: number };
  /** A lock shared with other processes (REDIS_URL) for paid contact; absent: this process alone. */
  lock?: KeyedQueue;
  /** The shared store's circuit (REDIS_URL), for `/status`. */
  store?: () => StoreHealth;
  /** Ends the whole process at once (the test-only crash point): exit 70. */
  crash: () => void;
  /** Paid contact is held by one worker; the others pass its requests on (undefined: this one holds it). */
  contactHolder?: (root: Root['name']) => ContactService | undefined;
}

export interface Serving {
  server: Server;
  /** The paid contact this server holds for a root (the relay asks it). */
  contact(root: Root['name']): ContactService | undefined;
  port: number;
  buildId: string;
  siteUrl: string;
  close(): Promise<void>;
}

/**
 * One server: follows the live build, answers on `port` (with SO_REUSEPORT when several workers
 * listen on it), and keeps its state where `state` says.
 */
export async function serve(config: ServerConfig, state: WorkerState, opts: { port: number; reusePort: boolean }): Promise<Serving> {
  // The crash point exists for the tests of recovery after a settlement (CONTACT_TEST_CRASH_AFTER).
  const contact = state.contactHolder ? undefined : openContact(config.contact, { crash: state.crash, lock: state.lock });
  // One service per root for the life of the server: its inbox and queues outlive builds.
  const services = new Map<string, ContactService | undefined>();
  const contactFor = (name: Root['name'], url: string) => {
    if (state.contactHolder) return state.contactHolder(name);
    if (!services.has(name)) services.set(name, contact!.serviceFor(name, url));
    return services.get(name);
  };
  const shared: SharedHost = {
    hostname: hostname(),
    version: pkg.version,
    worker: state.worker,
    streams: state.streams,
    mcpSessions: state.sessions,
    store: state.store,
    mcpAllowedOrigins: config.mcpAllowedOrigins,
    mcpSessionLimits: config.mcpSessionLimits,
    answerCacheBytes: config.answerCacheBytes,
    limits: { rateLimit: config.rateLimit, rateWindowSeconds: config.rateWindowSeconds, bodyLimit: config.bodyLimit },
  };
  const live = await followLiveBuild(resolve(config.distRoot, PUBLISH.out), (dir) =>
      loadGeneration(dir, {
        shared,
        secret: state.signingSecret,
        contact: (root, core) => contactFor(root.name, `${core.catalog.site_url}${root.base}/contact/send`),
        fileCacheBytes: config.fileCacheBytes,
        artefactCacheBytes: config.artefactCacheBytes,
      }), {
    log: (m) => console.error(m),
    onSwap: (g) => console.log(`now serving build ${g.id}`),
  });
  const front = createFrontServer({ config, live: live.current, limiter: state.limiter });
  const { refuseConnect, answerClientError } = socketAnswers(front.countSocket);
  // Timeouts are checked every second, so they fire at their stated values (Node's default check
  // every 30 s let a slow client's headers take 10 to 40 s).
  // `npm run dev` only (it sets the session's token): the translation review pages, for this machine alone.
  const review = process.env.FOLIO_REVIEW_TOKEN ? (await import('../translate/review/http.ts')).reviewRoutes({ token: process.env.FOLIO_REVIEW_TOKEN, contentDir: ROOTS[0]!.contentDir }) : undefined;
  const server = createServer({ requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: 1_000 }, (req, res) =>
    void (review?.owns(req.url) ? review.handle(req, res) : front.handle(req, res)),
  );
  server.keepAliveTimeout = 5_000;
  const stopSendRate = enforceSendRate(server, { stalledMs: config.writeTimeoutMs, minBytesPerSecond: config.minSendRate });
  server.on('checkContinue', (req, res) => {
    answerExpectation(req, res, config.bodyLimit);
    void front.handle(req, res);
  });
  server.on('connect', (_req, socket) => refuseConnect(socket));
  server.on('clientError', answerClientError);

  const listen = (host: string | undefined) =>
    new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen({ port: opts.port, host, reusePort: opts.reusePort }, () => {
        server.off('error', fail);
        done();
      });
    });
  // Without HOST, listen on every address, IPv6 and IPv4 (falling back to IPv4 where IPv6 is off).
  try {
    await listen(config.host ?? '::');
  } catch (e) {
    if (config.host || (e as NodeJS.ErrnoException).code !== 'EAFNOSUPPORT') throw e;
    await listen('0.0.0.0');
  }
  const address = server.address();
  const first = live.current();
  return {
    server,
    contact: (root) => services.get(root),
    port: typeof address === 'object' && address ? address.port : opts.port,
    buildId: first.id,
    siteUrl: first.siteUrl,
    close: () =>
      new Promise<void>((done) => {
        live.stop();
        stopSendRate();
        server.close(() => {
          contact?.close();
          done();
        });
        server.closeAllConnections();
      }),
  };
}
