// The Cloudflare Workers adapter: the app, with the build read through the assets binding and the
// rate limit kept in a Durable Object per client. `npm run build -- --target cloudflare` writes
// the project around it (dist/cloudflare); `npm run preview:cloudflare` runs it on workerd.
import { createApp, type App, type Build } from '../../app/app.ts';
import { instanceHost, loadOnce } from '../../app/build.ts';
import { appSettings, type Vars } from '../../app/settings.ts';
import { clientKey, type RateLimiter } from '../../app/policies/rate-limit.ts';
import { cachedStore } from '../../artefact/storage.ts';
import { storedBuild } from '../stored-build.ts';
import { workersStore } from './assets-bundle.ts';
import { coded } from './coding.ts';
import type { RateLimits } from './rate-limits.ts';
import { durableSessionBus, type McpSessions } from './mcp-sessions.ts';
import { durableLock, type Locks } from './locks.ts';
import { d1Inbox } from './d1-inbox.ts';
import { readContactConfig } from '../../contact/config.ts';
import { wireContact, type OpenContact } from '../../contact/wiring.ts';
import { UNSIGNED_STREAMS_LOG } from '../../../functions/sse.ts';
import pkg from '../../../package.json' with { type: 'json' };

export { RateLimits } from './rate-limits.ts';
export { McpSessions } from './mcp-sessions.ts';
export { Locks } from './locks.ts';

interface Env extends Vars {
  ASSETS: Fetcher;
  /** The build past the assets' file limit (wrangler.jsonc declares it then). */
  ARTEFACT?: R2Bucket;
  /** The local preview's count of invocations, sent as X-Folio-Invocation (npm run preview:cloudflare with FOLIO_PREVIEW_INVOCATIONS=1). */
  FOLIO_PREVIEW_INVOCATIONS?: string;
  RATE_LIMITS: DurableObjectNamespace<RateLimits>;
  MCP_SESSIONS: DurableObjectNamespace<McpSessions>;
  LOCKS: DurableObjectNamespace<Locks>;
  /** Paid contact's inbox (configured with CONTACT_* vars, as on Node). */
  INBOX?: D1Database;
  EVENT_SIGNING_SECRET?: string;
}

/**
 * Paid contact as on Node, with its stores at Cloudflare: each root's inbox a table in D1, one
 * payer's settlements and the relayer's nonces serialised across isolates by a Durable Object
 * lock. No e-mail delivery from a Worker (no SMTP): the owner reads the inbox in D1.
 */
function openContact(env: Env): OpenContact {
  const config = readContactConfig(env as unknown as NodeJS.ProcessEnv);
  const db = env.INBOX;
  if (!db) return { serviceFor: () => undefined, close() {} };
  return wireContact({ ...config, crashAfter: undefined }, { crash: () => {}, lock: durableLock(env.LOCKS) }, { inbox: (root) => d1Inbox(db, `folio_messages_${root}`) });
}

let contact: OpenContact | undefined;

/**
 * Loaded once per isolate, on its first request (the cold start), and kept: the manifest and the
 * catalogs; bodies, search indexes and pages are read through the assets binding (or R2) when an
 * answer needs them, and kept in the isolate's bounded cache (ARTEFACT_CACHE_MB).
 */
async function loadBuild(env: Env): Promise<Build> {
  const settings = appSettings(env);
  // Each isolate would draw its own random key, and events signed in one would not verify in
  // another (as with REDIS_URL on Node, the key must be given): without it, only streams are refused.
  const secret = env.EVENT_SIGNING_SECRET || undefined;
  if (!secret) console.error(`${UNSIGNED_STREAMS_LOG} (\`npx wrangler secret put EVENT_SIGNING_SECRET -c dist/cloudflare/wrangler.jsonc\`)`);
  contact ??= openContact(env);
  return storedBuild(cachedStore(workersStore(env.ASSETS, env.ARTEFACT), settings.artefactCacheBytes), {
    shared: { ...instanceHost(settings, 'cloudflare', pkg.version), mcpSessions: durableSessionBus(env.MCP_SESSIONS) },
    secret,
    contact: (root, core) => contact!.serviceFor(root.name, `${core.catalog.site_url}${root.base}/contact/send`),
    fileCacheBytes: 16 * 1024 * 1024,
  });
}

/** A fixed window per client, counted by that client's Durable Object. */
function durableLimiter(env: Env, limit: number, windowSeconds: number): RateLimiter {
  return { hit: (key, cost = 1) => env.RATE_LIMITS.get(env.RATE_LIMITS.idFromName(key)).hit(cost, limit, windowSeconds) };
}

let app: App<Env> | undefined;

/**
 * Cloudflare's edge hands the worker `Accept-Encoding: br, gzip` whatever the client sent, and
 * recodes only the types it compresses itself; the client's own header is `cf.clientAcceptEncoding`.
 * Negotiating on it keeps a precompressed feed or document from reaching a client that cannot read it.
 */
function asTheClientSent(request: Request): Request {
  const sent = (request as Request & { cf?: { clientAcceptEncoding?: string } }).cf?.clientAcceptEncoding;
  if (sent === undefined || sent === request.headers.get('accept-encoding')) return request;
  const headers = new Headers(request.headers);
  if (sent) headers.set('accept-encoding', sent);
  else headers.delete('accept-encoding');
  return new Request(request, { headers });
}

/** Invocations of this isolate, for the preview's proof that the assets answered a request alone. */
let invocations = 0;

export default {
  async fetch(request: Request, env: Env, ctx: unknown): Promise<Response> {
    const n = ++invocations;
    if (!app) {
      const settings = appSettings(env);
      app = createApp<Env>({
        live: loadOnce(loadBuild),
        // Cloudflare's edge sets CF-Connecting-IP; X-Forwarded-For only when the operator says a proxy sits in front.
        clientKey: (r) => clientKey(settings.trustProxy, r.headers.get('x-forwarded-for'), r.headers.get('cf-connecting-ip')),
        limiter: settings.rateLimit > 0 ? durableLimiter(env, settings.rateLimit, settings.rateWindowSeconds) : undefined,
        bodyLimit: settings.bodyLimit,
      });
    }
    const client = asTheClientSent(request);
    // A HEAD is answered as the GET it stands for, coded, then sent without its body, so that its
    // ETag, Vary and Content-Length are those of the coding GET sends (the app strips a HEAD's body
    // before the coding could see it), as on Node.
    const head = client.method === 'HEAD';
    const asked = head ? new Request(client, { method: 'GET' }) : client;
    let response = await coded(asked, await app.fetch(asked, env, ctx));
    if (head) {
      await response.body?.cancel().catch(() => {});
      response = new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
    }
    if (env.FOLIO_PREVIEW_INVOCATIONS !== '1') return response;
    const headers = new Headers(response.headers);
    headers.set('x-folio-invocation', String(n));
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers, encodeBody: 'manual' } as ResponseInit);
  },
};
