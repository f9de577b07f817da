// `npm run build`: content -> bundles (a child process) -> Astro pages -> published answers and the
// manifest, all in a fresh builds/<id> folder that goes live by one atomic switch of dist/current.
// A failed build removes its folder, leaves the live build as it was, and exits 1.
import { spawn } from 'node:child_process';
import { enableCompileCache } from 'node:module';
import { existsSync, statSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { readJson } from '../src/fs/read-json.ts';
import { dirname, join, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { buildLayout, CACHE_DIR, PUBLISH, ROOTS, SEARCH_INDEXES_WRITTEN, type BuildLayout } from '../src/artefact/roots.ts';
import { variantCache } from '../src/pipeline/reuse/variant-cache.ts';
import { REUSE_FILE, reusablePosts } from '../src/pipeline/reuse/reuse.ts';
import { INPUTS_FILE, inputFingerprint, type BuildInputs } from '../src/pipeline/reuse/fingerprint.ts';
import { fileDigests } from '../src/pipeline/reuse/file-digests.ts';
import { describeCloudflare, writeCloudflare } from '../src/pipeline/targets/cloudflare.ts';
import { writeNetlify } from '../src/pipeline/targets/netlify.ts';
import { writeVercel } from '../src/pipeline/targets/vercel.ts';
import { writeStatic } from '../src/pipeline/targets/static.ts';
import { frontWritten, writeFront } from '../src/pipeline/targets/front.ts';
import { phaseTimings } from '../src/pipeline/timings.ts';
import { goLive, liveBuild, newBuildId, prepareBuildDir, purgeOldBuilds, removeOldBuilds } from '../src/pipeline/live/go-live.ts';
import { ANSWERS_FILE, takePagesFromLive, publishFeeds, publishHost, publishManifest, type PublishedAnswers } from '../src/pipeline/publish/publish-build.ts';
import { variantWriter } from '../src/pipeline/publish/file-variants.ts';
import { BUNDLE_READY } from '../src/pipeline/bundle.ts';
import { fileSystemFailure, reportFileSystemFailures } from '../src/pipeline/fs-failure.ts';
import { translateForBuild } from '../src/translate/run.ts';
import { describeNext, earliestScheduled, isDue, readSchedule, SCHEDULE_FILE, type BuildSchedule } from '../src/pipeline/live/schedule.ts';

// `--target <host>` (repeatable) also writes a deployable project for that host (README "Deploy").
const TARGETS = ['node', 'cloudflare', 'netlify', 'vercel', 'static', 'nginx', 'caddy', 'all'] as const;
const { values } = parseArgs({ options: { target: { type: 'string', multiple: true, default: ['node'] }, verbose: { type: 'boolean', default: false }, timings: { type: 'boolean', default: false }, drafts: { type: 'boolean', default: false }, listen: { type: 'string' }, upstream: { type: 'string' } } });
// --verbose: stack traces with the errors (content errors are one line each without it);
// --timings: wall time per phase, as a table at the end;
// --drafts: a preview build (`npm run dev`'s) that holds drafts and scheduled posts, with a banner;
// --listen, --upstream: where an nginx or Caddy front listens and where it finds `npm run serve`.
if (values.verbose) process.env.FOLIO_VERBOSE = '1';
// Set for the build's steps, and read by the fingerprint: a preview build never stands for a published one.
if (values.drafts) process.env.FOLIO_DRAFTS = '1';
// A full disk before or after the build's own steps (its folder made, caches saved) is one line too.
reportFileSystemFailures('build failed: ');
const unknown = values.target.filter((t) => !TARGETS.includes(t as (typeof TARGETS)[number]));
if (unknown.length > 0) {
  console.error(`unknown --target ${unknown.join(', ')}; one of ${TARGETS.join(', ')}`);
  process.exit(2);
}
const wants = (t: string) => values.target.includes(t) || values.target.includes('all');
if (process.env.FOLIO_DRAFTS === '1' && values.target.some((t) => t !== 'node')) {
  console.error(`--drafts makes a preview build, which is never deployed: build --target ${values.target.filter((t) => t !== 'node').join(', ')} without it`);
  process.exit(2);
}

// Astro writes pages for an output folder outside the project under the project's `.astro`, then
// moves them by rename, which cannot cross file systems: said before anything is built.
if (outsideFileSystem(PUBLISH.out)) {
  console.error(`FOLIO_OUT=${PUBLISH.out} is on another file system than the project (${process.cwd()}): Astro moves its pages there by rename, which cannot cross file systems. Put FOLIO_OUT inside the project or on its file system.`);
  process.exit(2);
}

const started = performance.now();
const timings = phaseTimings();
const roots = ROOTS.map((r) => r.name);
/** Each host project, written from a build's folder into its own beside dist/current. */
const WRITERS: Record<string, { out: string; write: (layout: BuildLayout) => Promise<string> }> = {
  cloudflare: { out: join(PUBLISH.out, 'cloudflare'), write: async (layout) => describeCloudflare(await writeCloudflare(layout, roots, join(PUBLISH.out, 'cloudflare'))) },
  netlify: { out: join(PUBLISH.out, 'netlify'), write: (layout) => writeNetlify(layout, roots, join(PUBLISH.out, 'netlify')) },
  vercel: { out: join(PUBLISH.out, 'vercel'), write: (layout) => writeVercel(layout, roots, join(PUBLISH.out, 'vercel', '.vercel', 'output')) },
  static: { out: join(PUBLISH.out, 'static'), write: (layout) => writeStatic(layout, join(PUBLISH.out, 'static'), { listen: values.listen }) },
  nginx: { out: join(PUBLISH.out, 'nginx'), write: (layout) => writeFront('nginx', layout, join(PUBLISH.out, 'nginx'), { listen: values.listen, upstream: values.upstream }) },
  caddy: { out: join(PUBLISH.out, 'caddy'), write: (layout) => writeFront('caddy', layout, join(PUBLISH.out, 'caddy'), { listen: values.listen, upstream: values.upstream }) },
};
// A front (nginx, Caddy) serves a copy of the live build: once written, every published build (a plain
// `npm run build`, `npm start`'s scheduled ones) switches it too, unless it is a preview.
const FRONTS = ['nginx', 'caddy'];
const requested = Object.keys(WRITERS).filter((t) => wants(t) || (FRONTS.includes(t) && process.env.FOLIO_DRAFTS !== '1' && frontWritten(WRITERS[t]!.out)));

// translation.yaml's `build: {translate: true}`: what is missing or stale is translated first, so
// the content read below (and its fingerprint) has it. An invalid setting fails the build.
try {
  for (const root of ROOTS) await translateForBuild(root.contentDir, (line) => console.log(line.replace(/^\n/, '').replace(/^/gm, 'translate: ')));
} catch (e) {
  console.error(`build failed: ${(e as Error).message}`);
  console.error(`nothing was published; the live build is unchanged (${PUBLISH.current}).`);
  process.exit(1);
}
const writeTargets = async (layout: BuildLayout, names: string[]) => {
  for (const name of names) console.log(await timings.time(`target: ${name}`, () => WRITERS[name]!.write(layout)));
};

// Nothing the output depends on changed since the live build: it stays live (a new build would be
// byte-identical), and only host projects it lacks are written from it.
const digests = fileDigests(CACHE_DIR);
const { fingerprint, code } = await inputFingerprint(ROOTS.map((r) => r.contentDir), digests);
// Kept for the next build, and for the bundle step's post digests in this one.
digests.save();
const live = await liveBuild(PUBLISH.out);
const liveLayout = live ? buildLayout(join(PUBLISH.builds, live)) : undefined;
const liveInputs = liveLayout && (await readJson<BuildInputs>(join(liveLayout.dir, INPUTS_FILE)));
// What is published depends on the time too: once the live build's next scheduled post is due, the content it was made from no longer says what the build holds.
const liveSchedule: BuildSchedule = liveLayout ? await readSchedule(liveLayout.dir) : {};
if (liveLayout && liveInputs?.fingerprint === fingerprint && !isDue(liveSchedule.next)) {
  // A front is written again: its options may have changed, and its copy may be of an earlier build.
  const missing = requested.filter((t) => FRONTS.includes(t) || !liveInputs.targets.includes(t) || !existsSync(WRITERS[t]!.out));
  await writeTargets(liveLayout, missing);
  const inputs: BuildInputs = { fingerprint, code, targets: [...new Set([...liveInputs.targets, ...missing])] };
  await writeFile(join(liveLayout.dir, INPUTS_FILE), JSON.stringify(inputs));
  console.log(`no change since build ${live}: it stays live (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  console.log(describeNext(liveSchedule.next));
  if (values.timings) console.log(timings.table());
  process.exit(0);
}

/**
 * A step of the build in a child process (this build's environment): what it printed once it ends
 * well. A step started before what it needs is known waits for `go` (scripts/publish-answers.ts):
 * its modules load meanwhile.
 */
function runStep(name: string, script: string) {
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const waiting: { text: string; resolve: (out: string) => void }[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const w of waiting) if (out.includes(w.text)) w.resolve(out);
  });
  const done = new Promise<string>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) return resolve(out);
      process.stdout.write(out);
      reject(new Error(`the ${name} step failed (exit ${code ?? signal})`));
    });
  });
  // A failure while nothing waits on it yet is reported where the build waits.
  done.catch(() => undefined);
  return {
    done,
    /** What the step printed up to `text`, once it printed it; its failure if it fails first. */
    until(text: string): Promise<string> {
      return Promise.race([new Promise<string>((resolve) => waiting.push({ text, resolve })), done]);
    },
    /** Settings made after the step started, for its environment, as a line: it starts its work on them. */
    go(env: Record<string, string | undefined>) {
      child.stdin.write(`${JSON.stringify(env)}\n`);
    },
    /** Ends its input: for the answers step, the search indexes are written. */
    end() {
      child.stdin.end();
    },
    /** Ends the step and waits for it to exit (so nothing writes into a folder being removed). */
    async stop() {
      child.kill();
      await done.catch(() => undefined);
    },
  };
}

// Code compiled (types stripped) by one build is kept for the next in every step's process and for
// Astro here: a step's modules load in about two thirds of the time (Node checks each source's hash).
process.env.NODE_COMPILE_CACHE ??= resolve(CACHE_DIR, 'compile');
enableCompileCache(process.env.NODE_COMPILE_CACHE);

const id = newBuildId();
const dir = await prepareBuildDir(PUBLISH.out, id);
// Every step (the bundle process, Astro's config and pages) writes into this build's folder.
process.env.FOLIO_BUILD_DIR = dir;
// br and gzip codings of bytes an earlier build published are linked, not made again.
const codings = variantCache(join(CACHE_DIR, 'codings'));
try {
  // The live build's bundles, when the same code made them, lend what did not change (search indexes).
  if (liveLayout && liveInputs?.code === code) process.env.FOLIO_LIVE_BUNDLES = join(liveLayout.dir, 'bundle');
  const bundleStep = runStep('bundle', 'scripts/bundle.ts');
  bundleStep.end();
  // Started now, so that loading their code overlaps the bundle step, which keeps one core busy:
  // the answers step (it waits for the bundle's settings) and Astro (loaded here only when a build
  // has something to do).
  const answersStep = runStep('answers', 'scripts/publish-answers.ts');
  const astro = import('astro');
  astro.catch(() => undefined);
  let bundled: string;
  try {
    bundled = await timings.time('content -> bundles (load, render)', () => bundleStep.until(BUNDLE_READY));
  } catch (e) {
    await answersStep.stop();
    throw e;
  }
  process.env.SITE_URL ??= /site url (\S+)/.exec(bundled)?.[1];
  const schedule: BuildSchedule = { next: earliestScheduled(bundled) };
  // Posts unchanged since the live build (same code): their pages and answers are linked from it.
  const reuse = await reusablePosts(liveLayout, liveInputs?.code, code, buildLayout(dir), roots);
  if (reuse) {
    process.env.FOLIO_REUSE = join(dir, REUSE_FILE);
    await writeFile(process.env.FOLIO_REUSE, JSON.stringify(reuse));
    const kept = Object.values(reuse.posts).reduce((n, s) => n + s.length, 0);
    console.log(`incremental: ${kept} unchanged posts taken from build ${live}`);
  }
  // Astro renders the pages while the bundle step writes the search indexes, and the answers step
  // links what it takes from the live build: what searches (the OpenAPI example, in the API reference
  // and its answers) waits for the indexes.
  answersStep.go({ SITE_URL: process.env.SITE_URL, FOLIO_REUSE: process.env.FOLIO_REUSE });
  const indexing = performance.now();
  const indexed = bundleStep.done.then((out) => {
    timings.add([['content -> search indexes', performance.now() - indexing]], 'pages (Astro)');
    answersStep.end();
    return out;
  });
  indexed.catch(() => undefined);
  (globalThis as Record<symbol, unknown>)[SEARCH_INDEXES_WRITTEN] = indexed;
  try {
    const { build } = await astro;
    await timings.time('pages (Astro)', () => build({ root: process.cwd(), logLevel: process.env.FOLIO_ASTRO_LOG === 'info' ? 'info' : 'warn' }));
    process.stdout.write(await indexed);
  } catch (e) {
    // Nothing may still write into the build's folder when it is removed.
    await Promise.all([bundleStep.stop(), answersStep.stop()]);
    throw e;
  }
  const layout = buildLayout(dir);
  // Files this process places: the live build's pages, linked while the answers step runs, then Astro's.
  const written = variantWriter(layout.client, codings);
  if (reuse) await timings.time('publish: unchanged posts\' pages and list pages taken from the live build', () => takePagesFromLive(layout, reuse, written));
  const site = await publishHost(layout);
  if (reuse) await publishFeeds(site, layout, written, timings);
  process.stdout.write(await answersStep.done);
  const published = JSON.parse(await readFile(join(dir, ANSWERS_FILE), 'utf8')) as PublishedAnswers;
  await rm(join(dir, ANSWERS_FILE));
  timings.add(published.phases, 'pages (Astro)');
  const t = performance.now();
  const manifest = await publishManifest(layout, id, site, published, written, timings, codings);
  const compressed = manifest.files.filter((f) => f.br !== undefined || f.gzip !== undefined).length;
  console.log(`published ${manifest.files.length} files (${compressed} with br/gzip), ${Object.keys(manifest.paths).length} URLs in ${Math.round(performance.now() - t)} ms`);
  await writeTargets(layout, requested);
  await writeFile(join(dir, INPUTS_FILE), JSON.stringify({ fingerprint, code, targets: requested } satisfies BuildInputs));
  await writeFile(join(dir, SCHEDULE_FILE), JSON.stringify(schedule));
  console.log(describeNext(schedule.next));
  await timings.time('go live', () => goLive(PUBLISH.out, id));
} catch (e) {
  await rm(dir, { recursive: true, force: true });
  const line = values.verbose ? undefined : fileSystemFailure(e);
  console.error(`build failed: ${line ?? (e instanceof Error ? (values.verbose ? (e.stack ?? e.message) : e.message) : String(e))}`);
  console.error(`nothing was published; the live build is unchanged (${PUBLISH.current}).`);
  process.exit(1);
}
const removed = await removeOldBuilds(PUBLISH.out);
purgeOldBuilds(PUBLISH.out, { dir: join(CACHE_DIR, 'codings'), usedFile: await codings.saveUsed() });
console.log(`live: ${PUBLISH.current} -> builds/${id}${removed.length ? ` (removed ${removed.length} old build${removed.length > 1 ? 's' : ''})` : ''}`);
console.log(`build done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
// Peak resident memory of this process, for the build benchmark.
console.log(`peak rss ${Math.round(process.resourceUsage().maxRSS / 1024)} MB (pages)`);
if (values.timings) console.log(timings.table());

/** Whether `out` lies outside the project on another file system (its nearest existing folder tells). */
function outsideFileSystem(out: string): boolean {
  let at = resolve(out);
  if (at.startsWith(process.cwd() + sep)) return false;
  while (!existsSync(at)) at = dirname(at);
  return statSync(at).dev !== statSync(process.cwd()).dev;
}
