// `npm run build`: content -> bundles (a child process) -> Astro pages -> published answers and the
// manifest, all in a fresh builds/<id> folder that goes live by one atomic switch of dist/current.
// A failed build removes its folder, leaves the live build as it was, and exits 1.
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'astro';
import { buildLayout, PUBLISH, ROOTS } from '../src/build/roots.ts';
import { describeCloudflare, writeCloudflare } from '../src/build/targets/cloudflare.ts';
import { writeNetlify } from '../src/build/targets/netlify.ts';
import { writeVercel } from '../src/build/targets/vercel.ts';
import { writeStatic } from '../src/build/targets/static.ts';
import { phaseTimings } from '../src/build/timings.ts';
import { goLive, newBuildId, prepareBuildDir, removeOldBuilds } from '../src/build/go-live.ts';
import { publishBuild } from '../src/build/publish-build.ts';

// `--target <host>` (repeatable) also writes a deployable project for that host (README "Deploy").
const TARGETS = ['node', 'cloudflare', 'netlify', 'vercel', 'static', 'all'] as const;
const { values } = parseArgs({ options: { target: { type: 'string', multiple: true, default: ['node'] }, verbose: { type: 'boolean', default: false }, timings: { type: 'boolean', default: false } } });
// --verbose: stack traces with the errors (content errors are one line each without it);
// --timings: wall time per phase, as a table at the end.
if (values.verbose) process.env.FOLIO_VERBOSE = '1';
const unknown = values.target.filter((t) => !TARGETS.includes(t as (typeof TARGETS)[number]));
if (unknown.length > 0) {
  console.error(`unknown --target ${unknown.join(', ')}; one of ${TARGETS.join(', ')}`);
  process.exit(2);
}
const wants = (t: string) => values.target.includes(t) || values.target.includes('all');

const started = performance.now();
const timings = phaseTimings();
const id = newBuildId();
const dir = await prepareBuildDir(PUBLISH.out, id);
// Every step (the bundle process, Astro's config and pages) writes into this build's folder.
process.env.FOLIO_BUILD_DIR = dir;
try {
  const bundle = await timings.time('content -> bundles (load, render, index)', async () => spawnSync(process.execPath, ['scripts/bundle.ts'], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' }));
  process.stdout.write(bundle.stdout);
  if (bundle.status !== 0) throw new Error(`the bundle step failed (exit ${bundle.status ?? 'signal'})`);
  process.env.SITE_URL ??= /site url (\S+)/.exec(bundle.stdout)?.[1];
  await timings.time('pages (Astro)', () => build({ root: process.cwd(), logLevel: process.env.FOLIO_ASTRO_LOG === 'info' ? 'info' : 'warn' }));
  const t = performance.now();
  const layout = buildLayout(dir);
  const manifest = await publishBuild(layout, id, timings);
  const compressed = manifest.files.filter((f) => f.br !== undefined || f.gzip !== undefined).length;
  console.log(`published ${manifest.files.length} files (${compressed} with br/gzip), ${Object.keys(manifest.paths).length} URLs in ${Math.round(performance.now() - t)} ms`);
  const roots = ROOTS.map((r) => r.name);
  const target = async (name: string, write: () => Promise<string>) => {
    if (wants(name)) console.log(await timings.time(`target: ${name}`, write));
  };
  await target('cloudflare', async () => describeCloudflare(await writeCloudflare(layout, roots, join(PUBLISH.out, 'cloudflare'))));
  await target('netlify', () => writeNetlify(layout, roots, join(PUBLISH.out, 'netlify')));
  await target('vercel', () => writeVercel(layout, roots, join(PUBLISH.out, 'vercel', '.vercel', 'output')));
  await target('static', () => writeStatic(layout, join(PUBLISH.out, 'static')));
  await timings.time('go live', () => goLive(PUBLISH.out, id));
} catch (e) {
  await rm(dir, { recursive: true, force: true });
  console.error(`build failed: ${e instanceof Error ? (values.verbose ? (e.stack ?? e.message) : e.message) : String(e)}`);
  console.error(`nothing was published; the live build is unchanged (${PUBLISH.current}).`);
  process.exit(1);
}
const removed = await removeOldBuilds(PUBLISH.out);
console.log(`live: ${PUBLISH.current} -> builds/${id}${removed.length ? ` (removed ${removed.length} old build${removed.length > 1 ? 's' : ''})` : ''}`);
console.log(`build done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
// Peak resident memory of this process, for the build benchmark.
console.log(`peak rss ${Math.round(process.resourceUsage().maxRSS / 1024)} MB (pages)`);
if (values.timings) console.log(timings.table());
