// `npm run serve`: the built site, its API and functions on PORT (default 4321).
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadCore } from '../build/load-bundle.ts';
import { DIST, ROOTS } from '../build/roots.ts';
import type { Host } from '../../functions/context.ts';
import { openContact } from '../contact/setup.ts';
import { readConfig } from './config.ts';
import { createFrontServer } from './front-server.ts';
import { memoryRateLimiter } from './policies/rate-limit.ts';
import { staticFiles } from './static-files.ts';
import pkg from '../../package.json' with { type: 'json' };

const config = readConfig();
process.env.FOLIO_DIST_ROOT = config.distRoot;
if (!config.signingSecret) console.warn('EVENT_SIGNING_SECRET is not set: stream events are signed with a random key that changes at every start.');
const siteSecret = config.signingSecret ?? randomBytes(32).toString('base64url');
for (const note of config.contact.notes) console.warn(note);
// The crash point exists for the tests of recovery after a settlement (CONTACT_TEST_CRASH_AFTER).
const contact = openContact(config.contact, { crash: () => process.exit(70) });
const roots = await Promise.all(
  ROOTS.map(async (r) => {
    const core = await loadCore(join(config.distRoot, DIST.bundle(r.name)));
    return {
      name: r.name,
      base: r.base,
      core,
      signingSecret: r.publishedSigningKey ?? siteSecret,
      signingKeyPublished: r.publishedSigningKey !== undefined,
      contact: contact.serviceFor(r.name, `${core.catalog.site_url}${r.base}/contact/send`),
    };
  }),
);
const files = staticFiles(join(config.distRoot, DIST.client));
const host: Host = {
  roots,
  assets: files.assets,
  hostname: hostname(),
  version: pkg.version,
  streams: { active: 0 },
  mcpSessions: new Map(),
  mcpAllowedOrigins: config.mcpAllowedOrigins,
  limits: { rateLimit: config.rateLimit, rateWindowSeconds: config.rateWindowSeconds, bodyLimit: config.bodyLimit },
};
const astro = (await import(pathToFileURL(join(config.distRoot, DIST.server, 'entry.mjs')).href)) as { handler: Parameters<typeof createFrontServer>[0]['pages'] };
const handle = createFrontServer({
  config,
  host,
  files,
  limiter: config.rateLimit > 0 ? memoryRateLimiter(config.rateLimit, config.rateWindowSeconds) : undefined,
  pages: astro.handler,
  siteUrl: roots[0]!.core.catalog.site_url,
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
console.log(`Folio listening on http://localhost:${port} (site ${host.roots[0]!.core.catalog.site_url})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close(() => {
      contact.close();
      process.exit(0);
    });
    server.closeAllConnections();
  });
}
