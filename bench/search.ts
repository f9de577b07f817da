// `npm run bench:search -- [N]`: search latency and index import time on N synthetic essays x 14
// languages. Baselines from the same run: a linear scan over the same texts (in-process) and the
// same server's /status (over HTTP).
import { existsSync } from 'node:fs';
import { readFile, rm, symlink } from 'node:fs/promises';
import { resolve } from 'node:path';
import { buildBundle } from '../src/build/bundle.ts';
import { diskBundle, loadCore } from '../src/build/load-bundle.ts';
import { LANGUAGE_CODES } from '../src/core/languages.ts';
import { loadSearchSource } from '../src/search/load-source.ts';
import { decodeIndex, type IndexHeader } from '../src/search/index-codec.ts';
import { importIndex } from '../src/search/search-index.ts';
import { fold, tokens } from '../src/search/encoders.ts';
import { startServer } from '../tests/helpers/server.ts';
import { writeCorpus } from './synthetic-corpus.ts';

const count = Number(process.argv[2] ?? 1000);
const WORK = resolve('bench/.corpus');
const content = `${WORK}/content-${count}`;
const serveRoot = `${WORK}/serve-${count}`;
// A build of its own whose main bundle is the synthetic corpus; pages and sandbox are the demo's.
const build = `${serveRoot}/dist/builds/bench`;
const bundle = `${build}/bundle/main`;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(3)} ms  p95 ${pct(xs, 95).toFixed(3)} ms  p99 ${pct(xs, 99).toFixed(3)} ms`;

if (!existsSync(content)) await writeCorpus(content, count, 'content/posts/tidal-energy/figure-1.jpg');
if (!existsSync(`${bundle}/search/en.index.bin`) || process.env.REBUILD) {
  console.log(`building the search bundle for ${count} x 14 ...`);
  await buildBundle({ contentDir: content, outDir: bundle, base: '', cacheDir: `${WORK}/cache` });
}

// Index import (what a server start pays), three times.
const core = await loadCore(bundle);
const slugs = core.catalog.posts.map((p) => p.slug);
const imports: number[] = [];
for (let i = 0; i < 3; i++) {
  const s = await loadSearchSource(diskBundle(bundle), slugs);
  s.loadAll();
  imports.push([...s.loadMs.values()].reduce((a, b) => a + b, 0));
}
console.log(`index import, 14 languages: ${fmt(imports).split('  ')[0]!.replace('p50', 'median')}`);
// Baseline in the same run: the same indexes in FlexSearch's own JSON export, parsed and imported.
const exports = await Promise.all(
  LANGUAGE_CODES.map(async (lang) => {
    const vocabulary = JSON.parse(await readFile(`${bundle}/search/${lang}.vocabulary.json`, 'utf8')) as string[];
    const header = JSON.parse(await readFile(`${bundle}/search/${lang}.index.json`, 'utf8')) as IndexHeader;
    return JSON.stringify(decodeIndex(header, await readFile(`${bundle}/search/${lang}.index.bin`), vocabulary));
  }),
);
const jsonImports: number[] = [];
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  for (const text of exports) importIndex(JSON.parse(text) as Record<string, unknown>);
  jsonImports.push(performance.now() - t);
}
console.log(`baseline, FlexSearch JSON export (already in memory): ${fmt(jsonImports).split('  ')[0]!.replace('p50', 'median')}`);
console.log(`ratio compact/JSON import: ${(pct(imports, 50) / pct(jsonImports, 50)).toFixed(2)}x`);

// Queries: words taken from the corpus itself, every language.
const source = await loadSearchSource(diskBundle(bundle), slugs);
const queries: [string, string][] = [];
for (const lang of LANGUAGE_CODES) {
  const slugs = core.catalog.posts.map((p) => p.slug);
  for (let i = 0; i < 100; i++) {
    const ws = tokens(lang, source.text(lang, (i * 37) % slugs.length) ?? '').filter((w) => w.length >= 3);
    if (ws.length > 0) queries.push([lang, ws[(i * 13) % ws.length]!]);
  }
}

const inProcess: number[] = [];
for (const [lang, q] of queries) {
  const t = performance.now();
  core.search(new URLSearchParams({ q, lang }));
  inProcess.push(performance.now() - t);
}
const scan: number[] = [];
const folded = new Map(LANGUAGE_CODES.map((l) => [l, core.catalog.posts.map((_, id) => fold(l, source.text(l, id) ?? ''))]));
for (const [lang, q] of queries) {
  const t = performance.now();
  const needle = fold(lang, q);
  folded.get(lang)!.filter((text) => text.includes(needle));
  scan.push(performance.now() - t);
}
console.log(`in-process search (${queries.length} queries): ${fmt(inProcess)}`);
console.log(`baseline, linear scan:          ${fmt(scan)}`);
console.log(`ratio index/scan at p50: ${(pct(inProcess, 50) / pct(scan, 50)).toFixed(2)}x`);

// Over HTTP, 50 concurrent connections, against the real server serving this bundle.
for (const link of ['site', 'bundle/sandbox', 'manifest.json']) {
  await rm(`${build}/${link}`, { force: true });
  await symlink(resolve('dist/current', link), `${build}/${link}`);
}
await rm(`${serveRoot}/dist/current`, { force: true });
await symlink('builds/bench', `${serveRoot}/dist/current`);
const server = await startServer({ FOLIO_DIST_ROOT: serveRoot, RATE_LIMIT: '0', EVENT_SIGNING_SECRET: 'bench' });
async function load(paths: string[], concurrency = 50): Promise<{ lat: number[]; rps: number }> {
  const lat: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < paths.length) {
        const path = paths[next++]!;
        const t = performance.now();
        const res = await fetch(server.url + path);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${path} -> ${res.status}`);
        lat.push(performance.now() - t);
      }
    }),
  );
  return { lat, rps: (paths.length / (performance.now() - started)) * 1000 };
}
try {
  const searchPaths = [...queries, ...queries].map(([lang, q]) => `/api/search?q=${encodeURIComponent(q)}&lang=${lang}`);
  await load(searchPaths.slice(0, 200));
  const http = await load(searchPaths);
  const base = await load(searchPaths.map(() => '/status'));
  console.log(`HTTP search, 50 connections:   ${fmt(http.lat)}  ${http.rps.toFixed(0)} req/s`);
  console.log(`baseline, HTTP /status:        ${fmt(base.lat)}  ${base.rps.toFixed(0)} req/s`);
  console.log(`ratio search//status at p50: ${(pct(http.lat, 50) / pct(base.lat, 50)).toFixed(2)}x`);
} finally {
  await server.stop();
}
