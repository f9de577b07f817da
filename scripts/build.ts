// `npm run build`: content -> bundles (a child process) -> Astro pages -> static API, feeds, media.
import { spawnSync } from 'node:child_process';
import { build } from 'astro';

const started = performance.now();
const bundle = spawnSync(process.execPath, ['scripts/bundle.ts'], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
process.stdout.write(bundle.stdout);
if (bundle.status !== 0) process.exit(bundle.status ?? 1);
process.env.SITE_URL ??= /site url (\S+)/.exec(bundle.stdout)?.[1];
await build({ root: process.cwd(), logLevel: process.env.FOLIO_ASTRO_LOG === 'info' ? 'info' : 'warn' });
console.log(`build done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
// Peak resident memory of this process, for the build benchmark.
console.log(`peak rss ${Math.round(process.resourceUsage().maxRSS / 1024)} MB (pages)`);
