// `npm run bench:search-memory -- [N] [--cache-mb M] [--queries-per-language Q] [--build-only]`: the
// search of N synthetic essays x 14 languages (default 1,000) in one process, as the server holds it
// (its index read in parts through a cache of M MB, default 128: ARTEFACT_CACHE_MB). Builds the
// search bundle from the synthetic corpus when it is not there (the bundle step only, no site
// build; the same folders as `npm run bench:search`). Prints the first search in each language
// from a fresh process (cold: opening the language and reading the parts its words need), the
// warm p50/p99 of whole answers (a page of 10 with snippets, awaited) over a mixed load (one word,
// two words, prefixes, one-typo words), and the process's memory after that load.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildBundle } from '../src/pipeline/bundle.ts';
import { loadCore } from '../src/bundle/load-bundle.ts';
import { LANGUAGE_CODES } from '../src/core/languages.ts';
import { writeCorpus } from './synthetic-corpus.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'cache-mb': { type: 'string', default: '128' }, 'queries-per-language': { type: 'string', default: '200' }, 'build-only': { type: 'boolean' } },
});
const count = Number(positionals[0] ?? 1000);
const WORK = resolve('bench/.corpus');
const content = `${WORK}/content-${count}`;
const bundle = `${WORK}/serve-${count}/dist/builds/bench/bundle/main`;
if (!existsSync(content)) await writeCorpus(content, count, 'content/posts/tidal-energy/figure-1.jpg');
if (!existsSync(`${bundle}/search/en.words.bin`) || process.env.REBUILD) {
  const t = performance.now();
  console.log(`building the search bundle for ${count} x 14 ...`);
  await buildBundle({ contentDir: content, outDir: bundle, base: '', cacheDir: `${WORK}/cache` });
  console.log(`built in ${((performance.now() - t) / 1000).toFixed(0)} s`);
}
if (values['build-only']) process.exit(0);

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}
/** A mixed load over each language's vocabulary: 55 % one word, 15 % two, 15 % a prefix, 15 % a word with one letter replaced. */
const queries: [string, string][] = [];
for (const lang of LANGUAGE_CODES) {
  const r = rng(LANGUAGE_CODES.indexOf(lang) + 29);
  const words = (JSON.parse(await readFile(`${bundle}/search/${lang}.vocabulary.json`, 'utf8')) as string[]).filter((w) => [...w].length >= 2);
  const word = () => words[Math.floor(r() * words.length)]!;
  for (let i = 0; i < Number(values['queries-per-language']); i++) {
    const kind = r();
    const w = [...word()];
    if (kind < 0.55) queries.push([lang, w.join('')]);
    else if (kind < 0.7) queries.push([lang, `${w.join('')} ${word()}`]);
    else if (kind < 0.85) queries.push([lang, w.slice(0, Math.max(2, w.length - 2)).join('')]);
    else {
      const at = Math.floor(r() * w.length);
      w[at] = w[(at + 1) % w.length]!;
      queries.push([lang, w.join('')]);
    }
  }
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const mb = (n: number) => `${(n / 1e6).toFixed(0)} MB`;
const gc = (globalThis as { gc?: () => void }).gc;
const memory = () => {
  gc?.();
  const m = process.memoryUsage();
  return `rss ${mb(m.rss)} (heap ${mb(m.heapUsed)}, array buffers ${mb(m.arrayBuffers)})`;
};

const started = performance.now();
const core = await loadCore(bundle, { warm: false, cacheBytes: Number(values['cache-mb']) * 1024 * 1024 });
console.log(`${count} x 14, cache ${values['cache-mb']} MB: core loaded in ${(performance.now() - started).toFixed(0)} ms; ${memory()}`);
const search = async (lang: string, q: string) => {
  const t = performance.now();
  await core.search(new URLSearchParams({ q, lang }));
  return performance.now() - t;
};
const cold: number[] = [];
for (const lang of LANGUAGE_CODES) cold.push(await search(lang, queries.find(([l]) => l === lang)![1]));
console.log(`first search per language (cold: the language opened, its parts read): max ${Math.max(...cold).toFixed(1)} ms, median ${pct(cold, 50).toFixed(1)} ms`);
const second: number[] = [];
for (const [lang, q] of queries) second.push(await search(lang, q));
console.log(`first pass over ${queries.length} queries (parts read as they are first needed): p50 ${pct(second, 50).toFixed(3)} ms, p99 ${pct(second, 99).toFixed(3)} ms`);
const warm: number[] = [];
for (let round = 0; round < 3; round++) for (const [lang, q] of queries) warm.push(await search(lang, q));
console.log(`warm whole answers (page of 10 with snippets, awaited; 3 rounds): p50 ${pct(warm, 50).toFixed(3)} ms, p99 ${pct(warm, 99).toFixed(3)} ms`);
console.log(`after the mixed load: ${memory()}`);
