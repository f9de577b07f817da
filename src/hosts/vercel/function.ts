// The Vercel Functions entry (bundled by `npm run build -- --target vercel` into
// .vercel/output/functions/folio.func/index.mjs): the Web handler signature, `fetch(request)`.
import { fileURLToPath } from 'node:url';
import { functionApp } from '../function-app.ts';

// The build ships inside the function's folder.
const app = functionApp({ dir: fileURLToPath(new URL('./build', import.meta.url)), clientHeader: 'x-real-ip', hostname: 'vercel' });

export default { fetch: (request: Request): Promise<Response> => app.fetch(request, undefined) };
