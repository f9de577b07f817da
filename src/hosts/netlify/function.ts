// The Netlify Functions 2.0 entry (bundled by `npm run build -- --target netlify` into
// dist/netlify/functions/folio.mjs): a Web Request in, the app's Response out. Its `config` (the
// computed paths it runs on) is written by the build after the bundle, as a literal Netlify reads.
import { functionApp } from '../function-app.ts';
import { FUNCTION_PREFIX } from '../../pipeline/targets/cdn-routes.ts';

/** Where the target placed the build among the static files (an unguessable path, written in by the bundler). */
declare const FOLIO_ARTEFACT_PATH: string;

// The function carries no build: the CDN serves the site's files, whatever reaches the function is
// computed, and it reads the build from the CDN.
const app = functionApp({ artefactPath: FOLIO_ARTEFACT_PATH, clientHeader: 'x-nf-client-connection-ip', hostname: 'netlify', countedBefore: Boolean(process.env.UPSTASH_REDIS_REST_URL) });

/** A request `_redirects` rewrote to the function (`/_folio/fn/api/posts?per_page=20`) is answered for its own path. */
function unprefixed(request: Request): Request {
  const url = new URL(request.url);
  if (!url.pathname.startsWith(`${FUNCTION_PREFIX}/`)) return request;
  url.pathname = url.pathname.slice(FUNCTION_PREFIX.length);
  return new Request(url, request);
}

export default (request: Request): Promise<Response> => app.fetch(unprefixed(request), undefined);
