// `npm run build`: content -> bundles (a child process) -> Astro pages -> published answers and the
// manifest, all in a fresh builds/<id> folder that goes live by one atomic switch of dist/current.
// A failed build removes its folder, leaves the live build as it was, and exits 1.
// Sharded (src/pipeline/reuse/shard-*.ts, run-shards.ts): `--shard K/N --out DIR` makes one slice of the posts' pages and
// answers into DIR; `--merge DIR...` makes the rest from the shards and publishes as above;
// `--shards N` runs N shards as processes, then the merge.
import { spawn } from 'node:child_process';
import { enableCompileCache } from 'node:module';
import { existsSync, statSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { readJson } from '../src/fs/read-json.ts';
import { delimiter, dirname, join, resolve, sep } from 'node:path';
import { buildLayout, CACHE_DIR, PUBLISH, ROOTS, type BuildLayout } from '../src/artefact/roots.ts';
import { variantCache } from '../src/pipeline/reuse/variant-cache.ts';
import { REUSE_FILE, reusablePosts } from '../src/pipeline/reuse/reuse.ts';
import { INPUTS_FILE, inputFingerprint, type BuildInputs } from '../src/pipeline/reuse/fingerprint.ts';
import { fileDigests } from '../src/pipeline/reuse/file-digests.ts';
import { frontWritten } from '../src/pipeline/targets/front.ts';
import { targetSettings, targetWriters } from '../src/pipeline/targets/writers.ts';
import { buildArgs, type BuildArgs } from '../src/pipeline/targets/target-args.ts';
import { phaseTimings } from '../src/pipeline/timings.ts';
import { goLive, liveBuild, newBuildId, prepareBuildDir, purgeOldBuilds, removeOldBuilds } from '../src/pipeline/live/go-live.ts';
import { takePagesFromLive, publishFeeds, publishHost, publishManifest } from '../src/pipeline/publish/publish-build.ts';
import { ANSWERS_FILE, readAnswersLog } from '../src/pipeline/publish/answers-log.ts';
import { variantWriter } from '../src/pipeline/publish/file-variants.ts';
import { BUNDLE_READY } from '../src/pipeline/bundle-ready.ts';
import { fileSystemFailure, reportFileSystemFailures } from '../src/pipeline/fs-failure.ts';
import { translateForBuild } from '../src/translate/run.ts';
import { runningServers, urlChangeWarning } from '../src/pipeline/live/running-servers.ts';
import { siteUrlOf } from '../src/pipeline/site-url.ts';
import { loadSite } from '../src/pipeline/load/site.ts';
import type { Catalog } from '../src/core/types.ts';
import { describeNext, earliestScheduled, isDue, readSchedule, SCHEDULE_FILE, type BuildSchedule } from '../src/pipeline/live/schedule.ts';
import { mismatch, parseSlice, shardInputs, shardKey, SHARD_FILE, sliceName, slicePosts, type ShardRecord } from '../src/pipeline/reuse/shard-inputs.ts';
import { combineShards, composeDigests, readShards, selfContain, type Shard } from '../src/pipeline/reuse/shard-merge.ts';
import { shardCache } from '../src/pipeline/reuse/shard-cache.ts';
import { runShards } from '../src/pipeline/reuse/run-shards.ts';
import { mkdir } from 'node:fs/promises';
import { rendersThroughProject, withRenderLock } from '../src/pipeline/live/render-lock.ts';
import { stepEnv } from '../src/pipeline/malloc-arenas.ts';
import { READER_BODIES } from '../src/site/reader-bodies.ts';
import { PAGES_SLICE_COUNT, slicePagesSetting } from '../src/site/page-slice.ts';

// `--target <host>` (repeatable) also writes a deployable project for that host (docs/deploy.md).
// --verbose: stack traces with the errors (content errors are one line each without it);
// --timings: wall time per phase, as a table at the end;
// --drafts: a preview build (`npm run dev`'s) that holds drafts and scheduled posts, with a banner;
// --listen, --upstream: where the target before them (nginx, Caddy; static's plain-server configurations)
// listens and where it finds `npm run serve` (src/pipeline/targets/target-args.ts).
let values: BuildArgs;
try {
  values = buildArgs(process.argv.slice(2));
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}
if (values.verbose) process.env.FOLIO_VERBOSE = '1';
// Set for the build's steps, and read by the fingerprint: a preview build never stands for a published one.
if (values.drafts) process.env.FOLIO_DRAFTS = '1';
// A full disk before or after the build's own steps (its folder made, caches saved) is one line too.
reportFileSystemFailures('build failed: ');
// --shard K/N --out DIR, --merge DIR..., --shards N [--jobs J]: a sharded build (docs/performance.md, "Sharded builds").
const slice = values.shard === undefined ? undefined : parseSlice(values.shard);
const usage = [
  values.shard !== undefined && !slice && `--shard takes K/N with 1 <= K <= N (as 2/3), not ${values.shard}`,
  slice && !values.out && '--shard K/N writes its shard into --out DIR: give one',
  values.out !== undefined && !slice && '--out DIR goes with --shard K/N',
  [slice, values.merge, values.shards].filter(Boolean).length > 1 && 'give one of --shard, --merge and --shards',
  values.positionals.length > 0 && !values.merge && `unexpected ${values.positionals[0]}: only --merge takes folders (the shards')`,
  values.merge && values.positionals.length === 0 && '--merge takes the shard folders: --merge DIR...',
  values.shards !== undefined && !/^[1-9]\d*$/.test(values.shards) && `--shards takes the number of shards, not ${values.shards}`,
  values.jobs !== undefined && (!values.shards || !/^[1-9]\d*$/.test(values.jobs)) && '--jobs J (shards run at once) goes with --shards N',
  slice && values.targets.some((t) => t !== 'node') && '--shard makes part of a build: give --target to the merge',
  (slice || values.merge || values.shards) && values.drafts && '--drafts makes a preview build, which is not sharded',
  settingError(() => slicePagesSetting(process.env.FOLIO_PAGES_SLICE)),
].find(Boolean);
if (usage) {
  console.error(usage);
  process.exit(2);
}
if (values.shards) {
  const forwarded = process.argv.slice(2).filter((a, i, all) => !['--shards', '--jobs'].includes(a) && !['--shards', '--jobs'].includes(all[i - 1]!) && !/^--(shards|jobs)=/.test(a));
  process.exit(await runShards(Number(values.shards), join(PUBLISH.out, 'shards'), forwarded, values.jobs ? Number(values.jobs) : undefined));
}
const wants = (t: string) => values.targets.includes(t) || values.targets.includes('all');
if (process.env.FOLIO_DRAFTS === '1' && values.targets.some((t) => t !== 'node')) {
  console.error(`--drafts makes a preview build, which is never deployed: build --target ${values.targets.filter((t) => t !== 'node').join(', ')} without it`);
  process.exit(2);
}

// Astro writes pages for an output folder outside the project under the project's `.astro`, then
// moves them by rename, which cannot cross file systems: said before anything is built.
if (outsideFileSystem(values.out ?? PUBLISH.out)) {
  const [name, value] = values.out ? ['--out', values.out] : ['FOLIO_OUT', PUBLISH.out];
  console.error(`${name}${name === '--out' ? ' ' : '='}${value} is on another file system than the project (${process.cwd()}): Astro moves its pages there by rename, which cannot cross file systems. Put ${name} inside the project or on its file system.`);
  process.exit(2);
}

const started = performance.now();
const timings = phaseTimings();
const roots = ROOTS.map((r) => r.name);
/** Each host project, written from a build's folder into its own beside dist/current (src/pipeline/targets/writers.ts). */
const WRITERS = targetWriters(values.options);
// A front (nginx, Caddy) serves a copy of the live build: once written, every published build (a plain
// `npm run build`, `npm start`'s scheduled ones) switches it too, unless it is a preview.
const FRONTS = ['nginx', 'caddy'];
/** The settings each of these targets is written with (recorded in inputs.json). */
const settingsOf = (targets: readonly string[]) => Object.fromEntries(targets.map((t) => [t, targetSettings(WRITERS[t]!)]));
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
// Each in a process of its own (scripts/write-target.ts), one after the other: what a target holds
// (the whole manifest, lists of every file) goes with it, not into this process's peak after Astro's.
const writeTargets = async (layout: BuildLayout, names: string[]) => {
  for (const name of names) console.log(await timings.time(`target: ${name}`, () => writeTarget(name, layout.dir)));
};
/**
 * Removes the builds no longer kept (go-live.ts) and deletes them in the background: after every
 * build, also one that published nothing, so what a build killed at its rename left goes at the next.
 */
const removeOld = async (codings?: { dir: string; usedFile: string }) => {
  const removed = await removeOldBuilds(PUBLISH.out);
  purgeOldBuilds(PUBLISH.out, codings);
  return removed.length ? ` (removed ${removed.length} old build${removed.length > 1 ? 's' : ''})` : '';
};

// Nothing the output depends on changed since the live build: it stays live (a new build would be
// byte-identical), and only host projects it lacks are written from it.
const digests = fileDigests(CACHE_DIR);
const { fingerprint, code } = await inputFingerprint(ROOTS.map((r) => r.contentDir), digests);
// A shard's and a merge's inputs (reuse/shard-inputs.ts): what a shard is cached by and the merge checks.
const now = slice || values.merge ? await shardInputs(ROOTS, code, digests) : undefined;
// Kept for the next build, and for the bundle step's post digests in this one.
digests.save();
const cache = shardCache(CACHE_DIR);
const key = slice && shardKey(now!, slice);
if (slice && (await cache.take(slice, key!, resolve(values.out!)))) {
  console.log(`shard ${sliceName(slice)}: reused (its posts, the site files, code and settings unchanged: ${key!.slice(0, 12)}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  process.exit(0);
}
let shards: Shard[] | undefined;
if (values.merge) {
  try {
    shards = await readShards(values.positionals.map((p) => resolve(p)));
  } catch (e) {
    console.error(`merge refused: ${(e as Error).message}`);
    process.exit(1);
  }
  const why = mismatch(shards, now!);
  if (why) {
    console.error(`merge refused: ${why}`);
    process.exit(1);
  }
}
const live = await liveBuild(PUBLISH.out);
const liveLayout = live ? buildLayout(join(PUBLISH.builds, live)) : undefined;
const liveInputs = liveLayout && (await readJson<BuildInputs>(join(liveLayout.dir, INPUTS_FILE)));
// What is published depends on the time too: once the live build's next scheduled post is due, the content it was made from no longer says what the build holds.
const liveSchedule: BuildSchedule = liveLayout ? await readSchedule(liveLayout.dir) : {};
// Said before the work, in one line: a server that runs would serve this build's absolute URLs once it is live.
const servers = liveLayout && process.env.FOLIO_DRAFTS !== '1' ? runningServers(PUBLISH.out) : [];
if (servers.length > 0) {
  const main = ROOTS[0]!;
  const configured = await loadSite(main.contentDir).then((s) => s.url, () => undefined);
  const liveUrl = (await readJson<Pick<Catalog, 'site_url'>>(join(liveLayout!.bundle(main.name), 'catalog.json')))?.site_url;
  const warning = urlChangeWarning(siteUrlOf(process.env.SITE_URL, configured), liveUrl, servers);
  if (warning) console.error(warning);
}
if (!slice && liveLayout && liveInputs?.fingerprint === fingerprint && !isDue(liveSchedule.next)) {
  // A front is written again: its copy may be of an earlier build; and so is a target given settings
  // (--listen, --upstream), or whose settings from the environment changed since it was written.
  const missing = requested.filter((t) => FRONTS.includes(t) || t in values.options || !liveInputs.targets.includes(t) || liveInputs.settings?.[t] !== targetSettings(WRITERS[t]!) || !existsSync(WRITERS[t]!.out));
  await writeTargets(liveLayout, missing);
  const inputs: BuildInputs = { fingerprint, code, targets: [...new Set([...liveInputs.targets, ...missing])], settings: { ...liveInputs.settings, ...settingsOf(missing) } };
  await writeFile(join(liveLayout.dir, INPUTS_FILE), JSON.stringify(inputs));
  console.log(`no change since build ${live}: it stays live${await removeOld()} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  console.log(describeNext(liveSchedule.next));
  if (values.timings) console.log(timings.table());
  process.exit(0);
}

/**
 * A step of the build in a child process (this build's environment): what it printed once it ends
 * well. A step started before what it needs is known waits for `go` (scripts/publish-answers.ts):
 * its modules load meanwhile.
 */
function runStep(name: string, script: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'], env: stepEnv({ ...process.env, ...env }) });
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
// A shard is written into its --out folder, never published; every other build into builds/<id>.
const dir = slice ? resolve(values.out!) : await prepareBuildDir(PUBLISH.out, id);
if (slice) {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  // The shard's pages and answers are its posts' only (src/site/data.ts, publish/static-api.ts).
  process.env.FOLIO_SHARD = join(dir, 'shard-pages.json');
  await writeFile(process.env.FOLIO_SHARD, JSON.stringify({ posts: slicePosts(now!, slice) }));
}
// A merge is an incremental build from the shards, as if they were one earlier build (reuse/shard-merge.ts):
// a folder beside this build's under builds/, marked as running so that nothing prunes it meanwhile.
const combined = shards && buildLayout(await prepareBuildDir(PUBLISH.out, `${id}-shards`));
// Where unchanged posts are taken from: the shards for a merge, else the live build (none for a shard).
const from = combined ?? (slice ? undefined : liveLayout);
const fromCode = combined ? code : slice ? undefined : liveInputs?.code;
// Every step (the bundle process, Astro's config and pages) writes into this build's folder.
process.env.FOLIO_BUILD_DIR = dir;
// br and gzip codings of bytes an earlier build published are linked, not made again.
const codings = variantCache(join(CACHE_DIR, 'codings'));
try {
  // The live build's bundles, when the same code made them, lend what did not change (search indexes).
  if (shards) {
    await timings.time('merge: the shards\' files gathered', () => combineShards(shards, combined!.dir));
    // Each shard bundled its own posts (and outlined the others): each post's entry is taken from its
    // shard (by its source digest, so an entry edited since it was built is made again) with its search
    // texts, and the merge writes the search indexes of them all.
    process.env.FOLIO_LIVE_BUNDLES = shards.map((s) => join(s.dir, 'bundle')).join(delimiter);
  } else if (from && fromCode === code) process.env.FOLIO_LIVE_BUNDLES = join(from.dir, 'bundle');
  const bundleStep = runStep('bundle', 'scripts/bundle.ts');
  bundleStep.end();
  // Started now, so that loading their code overlaps the bundle step, which keeps one core busy:
  // the answers step and the first pages process (each waits for the bundle's settings).
  const answersStep = runStep('answers', 'scripts/publish-answers.ts');
  const pagesCount = join(dir, PAGES_SLICE_COUNT);
  const pagesStep = (k: number) => runStep(`pages ${k + 1}`, 'scripts/pages.ts', { FOLIO_PAGES_SLICE_INDEX: String(k), FOLIO_PAGES_SLICE_COUNT: pagesCount });
  const firstPages = pagesStep(0);
  let bundled: string;
  try {
    bundled = await timings.time('content -> bundles (load, render)', () => bundleStep.until(BUNDLE_READY));
  } catch (e) {
    await Promise.all([answersStep.stop(), firstPages.stop()]);
    throw e;
  }
  process.env.SITE_URL ??= /site url (\S+)/.exec(bundled)?.[1];
  const schedule: BuildSchedule = { next: earliestScheduled(bundled) };
  // Posts unchanged since the live build (same code): their pages and answers are linked from it.
  if (shards) await composeDigests(shards, combined!, buildLayout(dir), roots);
  const reuse = await reusablePosts(from, fromCode, code, buildLayout(dir), roots);
  if (reuse) {
    process.env.FOLIO_REUSE = join(dir, REUSE_FILE);
    await writeFile(process.env.FOLIO_REUSE, JSON.stringify(reuse));
    const kept = Object.values(reuse.posts).reduce((n, s) => n + s.length, 0);
    console.log(shards ? `merge: ${kept} posts' pages and answers taken from the shards` : `incremental: ${kept} unchanged posts taken from build ${live}`);
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
  // The pages in slices, each an Astro build in a process of its own, one after the other
  // (src/site/page-slice.ts): the first says how many there are.
  let pages = firstPages;
  const render = async () => {
    for (let k = 0, n = 1; k < n; k++) {
      const t = performance.now();
      if (k > 0) pages = pagesStep(k);
      pages.go({ SITE_URL: process.env.SITE_URL, FOLIO_REUSE: process.env.FOLIO_REUSE });
      // What searches (the API reference, in the last slice) waits for the indexes.
      indexed.then(pages.end, pages.end);
      const out = await pages.done;
      n = Number(await readFile(pagesCount, 'utf8'));
      process.stdout.write(out.replace(/^peak rss (\d+) MB\n/m, n > 1 ? `pages: slice ${k + 1} of ${n} in ${((performance.now() - t) / 1000).toFixed(1)} s, peak rss $1 MB\n` : 'peak rss $1 MB (pages)\n'));
    }
  };
  try {
    await timings.time('pages (Astro)', () => (rendersThroughProject(dir) ? withRenderLock(render) : render()));
    await rm(pagesCount);
    // The post pages' bodies the bundle step left for them are not part of the build.
    await rm(join(dir, READER_BODIES), { recursive: true, force: true });
    process.stdout.write(await indexed);
  } catch (e) {
    // Nothing may still write into the build's folder when it is removed.
    await Promise.all([bundleStep.stop(), answersStep.stop(), pages.stop()]);
    throw e;
  }
  const layout = buildLayout(dir);
  // Files this process places: the live build's pages, linked while the answers step runs, then Astro's.
  const written = variantWriter(layout.client, codings);
  if (reuse) await timings.time('publish: unchanged posts\' pages and list pages taken from the live build', () => takePagesFromLive(layout, reuse, written));
  const site = await publishHost(layout);
  if (reuse) await publishFeeds(site, layout, written, timings);
  process.stdout.write(await answersStep.done);
  // Read line by line: its files' facts join this process's (the answers step's win, as it wrote them last).
  const published = await readAnswersLog(join(dir, ANSWERS_FILE), written.record);
  await rm(join(dir, ANSWERS_FILE));
  timings.add(published.phases, 'pages (Astro)');
  const t = performance.now();
  let manifest = await publishManifest(layout, id, site, published, written, timings, codings);
  // A merge's files are linked into its own folder: it stands alone, as a one-machine build does.
  if (combined) manifest = await timings.time('merge: the shards\' files linked in', () => selfContain(layout, manifest));
  const compressed = manifest.files.filter((f) => f.br !== undefined).length;
  console.log(`published ${manifest.files.length} files (${compressed} with br), ${Object.keys(manifest.paths).length} URLs in ${Math.round(performance.now() - t)} ms`);
  if (slice) {
    await writeFile(join(dir, SHARD_FILE), JSON.stringify({ slice, key: key!, inputs: now!, made: new Date().toISOString() } satisfies ShardRecord));
    await cache.keep(slice, key!, dir);
    const posts = Object.values(slicePosts(now!, slice)).reduce((n, s) => n + s.length, 0);
    console.log(`shard ${sliceName(slice)}: built (${posts} posts) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    console.log(`peak rss ${Math.round(process.resourceUsage().maxRSS / 1024)} MB (build)`);
    if (values.timings) console.log(timings.table());
    process.exit(0);
  }
  await writeTargets(layout, requested);
  await writeFile(join(dir, INPUTS_FILE), JSON.stringify({ fingerprint, code, targets: requested, settings: settingsOf(requested) } satisfies BuildInputs));
  await writeFile(join(dir, SCHEDULE_FILE), JSON.stringify(schedule));
  console.log(describeNext(schedule.next));
  await timings.time('go live', () => goLive(PUBLISH.out, id));
} catch (e) {
  await rm(dir, { recursive: true, force: true });
  if (combined) await rm(combined.dir, { recursive: true, force: true });
  const line = values.verbose ? undefined : fileSystemFailure(e);
  console.error(`build failed: ${line ?? (e instanceof Error ? (values.verbose ? (e.stack ?? e.message) : e.message) : String(e))}`);
  console.error(`nothing was published; the live build is unchanged (${PUBLISH.current}).`);
  process.exit(1);
}
// The shards' files are the merged build's own now.
if (combined) await rm(combined.dir, { recursive: true, force: true });
console.log(`live: ${PUBLISH.current} -> builds/${id}${await removeOld({ dir: join(CACHE_DIR, 'codings'), usedFile: await codings.saveUsed() })}`);
console.log(`build done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
// Peak resident memory of this process, for the build benchmark (each step prints its own).
console.log(`peak rss ${Math.round(process.resourceUsage().maxRSS / 1024)} MB (build)`);
if (values.timings) console.log(timings.table());

/** Writes one host project from the build in `dir` in a child process: its report, or its one-line failure as the error. */
function writeTarget(name: string, dir: string): Promise<string> {
  const child = spawn(process.execPath, ['scripts/write-target.ts', name, dir, JSON.stringify(values.options)], { stdio: ['ignore', 'pipe', 'pipe'], env: stepEnv() });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve(out.trimEnd()) : reject(new Error(err.trim() || `the ${name} target failed (exit ${code ?? signal})`))));
  });
}

/** The message of a setting's refusal, if `check` refuses it. */
function settingError(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Whether `out` lies outside the project on another file system (its nearest existing folder tells). */
function outsideFileSystem(out: string): boolean {
  let at = resolve(out);
  if (at.startsWith(process.cwd() + sep)) return false;
  while (!existsSync(at)) at = dirname(at);
  return statSync(at).dev !== statSync(process.cwd()).dev;
}
