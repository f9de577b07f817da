// `npm run bench:scale -- 1000 5000 10000`: Folio at each size of a generated corpus (N essays x 14
// languages): the clean build (wall, CPU, peak memory of its largest process and of all of them), the
// files and bytes each host target gets and each host's function size, a sharded build (4 shards, then
// the merge), search over HTTP (the first search of each language, then warm p50/p99), the server's
// memory after 1,000 mixed requests; then the slope per essay and the extrapolation to 100,000 x 14.
import { realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { LANGUAGE_CODES } from '../src/core/languages.ts';
import { functionSizes } from '../tests/helpers/function-sizes.ts';
import { startServer } from '../tests/helpers/server.ts';
import { filesUnder, measure, residentMb, type Run } from './measure.ts';
import { sliceDir } from '../src/pipeline/reuse/shard-inputs.ts';
import { writeCorpus } from './synthetic-corpus.ts';
import { mixedLoad, titleWords } from './mixed-load.ts';

const sizes = process.argv.slice(2).map(Number);
if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('usage: npm run bench:scale -- <essays> [<essays>...] (e.g. 1000 5000 10000)');
const WORK = 'bench/.scale';
const SHARDS = 4;
const HOSTS = ['cloudflare', 'netlify', 'vercel'] as const;
const node = process.execPath;

/** Where each target's deployable files are, under a build's FOLIO_OUT. */
const TARGET_FILES: Record<string, (out: string) => string> = {
  node: (out) => join(out, 'current'),
  cloudflare: (out) => join(out, 'cloudflare', 'assets'),
  netlify: (out) => join(out, 'netlify', 'static'),
  vercel: (out) => join(out, 'vercel', '.vercel', 'output', 'static'),
};

const env = (content: string, out: string, cache: string) => ({ FOLIO_CONTENT: content, FOLIO_OUT: out, FOLIO_CACHE: cache });
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

/** A sharded build: its shards and its merge, each measured as its own process tree. */
interface Sharded {
  seconds: number;
  cpuSeconds: number;
  shards: Run[];
  merge: Run;
}

interface Measured {
  n: number;
  clean: Run;
  sharded: Sharded;
}

/** Search over HTTP on the built site (no answer cache): each language's first search, then warm ones; then the server's memory after mixed requests. */
async function serving(out: string, essays: number): Promise<string[]> {
  const server = await startServer({ FOLIO_OUT: out, ANSWER_CACHE_MB: '0', RATE_LIMIT: '0' }, 'node');
  try {
    const timed = async (path: string) => {
      const t = performance.now();
      const r = await fetch(server.url + path);
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
      return performance.now() - t;
    };
    const words = await titleWords(server.url);
    const cold: number[] = [];
    for (const lang of LANGUAGE_CODES) cold.push(await timed(`/api/search?lang=${lang}&q=${encodeURIComponent(words.get(lang)![0]!)}`));
    const warm: number[] = [];
    for (let i = 0; i < 700; i++) {
      const lang = LANGUAGE_CODES[i % LANGUAGE_CODES.length]!;
      const pool = words.get(lang)!;
      warm.push(await timed(`/api/search?lang=${lang}&q=${encodeURIComponent(pool[(i * 7) % pool.length]!)}`));
    }
    await mixedLoad(server.url, essays, words, 0, 1000);
    const rss = `${(await residentMb(server.pid)).toFixed(0)} MB`;
    return [
      `search over HTTP, first of each language: p50 ${percentile(cold, 50).toFixed(1)} ms, max ${Math.max(...cold).toFixed(1)} ms`,
      `search over HTTP, warm (700): p50 ${percentile(warm, 50).toFixed(2)} ms, p99 ${percentile(warm, 99).toFixed(2)} ms`,
      `server memory after 1,000 mixed requests over the corpus (pages, details, lists, searches, feeds): ${rss}`,
    ];
  } finally {
    await server.stop();
  }
}

const results: Measured[] = [];
for (const n of sizes) {
  const root = join(WORK, String(n));
  const content = join(root, 'content');
  await rm(root, { recursive: true, force: true });
  await writeCorpus(content, n, 'content/posts/tidal-energy/figure-1.jpg');
  console.log(`\n== ${n} essays x 14 languages = ${n * 14} entries`);
  const out = join(root, 'dist');
  const clean = await measure(node, ['scripts/build.ts', ...HOSTS.flatMap((h) => ['--target', h])], env(content, out, join(root, 'cache')));
  console.log(`clean build (node, ${HOSTS.join(', ')}): ${clean.seconds.toFixed(1)} s wall, ${clean.cpuSeconds.toFixed(1)} s CPU, largest process ${clean.largestMb} MB, all processes ${clean.peakMb} MB`);
  for (const [target, dir] of Object.entries(TARGET_FILES)) {
    const { files, bytes } = await filesUnder(target === 'node' ? await realpath(dir(out)) : dir(out));
    console.log(`  ${target.padEnd(10)} ${String(files).padStart(9)} files ${mb(bytes).padStart(9)}  (${(files / n).toFixed(0)} files an essay)`);
  }
  const functions = await functionSizes(out);
  console.log(`  functions: ${HOSTS.map((h) => `${h} ${(functions[h] / 2 ** 20).toFixed(2)} MB`).join(', ')}`);
  for (const line of await serving(out, n)) console.log(line);
  // The same corpus as 4 shards on this machine (2 at a time: 2 cores, each shard timed on its own), then
  // the merge, from clean caches: what `npm run build -- --shards 4 --jobs 2` runs, with each process measured.
  const shardedOut = join(root, 'dist-sharded');
  // With the arenas the local runner gives its shards and merge (src/pipeline/malloc-arenas.ts).
  const shardedEnv = { ...env(content, shardedOut, join(root, 'cache-sharded')), MALLOC_ARENA_MAX: '2' };
  const dirs = Array.from({ length: SHARDS }, (_, i) => sliceDir(join(shardedOut, 'shards'), { k: i + 1, n: SHARDS }));
  const started = performance.now();
  const shards: Run[] = [];
  let next = 0;
  const worker = async () => {
    for (let k = next++; k < SHARDS; k = next++) shards[k] = await measure(node, ['scripts/build.ts', '--shard', `${k + 1}/${SHARDS}`, '--out', dirs[k]!], shardedEnv);
  };
  await Promise.all([worker(), worker()]);
  const shardsSeconds = (performance.now() - started) / 1000;
  const merge = await measure(node, ['scripts/build.ts', '--merge', ...dirs], shardedEnv);
  const sharded: Sharded = { seconds: (performance.now() - started) / 1000, cpuSeconds: [...shards, merge].reduce((s, r) => s + r.cpuSeconds, 0), shards, merge };
  console.log(`sharded build (${SHARDS} shards, 2 at a time, then the merge): ${sharded.seconds.toFixed(1)} s wall, ${sharded.cpuSeconds.toFixed(1)} s CPU; the shards ${shardsSeconds.toFixed(1)} s, then the merge ${merge.seconds.toFixed(1)} s`);
  shards.forEach((r, i) => console.log(`  shard ${i + 1}/${SHARDS}: ${r.seconds.toFixed(1)} s wall, ${r.cpuSeconds.toFixed(1)} s CPU, largest process ${r.largestMb} MB, all its processes ${r.peakMb} MB`));
  console.log(`  merge:     ${merge.seconds.toFixed(1)} s wall, ${merge.cpuSeconds.toFixed(1)} s CPU, largest process ${merge.largestMb} MB, all its processes ${merge.peakMb} MB`);
  results.push({ n, clean, sharded });
  await rm(shardedOut, { recursive: true, force: true });
}

// Least squares over the sizes measured: seconds = a + b * essays.
const fit = (pts: [number, number][]) => {
  const k = pts.length;
  const mx = pts.reduce((s, [x]) => s + x, 0) / k;
  const my = pts.reduce((s, [, y]) => s + y, 0) / k;
  const b = k > 1 ? pts.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / pts.reduce((s, [x]) => s + (x - mx) ** 2, 0) : my / mx;
  return { a: my - b * mx, b };
};
console.log('\n| essays x 14 | clean build | CPU | largest process | all processes | sharded (4, 2 at a time) | largest shard process | merge |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of results) console.log(`| ${r.n} | ${r.clean.seconds.toFixed(0)} s | ${r.clean.cpuSeconds.toFixed(0)} s | ${r.clean.largestMb} MB | ${r.clean.peakMb} MB | ${r.sharded.seconds.toFixed(0)} s | ${Math.max(...r.sharded.shards.map((x) => x.largestMb))} MB | ${r.sharded.merge.seconds.toFixed(0)} s, ${r.sharded.merge.largestMb} MB |`);
const wall = fit(results.map((r) => [r.n, r.clean.seconds]));
const cpu = fit(results.map((r) => [r.n, r.clean.cpuSeconds]));
console.log(`\nslope: ${(wall.b * 1000).toFixed(1)} ms wall and ${(cpu.b * 1000).toFixed(1)} ms CPU an essay (14 languages); growth of wall time an essay from the smallest to the largest size: ${results.length > 1 ? ((results.at(-1)!.clean.seconds / results.at(-1)!.n) / (results[0]!.clean.seconds / results[0]!.n)).toFixed(2) : '1.00'}x (1.00 = linear)`);
const oneMachine = wall.a + wall.b * 100_000;
console.log(`extrapolated to 100,000 x 14 on this machine (2 cores): ${(oneMachine / 3600).toFixed(1)} h`);
// A matrix of 16 jobs: each shard renders its own posts (the others outlined from their front matter) and makes
// their pages and answers; the merge makes what gathers posts and the search indexes. From the largest size
// measured: a shard's time per post of its own, and the merge's time per essay of the corpus.
const largest = results.at(-1)!;
const shardRuns = largest.sharded.shards.map((r) => /shard \d+\/\d+: built \((\d+) posts\) in ([\d.]+) s/.exec(r.out)).filter((m) => m !== null).map((m) => ({ posts: Number(m[1]), seconds: Number(m[2]) }));
const mergeSeconds = Number(/build done in ([\d.]+) s/.exec(largest.sharded.merge.out)?.[1] ?? NaN);
if (shardRuns.length > 0 && Number.isFinite(mergeSeconds)) {
  const perPost = shardRuns.reduce((s, r) => s + r.seconds, 0) / shardRuns.reduce((s, r) => s + r.posts, 0);
  const shard = perPost * (100_000 / 16);
  const merge = (mergeSeconds / largest.n) * 100_000;
  console.log(`extrapolated with a 16-job matrix (from ${largest.n} x 14: ${(perPost * 1000).toFixed(0)} ms a shard's own post, the merge ${mergeSeconds.toFixed(1)} s): each shard about ${(shard / 3600).toFixed(1)} h, then the merge about ${(merge / 3600).toFixed(1)} h: ${((shard + merge) / 3600).toFixed(1)} h in all`);
}
