// The Vercel Functions entry (bundled by `npm run build -- --target vercel` into
// .vercel/output/functions/folio.func/index.mjs): the Web handler signature, `fetch(request)`.
import { functionApp } from '../function-app.ts';

/** Where the target placed the build among the static files (an unguessable path, written in by the bundler). */
declare const FOLIO_ARTEFACT_PATH: string;

// The function carries no build: the CDN serves the site's files, config.json's routes send it
// only what is computed (it sees each request's own URL), and it reads the build from the CDN.
const app = functionApp({ artefactPath: FOLIO_ARTEFACT_PATH, clientHeader: 'x-real-ip', hostname: 'vercel' });

export default { fetch: (request: Request): Promise<Response> => app.fetch(request, undefined) };
