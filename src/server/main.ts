// `npm run serve`: the live build (dist/current), its API and functions on PORT (default 4321);
// a newly published build is picked up between requests, without a restart.
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { loadCore } from '../build/load-bundle.ts';
import { PUBLISH, ROOTS, type BuildLayout } from '../build/roots.ts';
import type { Root } from '../../functions/context.ts';
import type { ContactService } from '../contact/service.ts';
import { openContact } from '../contact/setup.ts';
import { readConfig } from './config.ts';
import { createFrontServer } from './front-server.ts';
import { loadGeneration, type SharedHost } from './generation.ts';
import { followLiveBuild } from './live-build.ts';
import { memoryRateLimiter } from './policies/rate-limit.ts';
import pkg from '../../package.json' with { type: 'json' };

const config = readConfig();
process.env.FOLIO_DIST_ROOT = config.distRoot;
if (!config.signingSecret) console.warn('EVENT_SIGNING_SECRET is not set: stream events are signed with a random key that changes at every start.');
const siteSecret = config.signingSecret ?? randomBytes(32).toString('base64url');
for (const note of config.contact.notes) console.warn(note);
// The crash point exists for the tests of recovery after a settlement (CONTACT_TEST_CRASH_AFTER).
const contact = openContact(config.contact, { crash: () => process.exit(70) });
// One service per root for the life of the process: its inbox and queues outlive builds.
const services = new Map<string, ContactService | undefined>();
const contactFor = (name: Root['name'], url: string) => {
  if (!services.has(name)) services.set(name, contact.serviceFor(name, url));
  return services.get(name);
};

async function rootsOf(layout: BuildLayout): Promise<Root[]> {
  return Promise.all(
    ROOTS.map(async (r) => {
      const core = await loadCore(layout.bundle(r.name));
      return {
        name: r.name,
        base: r.base,
        core,
        signingSecret: r.publishedSigningKey ?? siteSecret,
        signingKeyPublished: r.publishedSigningKey !== undefined,
        contact: contactFor(r.name, `${core.catalog.site_url}${r.base}/contact/send`),
      };
    }),
  );
}

const shared: SharedHost = {
  hostname: hostname(),
  version: pkg.version,
  streams: { active: 0 },
  mcpSessions: new Map(),
  mcpAllowedOrigins: config.mcpAllowedOrigins,
  answerCacheBytes: config.answerCacheBytes,
  limits: { rateLimit: config.rateLimit, rateWindowSeconds: config.rateWindowSeconds, bodyLimit: config.bodyLimit },
};
const live = await followLiveBuild(resolve(config.distRoot, PUBLISH.out), (dir) => loadGeneration(dir, { shared, roots: rootsOf, fileCacheBytes: config.fileCacheBytes }), {
  log: (m) => console.error(m),
  onSwap: (g) => console.log(`now serving build ${g.id}`),
});
const handle = createFrontServer({
  config,
  live: live.current,
  limiter: config.rateLimit > 0 ? memoryRateLimiter(config.rateLimit, config.rateWindowSeconds) : undefined,
});

const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000 }, (req, res) => void handle(req, res));
server.keepAliveTimeout = 5_000;

function listen(hostName: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, hostName, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

// Without HOST, listen on every address, IPv6 and IPv4 (falling back to IPv4 where IPv6 is off).
try {
  await listen(config.host ?? '::');
} catch (e) {
  if (config.host || (e as NodeJS.ErrnoException).code !== 'EAFNOSUPPORT') throw e;
  await listen('0.0.0.0');
}
const address = server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
const first = live.current();
console.log(`Folio listening on http://localhost:${port} (site ${first.siteUrl}, build ${first.id})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    live.stop();
    server.close(() => {
      contact.close();
      process.exit(0);
    });
    server.closeAllConnections();
  });
}
