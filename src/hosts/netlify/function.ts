// The Netlify Functions 2.0 entry (bundled by `npm run build -- --target netlify` into
// dist/netlify/functions/folio.mjs): a Web Request in, the app's Response out.
import { fileURLToPath } from 'node:url';
import { functionApp } from '../function-app.ts';

// The build ships beside the function as its included files (netlify.toml).
const app = functionApp({ dir: fileURLToPath(new URL('../build', import.meta.url)), clientHeader: 'x-nf-client-connection-ip', hostname: 'netlify' });

export default (request: Request): Promise<Response> => app.fetch(request, undefined);

/** Every path reaches the function, but the fingerprinted assets and media, served by the CDN. */
export const config = { path: '/*', excludedPath: ['/_astro/*', '/media/*', '/sandbox/media/*', '/favicon.svg', '/favicon.ico'], preferStatic: false };
