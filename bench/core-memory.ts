// `node --expose-gc bench/core-memory.ts BUNDLE`: the live heap (after a full GC) a core loaded from a
// bundle folder on disk holds, as the server and a build's steps load it (src/bundle/load-bundle.ts),
// each in a process of its own: the catalog parsed whole (what a host without synchronous reads
// holds of it), the core holding one post's entries (its floor: what grows with the corpus), and the
// core with its default bound (CATALOG_ENTRIES_BYTES), then what lists and term pages in every
// language (with and without the English fallback) and a search in every language add. Each figure
// also divided by the posts (docs/performance.md, "What a loaded core holds").
import { spawnSync } from 'node:child_process';
import { diskBundle, loadCore } from '../src/bundle/load-bundle.ts';
import { readCatalog } from '../src/bundle/catalog-file.ts';
import { LANGUAGE_CODES } from '../src/core/languages.ts';

const [dir, mode] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (!dir || !gc) throw new Error('usage: node --expose-gc bench/core-memory.ts <bundle folder, e.g. dist/current/bundle/main>');
if (!mode) {
  for (const m of ['whole', 'floor', 'default']) {
    const run = spawnSync(process.execPath, ['--expose-gc', import.meta.filename, dir, m], { stdio: 'inherit' });
    if (run.status !== 0) process.exit(run.status ?? 1);
  }
  process.exit(0);
}
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
let base = heap();
const step = (label: string, posts: number) => {
  const now = heap();
  console.log(`${label}: ${((now - base) / 1e6).toFixed(2)} MB, ${((now - base) / posts).toFixed(0)} B a post`);
  base = now;
};

if (mode === 'whole') {
  const catalog = (await readCatalog(diskBundle(dir).read))!;
  console.log(`${catalog.posts.length} posts`);
  step('the catalog parsed whole', catalog.posts.length);
} else {
  const core = await loadCore(dir, { warm: false, ...(mode === 'floor' ? { catalogEntriesBytes: 0 } : {}) });
  const posts = core.catalog.posts.length;
  step(mode === 'floor' ? "a core holding one post's entries (catalogEntriesBytes 0), search not opened" : 'a core, default bounds, search not opened', posts);
  if (mode === 'default') {
    const q = (o: Record<string, string>) => new URLSearchParams(o);
    for (const lang of LANGUAGE_CODES) {
      for (const fallback of [{}, { fallback: 'en' }] as Record<string, string>[]) {
        core.posts.list(q({ lang, ...fallback }));
        for (const kind of ['tags', 'categories'] as const) for (const [slug] of core.index.terms[kind]) core.terms.posts(kind, slug, q({ lang, ...fallback }));
      }
    }
    step('+ lists and term pages in every language', posts);
    const word = core.catalog.posts[0]!.entries.en!.title.split(/\s+/)[0]!;
    for (const lang of LANGUAGE_CODES) await core.search(q({ q: word, lang, fallback: 'en' }));
    step('+ a search in every language (its word lists, and the parts read within ARTEFACT_CACHE_MB)', posts);
    console.log(`heap in all: ${(heap() / 1e6).toFixed(2)} MB`);
  }
}
