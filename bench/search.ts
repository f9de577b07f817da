// `npm run bench:search -- [N] [--queries-per-language Q] [--seconds S] [--no-relevance] [--no-peers] [--no-http]`:
// first relevance on the demo build (relevance.ts: recall@10 and MRR per language for inflected,
// misspelled and exact words, beside Pagefind, Orama and MiniSearch); then search at N
// synthetic essays x 14 languages (default 1,000) on a varied query set drawn from the corpus, so
// query words follow its Zipf frequencies (single words, two words, prefixes). Prints, from one run:
// Folio in-process (p50/p99, recall per language), the peers (Orama, MiniSearch, FlexSearch with
// default options, over the same texts and queries) with a ratio line, the server's start figures,
// and HTTP at 50 connections against the same server's /status (wrk with a request list, else fetch),
// with the answer cache on and off (off: every request searches; its ratio to /status, issue 39).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import MiniSearch from 'minisearch';
import { Encoder, Index } from 'flexsearch';
import { buildBundle } from '../src/pipeline/bundle.ts';
import { diskBundle, loadCore } from '../src/bundle/load-bundle.ts';
import { LANGUAGE_CODES } from '../src/core/languages.ts';
import { loadSearchSource } from '../src/search/load-source.ts';
import { tokens } from '../src/search/encoders.ts';
import { startServer } from '../tests/helpers/server.ts';
import { writeCorpus } from './synthetic-corpus.ts';
import { relevanceBench } from './relevance.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'queries-per-language': { type: 'string', default: '100' }, seconds: { type: 'string', default: '8' }, 'no-relevance': { type: 'boolean' }, 'no-peers': { type: 'boolean' }, 'no-http': { type: 'boolean' } },
});
if (!values['no-relevance']) {
  if (existsSync('dist/current/bundle/main/search')) await relevanceBench();
  else console.log('relevance: not run (no demo build: npm run build -- --target all)');
}
const count = Number(positionals[0] ?? 1000);
const perLanguage = Number(values['queries-per-language']);
const WORK = resolve('bench/.corpus');
const content = `${WORK}/content-${count}`;
const serveRoot = `${WORK}/serve-${count}`;
// A build of its own whose main bundle is the synthetic corpus; pages and sandbox are the demo's.
const build = `${serveRoot}/dist/builds/bench`;
const bundle = `${build}/bundle/main`;

const WARM_UP_S = 2;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ms = (n: number) => `${n.toFixed(3)} ms`;
/** In-process times are printed in µs: a peer's look-up takes less than one. */
const us = (n: number) => `${(n * 1000).toFixed(1)} µs`;
/** Raw percentiles over every run, and p99 over each query's best of three (what is left when the machine's stalls are taken out). */
const line = (name: string, xs: number[], best: number[], recall: number) =>
  `${name.padEnd(11)} p50 ${us(pct(xs, 50)).padStart(8)}  p99 ${us(pct(xs, 99)).padStart(8)}  p99 best-of-3 ${us(pct(best, 99)).padStart(8)}  recall ${(recall * 100).toFixed(1)} %`;

if (!existsSync(content)) await writeCorpus(content, count, 'content/posts/tidal-energy/figure-1.jpg');
if (!existsSync(`${bundle}/search/en.words.bin`) || process.env.REBUILD) {
  console.log(`building the search bundle for ${count} x 14 ...`);
  await buildBundle({ contentDir: content, outDir: bundle, base: '', cacheDir: `${WORK}/cache` });
}

// What the index costs on disk per language set, and what the stems add (the only file word forms add).
const sizes = await Promise.all((await readdir(`${bundle}/search`)).map(async (f) => [f, (await stat(`${bundle}/search/${f}`)).size] as const));
const sum = (test: (f: string) => boolean) => sizes.reduce((a, [f, n]) => a + (test(f) ? n : 0), 0);
const indexBytes = sum((f) => /\.(index\.bin|index\.json|vocabulary\.json|words\.bin|runs\.\d+\.bin)$/.test(f));
const stemBytes = sum((f) => f.endsWith('.stems.json'));
console.log(`index size: ${(indexBytes / 1e6).toFixed(1)} MB (index and vocabulary) + ${(stemBytes / 1e6).toFixed(1)} MB of stems: +${((stemBytes / indexBytes) * 100).toFixed(1)} % for word forms; snippet texts ${(sum((f) => /\.texts\.(\d+\.bin|json)$/.test(f)) / 1e6).toFixed(1)} MB`);

const core = await loadCore(bundle);
const posts = core.catalog.posts;
// Every part of every language read and held: the index whole in memory (bench:search-memory measures it read in parts).
const loaded = await loadSearchSource(diskBundle(bundle), posts.length);
const source = await loaded.whole();

/** Each post's searchable text in a language (what the index holds: title, summary, terms, body), or undefined. */
const docs = new Map(
  LANGUAGE_CODES.map((lang) => [
    lang,
    posts.map((p, id) => {
      const body = source.text(lang, id);
      const e = p.entries[lang];
      return body === undefined || !e ? undefined : [e.title, e.summary ?? '', ...p.categories.map((t) => t.name), ...p.tags.map((t) => t.name), body].join(' \n ');
    }),
  ]),
);

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** Words at random positions of random posts: frequent words come up as often as they occur. */
const queries: [string, string][] = [];
for (const lang of LANGUAGE_CODES) {
  const r = rng(LANGUAGE_CODES.indexOf(lang) + 11);
  const texts = docs.get(lang)!.filter((t): t is string => t !== undefined);
  const word = () => {
    const ws = tokens(lang, texts[Math.floor(r() * texts.length)]!.slice(0, 4000)).filter((w) => [...w].length >= 2);
    return ws[Math.floor(r() * ws.length)]!;
  };
  for (let i = 0; i < perLanguage; i++) {
    const kind = r();
    const w = word();
    // 70 % one word, 15 % two words, 15 % a prefix (the start of a longer word).
    queries.push([lang, kind < 0.7 ? w : kind < 0.85 ? `${w} ${word()}` : [...w].slice(0, Math.max(2, [...w].length - 2)).join('')]);
  }
}

/** The truth for recall: posts in which every query word is a word's start (in Chinese and Japanese, part of a word). */
const CONTAINS = new Set(['zh', 'ja']);
const wordsOf = new Map(LANGUAGE_CODES.map((lang) => [lang, docs.get(lang)!.map((t) => (t === undefined ? undefined : [...new Set(tokens(lang, t))]))]));
function truth(lang: string, q: string): Set<number> {
  const qs = [...new Set(tokens(lang, q))];
  const out = new Set<number>();
  wordsOf.get(lang)!.forEach((ws, id) => {
    if (ws && qs.every((w) => ws.some((d) => (CONTAINS.has(lang) ? d.includes(w) : d.startsWith(w))))) out.add(id);
  });
  return out;
}
const truths = queries.map(([lang, q]) => truth(lang, q));
const recallOf = (found: Iterable<number>[]) => {
  let hit = 0;
  let all = 0;
  truths.forEach((t, i) => {
    const f = new Set(found[i]);
    for (const id of t) if (f.has(id)) hit++;
    all += t.size;
  });
  return all === 0 ? 1 : hit / all;
};

// Folio, in-process: the core's whole answer (a page of 10 with snippets, totals, images).
const time = (run: () => unknown) => {
  const t = performance.now();
  run();
  return performance.now() - t;
};
// Awaited: the answer is made after the core's await of the languages (timing the call alone timed no search).
for (const [lang, q] of queries) await core.search(new URLSearchParams({ q, lang }));
const folio: number[] = [];
const folioBest = queries.map(() => Infinity);
for (let round = 0; round < 3; round++) {
  for (const [i, [lang, q]] of queries.entries()) {
    const t = performance.now();
    await core.search(new URLSearchParams({ q, lang }));
    folio.push(performance.now() - t);
    folioBest[i] = Math.min(folioBest[i]!, folio.at(-1)!);
  }
}
const folioFound = queries.map(([lang, q]) => source.match(lang, q).ids);
// The peers' unit of work: the ranked ids of the matching posts, without building the answer.
const folioIds = queries.map(([lang, q]) => Math.min(...[0, 1, 2].map(() => time(() => source.match(lang, q)))));
const perLang = LANGUAGE_CODES.map((lang) => {
  const idx = queries.flatMap(([l], i) => (l === lang ? [i] : []));
  let hit = 0;
  let all = 0;
  for (const i of idx) {
    const f = new Set(folioFound[i]);
    for (const id of truths[i]!) if (f.has(id)) hit++;
    all += truths[i]!.size;
  }
  return `${lang} ${all === 0 ? 100 : ((hit / all) * 100).toFixed(1)}`;
});
console.log(`queries: ${queries.length} (${perLanguage} per language: 70 % one word, 15 % two, 15 % prefixes), ${count} x 14 posts; a shared, busy machine: figures are indicative`);
console.log(line('Folio', folio, folioBest, recallOf(folioFound)) + '  (the whole answer: page of 10, snippets, total, images)');
console.log(line('Folio ids', folioIds, folioIds, recallOf(folioFound)) + '  (matching and ranking only, the work a peer does; best of 3)');
console.log(`Folio recall per language (%): ${perLang.join(', ')}`);

// Peers: one index per language at a time (memory stays that of one language), default options.
interface Peer {
  name: string;
  build(texts: (string | undefined)[], lang: string): Promise<{ query(q: string, limit: number): number[] }>;
}
const PEERS: Peer[] = [
  {
    name: 'Orama',
    async build(texts) {
      const db = create({ schema: { text: 'string' } as const });
      await insertMultiple(db, texts.flatMap((text, id) => (text === undefined ? [] : [{ id: String(id), text }])));
      return { query: (term, limit) => (oramaSearch(db, { term, limit }) as { hits: { id: string }[] }).hits.map((h) => Number(h.id)) };
    },
  },
  {
    name: 'MiniSearch',
    async build(texts) {
      const ms = new MiniSearch<{ id: number; text: string }>({ fields: ['text'] });
      ms.addAll(texts.flatMap((text, id) => (text === undefined ? [] : [{ id, text }])));
      return { query: (q, limit) => ms.search(q).slice(0, limit).map((h) => h.id as number) };
    },
  },
  {
    name: 'FlexSearch',
    async build(texts) {
      const index = new Index();
      texts.forEach((text, id) => text !== undefined && index.add(id, text));
      return { query: (q, limit) => index.search(q, { limit }) as number[] };
    },
  },
  {
    // FlexSearch set to reach Folio's recall: Folio's words (folding, segmentation) indexed with
    // every prefix (every part of a word in Chinese and Japanese), so prefixes are found in one look-up.
    name: 'FlexSearch+',
    async build(texts, lang) {
      const index = new Index({ tokenize: CONTAINS.has(lang) ? 'full' : 'forward', encoder: new Encoder({ normalize: false, split: ' ', dedupe: false, numeric: false, minlength: 1 }) });
      texts.forEach((text, id) => text !== undefined && index.add(id, tokens(lang, text).join(' ')));
      return { query: (q, limit) => index.search(tokens(lang, q).join(' '), { limit }) as number[] };
    },
  },
];
if (!values['no-peers']) {
  const results: { name: string; p50: number; best: number[]; recall: number }[] = [];
  for (const peer of PEERS) {
    const lat: number[] = [];
    const each: number[] = [];
    const found: number[][] = [];
    let built = 0;
    for (const lang of LANGUAGE_CODES) {
      const t = performance.now();
      const engine = await peer.build(docs.get(lang)!, lang);
      built += performance.now() - t;
      queries.forEach(([l, q], i) => {
        if (l !== lang) return;
        // Timed on the call whose answer the recall is measured on: every matching id, as Folio ids.
        found[i] = engine.query(q, posts.length);
        const rounds = [0, 1, 2].map(() => time(() => engine.query(q, posts.length)));
        lat.push(...rounds);
        each[i] = Math.min(...rounds);
      });
    }
    const recall = recallOf(found);
    results.push({ name: peer.name, p50: pct(lat, 50), best: each, recall });
    // The queries this peer answers completely, Folio's ids against the peer's on them (best of 3 each).
    const complete = truths.flatMap((t, i) => ([...t].every((id) => found[i]!.includes(id)) ? [i] : []));
    const equal = `on the ${complete.length} queries it answers completely: p50 ${us(pct(complete.map((i) => each[i]!), 50))} vs Folio ids ${us(pct(complete.map((i) => folioIds[i]!), 50))}`;
    console.log(`${line(peer.name, lat, each, recall)}  (built in ${(built / 1000).toFixed(1)} s; ${equal})`);
  }
  const fastest = Math.min(...results.map((r) => r.p50));
  console.log(`ratio Folio answer/fastest peer at p50: ${(pct(folio, 50) / fastest).toFixed(2)}x, Folio ids/fastest peer: ${(pct(folioIds, 50) / fastest).toFixed(2)}x (below 1: Folio is faster)`);
  // At equal recall: the peers that find what Folio finds, each query's best of three on both sides.
  const folioRecall = recallOf(folioFound);
  const equals = results.filter((r) => r.recall >= folioRecall - 0.001);
  for (const r of equals) {
    const [p50, p99] = [pct(r.best, 50) / pct(folioIds, 50), pct(r.best, 99) / pct(folioIds, 99)];
    console.log(`at equal recall (${(folioRecall * 100).toFixed(1)} %): ${r.name} p50 ${us(pct(r.best, 50))} p99 ${us(pct(r.best, 99))} vs Folio ids p50 ${us(pct(folioIds, 50))} p99 ${us(pct(folioIds, 99))}: Folio ${p50.toFixed(2)}x faster at p50, ${p99.toFixed(2)}x at p99 (above 1: Folio is faster)`);
  }
  if (equals.length === 0) console.log(`at equal recall: no peer reaches Folio's ${(folioRecall * 100).toFixed(1)} %`);
}

// Start: the same server the tests start, over this bundle (median of three starts), and over the demo build as the baseline.
const slowest = Math.max(...loaded.loadMs.values());
if (values['no-http']) process.exit(0);
for (const link of ['site', 'bundle/sandbox', 'manifest.json', 'manifest']) {
  await rm(`${build}/${link}`, { force: true });
  await symlink(resolve('dist/current', link), `${build}/${link}`);
}
await rm(`${serveRoot}/dist/current`, { force: true });
await symlink('builds/bench', `${serveRoot}/dist/current`);
const env = { FOLIO_DIST_ROOT: serveRoot, RATE_LIMIT: '0', EVENT_SIGNING_SECRET: 'bench' };
async function readyMs(vars: Record<string, string>): Promise<number> {
  const t = performance.now();
  const s = await startServer(vars);
  const ms = performance.now() - t;
  await s.stop();
  return ms;
}
const readies = [await readyMs(env), await readyMs(env), await readyMs(env)];
const demoReady = await readyMs({ RATE_LIMIT: '0' });
const server = await startServer(env);
try {
  const firsts: number[] = [];
  for (const lang of LANGUAGE_CODES) {
    const t = performance.now();
    await (await fetch(`${server.url}/api/search?q=zz&lang=${lang}`)).arrayBuffer();
    firsts.push(performance.now() - t);
  }
  console.log(`first searches (ms): ${firsts.map((f) => f.toFixed(0)).join(" ")}`);
  console.log(`start: server ready in ${pct(readies, 50).toFixed(0)} ms (spawn to listening, median of 3; target <= 1000), the demo build's in ${demoReady.toFixed(0)} ms`);
  console.log(`start: a language opens on its first search in at most ${slowest.toFixed(1)} ms in-process (target <= 50; the others then load in the background); first search per language over HTTP, from a fresh server: max ${Math.max(...firsts).toFixed(1)} ms`);

  const searchPaths = queries.map(([lang, q]) => `/api/search?q=${encodeURIComponent(q)}&lang=${lang}`);
  const wrk = spawnSync('wrk', ['--version']).error === undefined;
  // Each load is measured after a warm-up of the same load (WARM_UP_S, not counted): the first
  // second of a fresh process is the JIT compiling and, for search, the other languages loading
  // in the background; both are reported apart above (start figures).
  const run = async (url: string, paths: string[]) => {
    if (!wrk) return loadFetch(url, paths);
    await loadWrk(url, paths, WARM_UP_S);
    return loadWrk(url, paths, Number(values.seconds));
  };
  const status = await run(server.url, ['/status']);
  const searched = await run(server.url, searchPaths);
  const tool = wrk ? `wrk, after ${WARM_UP_S} s of the same load` : 'fetch (wrk not installed)';
  console.log(`HTTP search, 50 connections (${tool}):  p50 ${ms(searched.p50)}  p99 ${ms(searched.p99)}  ${searched.rps.toFixed(0)} req/s`);
  console.log(`baseline, HTTP /status:               p50 ${ms(status.p50)}  p99 ${ms(status.p99)}  ${status.rps.toFixed(0)} req/s`);
  console.log(`ratio search//status req/s: ${(searched.rps / status.rps).toFixed(2)}x (target >= 0.5, search p99 <= 10 ms)`);
  await server.stop();
  // The same queries with the answer cache off: every request runs the search. Issue 39 asks for it
  // within 2x of /status: /status is measured again on the same server right before, in the same minutes.
  const uncached = await startServer({ ...env, ANSWER_CACHE_MB: '0' });
  try {
    const near = await run(uncached.url, ['/status']);
    const raw = await run(uncached.url, searchPaths);
    console.log(`HTTP search, answer cache off (ANSWER_CACHE_MB=0):  p50 ${ms(raw.p50)}  p99 ${ms(raw.p99)}  ${raw.rps.toFixed(0)} req/s`);
    console.log(`baseline, HTTP /status on that server:             p50 ${ms(near.p50)}  p99 ${ms(near.p99)}  ${near.rps.toFixed(0)} req/s`);
    console.log(`ratio uncached search//status: p50 ${(raw.p50 / near.p50).toFixed(2)}x, req/s ${(near.rps / raw.rps).toFixed(2)}x slower (target <= 2x)`);
  } finally {
    await uncached.stop();
  }
} finally {
  await server.stop();
}

interface Load {
  p50: number;
  p99: number;
  rps: number;
}

/** wrk, 2 threads, 50 connections, each connection walking the request list from its own offset. */
async function loadWrk(url: string, paths: string[], seconds: number): Promise<Load> {
  const list = `${WORK}/wrk-paths.txt`;
  const script = `${WORK}/wrk-list.lua`;
  await writeFile(list, paths.join('\n'));
  await writeFile(
    script,
    `local paths = {}
for l in io.lines("${list}") do paths[#paths + 1] = l end
local i = 0
function setup(thread) i = i + 1; thread:set("offset", i * 7919) end
function init(args) n = offset end
function request() n = n + 1; return wrk.format("GET", paths[(n % #paths) + 1]) end
function done(summary, latency, requests)
  io.write(string.format("RESULT %f %f %f\\n", latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.requests / (summary.duration / 1e6)))
  io.write(string.format("ERRORS %d %d\\n", summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
`,
  );
  const out = spawnSync('wrk', ['-t2', '-c50', `-d${seconds}s`, '-s', script, url], { encoding: 'utf8' });
  const m = /RESULT (\S+) (\S+) (\S+)/.exec(out.stdout);
  if (!m) throw new Error(`wrk: ${out.stdout}${out.stderr}`);
  const errors = /ERRORS (\d+) (\d+)/.exec(out.stdout)!;
  if (errors[1] !== '0') throw new Error(`wrk saw ${errors[1]} non-2xx answers`);
  return { p50: Number(m[1]), p99: Number(m[2]), rps: Number(m[3]) };
}

/** Without wrk: fetch from 50 concurrent loops over the list, twice through. */
async function loadFetch(url: string, paths: string[]): Promise<Load> {
  const all = Array.from({ length: Math.max(5000, paths.length * 2) }, (_, i) => paths[i % paths.length]!);
  const lat: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < all.length) {
        const path = all[next++]!;
        const t = performance.now();
        const res = await fetch(url + path);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${path} -> ${res.status}`);
        lat.push(performance.now() - t);
      }
    }),
  );
  return { p50: pct(lat, 50), p99: pct(lat, 99), rps: (all.length / (performance.now() - started)) * 1000 };
}
