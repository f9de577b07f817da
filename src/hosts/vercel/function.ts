// The Vercel Functions entry (bundled by `npm run build -- --target vercel` into
// .vercel/output/functions/folio.func/index.mjs): the Web handler signature, `fetch(request)`.
import { fileURLToPath } from 'node:url';
import { functionApp } from '../function-app.ts';

// The build ships inside the function's folder, without the site's files: the CDN serves those,
// and config.json's routes send it only what is computed (it sees each request's own URL).
const app = functionApp({ dir: fileURLToPath(new URL('./build', import.meta.url)), clientHeader: 'x-real-ip', hostname: 'vercel', computeAll: true });

export default { fetch: (request: Request): Promise<Response> => app.fetch(request, undefined) };
