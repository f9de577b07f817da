// `npm run bench:search-memory -- [N] [--cache-mb M] [--queries-per-language Q] [--index-only [--no-index]] [--build-only]`:
// the search of N synthetic essays x 14 languages (default 1,000) in one process, as the server holds
// it (its index read in parts through a cache of M MB, default 128: ARTEFACT_CACHE_MB). Builds the
// search bundle from the synthetic corpus when it is not there (the bundle step only, no site build;
// the same folders as `npm run bench:search`), and times the core's whole answers (a page of 10 with
// snippets, awaited). `--index-only` writes the search files alone, in process, from the synthetic
// essays (their Markdown as the text: no rendering, so 10,000 x 14 takes minutes, not an hour) and
// times the search's own answer (matches, forms, suggestion, the snippets of the first 10); with
// `--no-index`, over the languages written so far, writing none. Prints the first search in each
// language from a fresh process (cold: opening the language and reading the parts its words need),
// a first pass and the warm p50/p99 over a mixed load (one word, two words, prefixes, one-typo
// words), and the process's memory after that load.
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildBundle } from '../src/pipeline/bundle.ts';
import { diskBundle, loadCore } from '../src/bundle/load-bundle.ts';
import { LANGUAGE_CODES } from '../src/core/languages.ts';
import { loadSearchSource } from '../src/search/load-source.ts';
import { built, writeLanguage } from '../src/pipeline/index/search-indexes.ts';
import { snippet } from '../src/core/snippet.ts';
import type { SearchView } from '../src/core/types.ts';
import { essay, writeCorpus } from './synthetic-corpus.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'cache-mb': { type: 'string', default: '128' }, 'queries-per-language': { type: 'string', default: '200' }, 'build-only': { type: 'boolean' }, 'index-only': { type: 'boolean' }, 'no-index': { type: 'boolean' } },
});
const count = Number(positionals[0] ?? 1000);
const WORK = resolve('bench/.corpus');
const content = `${WORK}/content-${count}`;
const indexOnly = values['index-only'] === true;
const bundle = indexOnly ? `${WORK}/index-${count}` : `${WORK}/serve-${count}/dist/builds/bench/bundle/main`;
/** A language's files are all written once its stems are (the last, writeLanguage). */
const written = (lang: string) => existsSync(`${bundle}/search/${lang}.stems.json`);
if (indexOnly && !values['no-index']) {
  const t = performance.now();
  await mkdir(`${bundle}/search`, { recursive: true });
  for (const lang of LANGUAGE_CODES) {
    if (written(lang) && !process.env.REBUILD) continue;
    const docs = Array.from({ length: count }, (_, id) => {
      const { title, body } = essay(id, lang);
      return { id, head: title, body };
    });
    await writeLanguage(`${bundle}/search`, lang, await built(lang, docs), docs, count);
    console.log(`${lang} indexed (${((performance.now() - t) / 1000).toFixed(0)} s)`);
  }
}
if (!indexOnly && !existsSync(content)) await writeCorpus(content, count, 'content/posts/tidal-energy/figure-1.jpg');
if (!indexOnly && (!existsSync(`${bundle}/search/en.words.bin`) || process.env.REBUILD)) {
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
// --index-only --no-index: the languages written so far (another process may still be writing the others).
const languages = indexOnly ? LANGUAGE_CODES.filter(written) : LANGUAGE_CODES;
for (const lang of languages) {
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
  return `rss ${mb(m.rss)} (heap ${mb(m.heapUsed)}, external ${mb(m.external)} of which array buffers ${mb(m.arrayBuffers)})`;
};

const started = performance.now();
const cacheBytes = Number(values['cache-mb']) * 1024 * 1024;
/** The search's own answer, as runSearch makes it (without the catalog's summaries): made again until no part was missing. */
async function searchOnly(): Promise<(lang: string, q: string) => Promise<unknown>> {
  const source = await loadSearchSource(diskBundle(bundle), count, { warm: false, present: false, cacheBytes });
  const answer = (view: SearchView, lang: string, q: string) => {
    const m = view.match(lang, q);
    const forms = view.forms(lang, q);
    return { total: m.ids.length, snippets: Array.from(m.ids).slice(0, 10).map((id) => snippet(lang, view.text(lang, id) ?? '', m.terms(id), forms)), suggestion: view.suggest(lang, q) };
  };
  return async (lang, q) => {
    const view = await source.load([lang]);
    for (;;) {
      const out = answer(view, lang, q);
      if (!(await view.readMissing())) return out;
    }
  };
}
const ask = indexOnly ? await searchOnly() : await loadCore(bundle, { warm: false, cacheBytes }).then((core) => (lang: string, q: string) => core.search(new URLSearchParams({ q, lang })));
console.log(`${count} x ${languages.length}, cache ${values['cache-mb']} MB, ${indexOnly ? 'search files alone (--index-only)' : 'the core over the bundle'}: loaded in ${(performance.now() - started).toFixed(0)} ms; ${memory()}`);
const search = async (lang: string, q: string) => {
  const t = performance.now();
  await ask(lang, q);
  return performance.now() - t;
};
const cold: number[] = [];
for (const lang of languages) cold.push(await search(lang, queries.find(([l]) => l === lang)![1]));
console.log(`first search per language (cold: the language opened, its parts read): max ${Math.max(...cold).toFixed(1)} ms, median ${pct(cold, 50).toFixed(1)} ms`);
const second: number[] = [];
for (const [lang, q] of queries) second.push(await search(lang, q));
console.log(`first pass over ${queries.length} queries (parts read as they are first needed): p50 ${pct(second, 50).toFixed(3)} ms, p99 ${pct(second, 99).toFixed(3)} ms`);
const warm: number[] = [];
for (let round = 0; round < 3; round++) for (const [lang, q] of queries) warm.push(await search(lang, q));
console.log(`warm answers (${indexOnly ? 'matches, forms, suggestion, 10 snippets' : 'the core: page of 10 with snippets'}, awaited; 3 rounds): p50 ${pct(warm, 50).toFixed(3)} ms, p99 ${pct(warm, 99).toFixed(3)} ms`);
console.log(`after the mixed load: ${memory()}`);
