import { createApp, type App, type Build } from '../app/app.ts';
import { appSettings, type Vars } from '../app/settings.ts';
import { clientKey } from '../app/policies/rate-limit.ts';
import { instanceHost, loadOnce } from '../app/build.ts';
import { cachedStore, httpStore } from '../artefact/storage.ts';
import { storedBuild } from './stored-build.ts';
import { redisState } from '../state/redis.ts';
import { UNSIGNED_STREAMS_LOG } from '../../functions/sse.ts';
import pkg from '../../package.json' with { type: 'json' };

export interface FunctionHost {
  /**
   * Where the host's CDN serves the build the function reads (manifest, bundles, the pages it
   * answers with): a path of the deployment's own site, written into the function by its target.
   * FOLIO_ARTEFACT_URL gives the origin to read it from; else the origin of the first request.
   */
  artefactPath: string;
  /** The request header the platform sets to the client's address. */
  clientHeader: string;
  hostname: string;
  vars?: Vars;
  /** An edge layer in front already counted every request in the shared store (Netlify with Upstash): counting again would count twice. */
  countedBefore?: boolean;
}

/**
 * The app on a serverless Node host (Netlify Functions, Vercel Functions) behind a CDN that serves
 * every published file, so every answer is computed. The function carries code only: the build
 * is read from the CDN over HTTP when an answer needs a file, through one bounded cache
 * (ARTEFACT_CACHE_MB), so its size does not grow with the corpus. Instances share nothing, so the
 * rate limit needs REDIS_URL (without it, none is applied) and the streams need the signing key
 * given (without it, they answer 503).
 */
export function functionApp(host: FunctionHost): App<undefined> {
  const vars = host.vars ?? process.env;
  const settings = appSettings(vars);
  const secret = typeof vars.EVENT_SIGNING_SECRET === 'string' ? vars.EVENT_SIGNING_SECRET : '';
  const redisUrl = typeof vars.REDIS_URL === 'string' ? vars.REDIS_URL : '';
  const redis = redisUrl && settings.rateLimit > 0 && !host.countedBefore ? redisState(redisUrl, (m) => console.error(m)) : undefined;
  const given = typeof vars.FOLIO_ARTEFACT_URL === 'string' && vars.FOLIO_ARTEFACT_URL ? vars.FOLIO_ARTEFACT_URL.replace(/\/$/, '') : undefined;
  let origin = given;
  const store = cachedStore(
    httpStore(() => `${origin}${host.artefactPath}`),
    settings.artefactCacheBytes,
  );
  const load = async (): Promise<Build> => {
    // Instances cannot agree on a random key (events signed in one would not verify in another):
    // without the secret only the streams, which sign, are refused.
    if (!secret) console.error(UNSIGNED_STREAMS_LOG);
    return storedBuild(store, { shared: instanceHost(settings, host.hostname, pkg.version), secret: secret || undefined, fileCacheBytes: 16 * 1024 * 1024 });
  };
  const app = createApp<undefined>({
    live: loadOnce(load),
    clientKey: (r) => clientKey(settings.trustProxy, r.headers.get('x-forwarded-for'), r.headers.get(host.clientHeader)),
    limiter: redis?.limiter(settings.rateLimit, settings.rateWindowSeconds),
    bodyLimit: settings.bodyLimit,
    computeAll: true,
  });
  return {
    ...app,
    fetch(request, env, ctx) {
      // The deployment's own origin, as its CDN reached the function.
      origin ??= new URL(request.url).origin;
      return app.fetch(request, env, ctx);
    },
  };
}
