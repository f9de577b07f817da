import { createApp, type App, type Build } from '../app/app.ts';
import { appSettings, type Vars } from '../app/settings.ts';
import { clientKey } from '../app/policies/rate-limit.ts';
import { loadGeneration } from '../server/generation.ts';
import { loadCore } from '../bundle/load-bundle.ts';
import { contentRoots, instanceHost, loadOnce } from '../app/build.ts';
import { redisState } from '../state/redis.ts';
import { UNSIGNED_STREAMS_LOG } from '../../functions/sse.ts';
import pkg from '../../package.json' with { type: 'json' };

export interface FunctionHost {
  /** The build folder shipped with the function (manifest.json, site/client, bundle/). */
  dir: string;
  /** The CDN serves every published file, and the build ships without them: every answer is computed. */
  computeAll?: boolean;
  /** The request header the platform sets to the client's address. */
  clientHeader: string;
  hostname: string;
  vars?: Vars;
  /** An edge layer in front already counted every request in the shared store (Netlify with Upstash): counting again would count twice. */
  countedBefore?: boolean;
}

/**
 * The app on a serverless Node host (Netlify Functions, Vercel Functions): the build read from
 * the folder shipped with the function, loaded by an instance on its first request. Instances
 * share nothing, so the rate limit needs REDIS_URL (without it, none is applied) and the
 * streams need the signing key given (without it, they answer 503).
 */
export function functionApp(host: FunctionHost): App<undefined> {
  const vars = host.vars ?? process.env;
  const settings = appSettings(vars);
  const secret = typeof vars.EVENT_SIGNING_SECRET === 'string' ? vars.EVENT_SIGNING_SECRET : '';
  const redisUrl = typeof vars.REDIS_URL === 'string' ? vars.REDIS_URL : '';
  const redis = redisUrl && settings.rateLimit > 0 && !host.countedBefore ? redisState(redisUrl, (m) => console.error(m)) : undefined;
  const load = async (): Promise<Build> => {
    // Instances cannot agree on a random key (events signed in one would not verify in another):
    // without the secret only the streams, which sign, are refused.
    if (!secret) console.error(UNSIGNED_STREAMS_LOG);
    return loadGeneration(host.dir, {
      shared: instanceHost(settings, host.hostname, pkg.version),
      roots: (layout) => contentRoots(secret || undefined, (name) => loadCore(layout.bundle(name))),
      fileCacheBytes: 64 * 1024 * 1024,
    });
  };
  return createApp<undefined>({
    live: loadOnce(load),
    clientKey: (r) => clientKey(settings.trustProxy, r.headers.get('x-forwarded-for'), r.headers.get(host.clientHeader)),
    limiter: redis?.limiter(settings.rateLimit, settings.rateWindowSeconds),
    bodyLimit: settings.bodyLimit,
    computeAll: host.computeAll,
  });
}
