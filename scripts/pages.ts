// One slice of a build's pages (src/site/page-slice.ts): an Astro build in a process of its own, started
// by `npm run build` (scripts/build.ts) with FOLIO_PAGES_SLICE_INDEX set, into the build's folder
// (FOLIO_BUILD_DIR). Astro holds what it renders until its build ends: a process per slice bounds that.
// On stdin: a line with the site URL and what is taken from the live build (the first slice starts
// while the bundle step still runs, its modules loading meanwhile); its end once the search indexes are
// written, which the API reference pages wait for (they search, for an example).
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { SEARCH_INDEXES_WRITTEN } from '../src/artefact/roots.ts';

const input = createInterface({ input: process.stdin });
const ended = once(input, 'close');
(globalThis as Record<symbol, unknown>)[SEARCH_INDEXES_WRITTEN] = ended;
const astro = import('astro');
const settings = await Promise.race([once(input, 'line'), ended.then(() => undefined)]);
if (!settings) throw new Error('the build ended before its pages could be rendered');
Object.assign(process.env, JSON.parse(settings[0] as string) as Record<string, string>);
const { build } = await astro;
await build({ root: process.cwd(), logLevel: process.env.FOLIO_ASTRO_LOG === 'info' ? 'info' : 'warn' });
console.log(`peak rss ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
// Its input may still be open (the indexes not written yet): a slice without the API reference does not wait.
process.exit(0);
