// The relevance part of `npm run bench:search` (issue 32): a test set made from the demo corpus in
// every language (relevance-set.ts), searched by Folio (the core's answer, as every surface gives
// it) and by Pagefind (its index of the built post pages, searched by its own pagefind.js in
// Chromium), Orama (its tokenizer and Snowball stemmer for the language, typo tolerance 1) and
// MiniSearch (fuzzy 0.2 and prefix search). Prints recall@10 and MRR per language and kind, and
// each engine's query time.
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { create, insertMultiple, search as oramaSearch, type AnyOrama } from '@orama/orama';
import MiniSearch from 'minisearch';
import * as pagefind from 'pagefind';
import { chromium } from 'playwright-core';
import { diskBundle, loadCore } from '../src/bundle/load-bundle.ts';
import { loadSearchSource } from '../src/search/load-source.ts';
import { runSearch } from '../src/core/search.ts';
import { language, LANGUAGE_CODES } from '../src/core/languages.ts';
import { segment, tokens } from '../src/search/encoders.ts';
import { stem } from '../src/search/word-forms.ts';
import { CHROMIUM } from '../tests/helpers/chromium.ts';
import { relevanceSet, scores, type Kind, type RelevanceQuery } from './relevance-set.ts';

interface Doc {
  slug: string;
  title: string;
  text: string;
}

/** Orama's names of the languages it stems (its tokenizer's splitters), for ours that have a stemmer. */
const ORAMA_LANGUAGE: Record<string, string> = { en: 'english', es: 'spanish', fr: 'french', 'pt-br': 'portuguese', de: 'german', ru: 'russian', id: 'indonesian', tr: 'turkish', ar: 'arabic', hi: 'indian' };

type Search = (q: string) => string[];

async function orama(lang: string, docs: Doc[]): Promise<Search> {
  const known = ORAMA_LANGUAGE[lang];
  // Without a language of its own Orama splits on Latin letters: it gets Folio's words (segmented in Chinese and Japanese).
  const tokenizer = known
    ? { language: known, stemming: true, stemmer: (w: string) => stem(lang, w) }
    : { language: 'english', normalizationCache: new Map(), tokenize: (raw: string) => tokens(lang, raw) };
  const db: AnyOrama = create({ schema: { slug: 'string', title: 'string', text: 'string' } as const, components: { tokenizer: tokenizer as never } });
  await insertMultiple(db, docs);
  return (term) => (oramaSearch(db, { term, properties: ['title', 'text'], tolerance: 1, limit: 10 }) as { hits: { document: { slug: string } }[] }).hits.map((h) => h.document.slug);
}

function miniSearch(lang: string, docs: Doc[]): Search {
  const ms = new MiniSearch<Doc>({ idField: 'slug', fields: ['title', 'text'], storeFields: ['slug'], tokenize: (t) => segment(lang, t).split(/[^\p{L}\p{M}\p{N}]+/u).filter(Boolean), searchOptions: { fuzzy: 0.2, prefix: true, boost: { title: 2 } } });
  ms.addAll(docs);
  return (q) => ms.search(q).slice(0, 10).map((h) => h.id as string);
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.json': 'application/json', '.wasm': 'application/wasm', '.css': 'text/css' };

/**
 * Pagefind over the built post pages (their `<article>`), searched in Chromium by its own script from
 * a page in each language. Returns per query its top 10 slugs and search time (ms), or why it could not run.
 */
async function pagefindRuns(site: string, slugs: readonly string[], queries: readonly RelevanceQuery[]): Promise<{ found: string[][]; ms: number[] } | string> {
  if (!existsSync(CHROMIUM)) return `Chromium not found at ${CHROMIUM}`;
  const root = await mkdtemp(join(tmpdir(), 'folio-pagefind-'));
  try {
    for (const lang of LANGUAGE_CODES) {
      const dir = lang === 'en' ? '' : `${lang}/`;
      for (const slug of slugs) {
        const page = join(site, `${dir}${slug}.html`);
        if (!existsSync(page)) continue;
        await mkdir(join(root, 'posts', dir), { recursive: true });
        await cp(page, join(root, 'posts', `${dir}${slug}.html`));
      }
      await writeFile(join(root, `search-${lang}.html`), `<!doctype html><html lang="${language(lang).html_lang}"><head><meta charset="utf-8"></head><body></body></html>`);
    }
    const { index, errors } = await pagefind.createIndex({ rootSelector: 'article' });
    if (!index) return `pagefind: ${errors.join('; ')}`;
    await index.addDirectory({ path: join(root, 'posts') });
    await index.writeFiles({ outputPath: join(root, 'pagefind') });
    await pagefind.close();
    const server = createServer(async (req, res) => {
      const path = join(root, decodeURIComponent(new URL(req.url!, 'http://x').pathname));
      const body = await readFile(path).catch(() => undefined);
      res.writeHead(body ? 200 : 404, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const { port } = server.address() as { port: number };
      const found: string[][] = [];
      const ms: number[] = [];
      for (const lang of LANGUAGE_CODES) {
        const page = await browser.newPage();
        await page.goto(`http://127.0.0.1:${port}/search-${lang}.html`);
        const mine = queries.flatMap((q, i) => (q.lang === lang ? [i] : []));
        const answers = await page.evaluate(async (qs: string[]) => {
          const pf = await import('/pagefind/pagefind.js' as string);
          await pf.init();
          const out: { urls: string[]; ms: number }[] = [];
          for (const q of qs) {
            await pf.search(q);
            const t = performance.now();
            const r = await pf.search(q);
            const ms = performance.now() - t;
            const urls = await Promise.all(r.results.slice(0, 10).map(async (x: { data(): Promise<{ url: string }> }) => (await x.data()).url));
            out.push({ urls, ms });
          }
          return out;
        }, mine.map((i) => queries[i]!.q));
        mine.forEach((i, k) => {
          found[i] = answers[k]!.urls.map((u) => u.replace(/\.html$/, '').split('/').pop()!);
          ms[i] = answers[k]!.ms;
        });
        await page.close();
      }
      return { found, ms };
    } finally {
      await browser.close();
      server.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const KINDS: Kind[] = ['inflected', 'typo', 'exact'];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

export async function relevanceBench(dist = resolve('dist/current')): Promise<void> {
  const core = await loadCore(`${dist}/bundle/main`);
  const posts = core.catalog.posts;
  const source = await (await loadSearchSource(diskBundle(`${dist}/bundle/main`), posts.length, { warm: false })).whole();
  const queries: RelevanceQuery[] = [];
  const docs = new Map<string, Doc[]>();
  for (const lang of LANGUAGE_CODES) {
    const own = posts.flatMap((p, id) => {
      const e = p.entries[lang];
      const body = e ? source.text(lang, id) : undefined;
      return body === undefined || !e ? [] : [{ slug: p.slug, title: e.title, text: `${e.title}\n${e.summary ?? ''}\n${body}` }];
    });
    docs.set(lang, own);
    queries.push(...relevanceSet(lang, language(lang).locale, own));
  }
  const engines: { name: string; found: string[][]; ms: number[] }[] = [];
  const time = (run: () => string[]) => {
    const t = performance.now();
    const out = run();
    return [out, performance.now() - t] as const;
  };
  const runAll = (name: string, make: (lang: string) => Search | Promise<Search>) => async () => {
    const found: string[][] = [];
    const ms: number[] = [];
    for (const lang of LANGUAGE_CODES) {
      const search = await make(lang);
      queries.forEach((q, i) => {
        if (q.lang !== lang) return;
        search(q.q);
        [found[i], ms[i]] = time(() => search(q.q));
      });
    }
    engines.push({ name, found, ms });
  };
  await runAll('Folio', (lang) => (q) => runSearch(core.index, source, new URLSearchParams({ q, lang })).body.data.map((d) => d.slug))();
  await runAll('Orama', (lang) => orama(lang, docs.get(lang)!))();
  await runAll('MiniSearch', (lang) => miniSearch(lang, docs.get(lang)!))();
  const pf = await pagefindRuns(`${dist}/site/client`, posts.map((p) => p.slug), queries);
  if (typeof pf === 'string') console.log(`Pagefind: not run (${pf})`);
  else engines.push({ name: 'Pagefind', ...pf });

  console.log(`relevance set from the demo corpus: ${queries.length} queries (${KINDS.map((k) => `${queries.filter((q) => q.kind === k).length} ${k}`).join(', ')}); recall@10 / MRR per language`);
  for (const kind of KINDS) {
    console.log(`${kind}:`);
    for (const e of engines) {
      const cells = LANGUAGE_CODES.flatMap((lang) => {
        const mine = queries.flatMap((q, i) => (q.lang === lang && q.kind === kind ? [i] : []));
        if (mine.length === 0) return [];
        const s = mine.map((i) => scores(e.found[i]!, queries[i]!.relevant));
        const mean = (f: (x: { recall: number; rr: number }) => number) => s.reduce((a, x) => a + f(x), 0) / s.length;
        return [`${lang} ${mean((x) => x.recall).toFixed(2)}/${mean((x) => x.rr).toFixed(2)}`];
      });
      console.log(`  ${e.name.padEnd(10)} ${cells.join('  ')}`);
    }
  }
  for (const e of engines) console.log(`query time ${e.name.padEnd(10)} p50 ${(pct(e.ms, 50) * 1000).toFixed(1)} µs  p99 ${(pct(e.ms, 99) * 1000).toFixed(1)} µs${e.name === 'Pagefind' ? '  (in Chromium, its index fragments cached)' : e.name === 'Folio' ? '  (the whole answer: page of 10, snippets)' : ''}`);
}
