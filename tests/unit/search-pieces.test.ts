import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSearchIndexes } from '../../src/pipeline/index/search-indexes.ts';
import { loadSearchSource, type LoadedSearchSource } from '../../src/search/load-source.ts';
import { diskBundle } from '../../src/bundle/load-bundle.ts';
import type { BundleReader } from '../../src/bundle/reader.ts';
import type { Catalog, PostRecord, SearchView } from '../../src/core/types.ts';

const DOCS: [string, string][] = [
  ['Tides of the harbour', 'The tide walks in twice a day; walking the harbour wall at low tide shows the mapping of the old port.'],
  ['Walking maps', 'Mapping a coast by walking it: maps, mapped walks, and the tides that changed them.'],
  ['Harbour lights', 'Lights along the harbour mark the channel; a lighthouse keeper walked the pier each night.'],
  ['Bakers of the coast', 'Bread from the coast bakeries: sourdough, rye, and the bakers who mapped their routes by the tides.'],
  ['Old ports', 'Ports silt up; harbours move; the maps of old ports show channels long gone.'],
  ['Tidal energy', 'Turbines in the channel turn with every tide, walking pace, day and night.'],
];
const QUERIES = ['tide', 'tid', 'walked', 'mapping', 'harbour walking', 'tidle', 'harbuor', 'bakres', 'lighthouse', 'channel tides', 'zzz', 'map port', 'turbnies', '"old ports"'];

/** A catalog of DOCS in English (`docs` for their titles and bodies), and the text of each. */
function corpus(docs: readonly [string, string][]) {
  const posts: PostRecord[] = docs.map(([title], i) => ({ slug: `p${i}`, date: `2026-01-0${i + 1}T00:00:00Z`, author: 'A', featured_image: null, categories: [], tags: [], images: [], entries: { en: { title, page_reading_time: 1, state: 'available' } } }));
  const catalog = { site_url: 'https://example.org', base: '', site: { serve_stale: false }, term_names: { categories: {}, tags: {} }, posts, pages: [], menu: [] } as unknown as Catalog;
  return { catalog, text: (slug: string) => docs[Number(slug.slice(1))]![1] };
}

const files = async (dir: string) => new Map(await Promise.all((await readdir(dir)).sort().map(async (f) => [f, await readFile(join(dir, f))] as const)));

async function answers(reader: BundleReader): Promise<unknown[]> {
  const loaded: LoadedSearchSource = await loadSearchSource(reader, DOCS.length, { warm: false, present: false, cacheBytes: 1 << 20 });
  const out: unknown[] = [];
  for (const q of QUERIES) {
    const view = await loaded.load(['en']);
    const make = (v: SearchView) => {
      const m = v.match('en', q);
      return { ids: [...m.ids], missing: [...m.ids].map((id) => m.missing(id)), terms: [...m.ids].map((id) => m.terms(id)), texts: [...m.ids].map((id) => v.text('en', id)), forms: v.forms('en', q), suggestion: v.suggest('en', q) };
    };
    let answer = make(view);
    while (await view.readMissing()) answer = make(view);
    out.push(answer);
  }
  return out;
}

test('past its bound, a file that opens a language is written in pieces (the header counts them) and read joined: every answer the same', async (t) => {
  const work = await mkdtemp(join(tmpdir(), 'folio-pieces-'));
  t.after(() => rm(work, { recursive: true, force: true }));
  const { catalog, text } = corpus(DOCS);
  const [whole, cut] = [join(work, 'whole', 'search'), join(work, 'cut', 'search')];
  await writeSearchIndexes(catalog, text, whole);
  await writeSearchIndexes(catalog, text, cut, undefined, 64);
  const [w, c] = [await files(whole), await files(cut)];
  assert.ok(w.has('en.vocabulary.json') && ![...w.keys()].some((f) => /^en\.(vocabulary|stems|words)\.\d+\./.test(f)), 'within the bound: whole, as before');
  assert.equal(JSON.parse(w.get('en.index.json')!.toString()).pieces, undefined);
  const header = JSON.parse(c.get('en.index.json')!.toString());
  for (const [file, name] of [['words.bin', /^en\.words\.\d+\.bin$/], ['vocabulary.json', /^en\.vocabulary\.\d+\.json$/], ['stems.json', /^en\.stems\.\d+\.json$/]] as const) {
    const pieces = [...c.keys()].filter((f) => name.test(f));
    assert.ok(pieces.length >= 2 && header.pieces[file] === pieces.length, `${file}: ${pieces.length} pieces`);
    assert.ok(!c.has(`en.${file}`), `${file} not also whole`);
    assert.ok(pieces.every((f) => c.get(f)!.byteLength <= 64));
    assert.deepEqual(Buffer.concat(pieces.sort((a, b) => Number(a.split('.')[2]) - Number(b.split('.')[2])).map((f) => c.get(f)!)), w.get(`en.${file}`), `${file}: its pieces joined are the whole file`);
  }
  for (const [f, bytes] of w) if (!/^en\.(index\.json|vocabulary\.json|stems\.json|words\.bin)$/.test(f)) assert.deepEqual(c.get(f), bytes, f);
  // Read from a disk (synchronously) and by a host (asynchronously, as through a CDN): the same answers.
  const expected = await answers(diskBundle(join(work, 'whole')));
  assert.ok((expected[0] as { ids: number[] }).ids.length > 0);
  assert.deepEqual(await answers(diskBundle(join(work, 'cut'))), expected);
  assert.deepEqual(await answers({ read: diskBundle(join(work, 'cut')).read }), expected);
});

test('a build takes a language in pieces from the live build, and updates one from its pieces as a clean build writes it', async (t) => {
  const work = await mkdtemp(join(tmpdir(), 'folio-pieces-'));
  t.after(() => rm(work, { recursive: true, force: true }));
  const before = corpus(DOCS);
  const live = join(work, 'live');
  await writeSearchIndexes(before.catalog, before.text, live, undefined, 64);
  // Nothing changed: every file taken, pieces included.
  const taken = join(work, 'taken');
  assert.equal((await writeSearchIndexes(before.catalog, before.text, taken, { dir: live }, 64)).taken, 14);
  assert.deepEqual(await files(taken), await files(live));
  // One post changed: updated from the live pieces, equal to a clean build of the new posts.
  const edited = DOCS.map(([title, body], i): [string, string] => (i === 2 ? [title, `${body} A foghorn sounds.`] : [title, body]));
  const after = corpus(edited);
  const next = join(work, 'next');
  const clean = join(work, 'clean');
  const { updated } = await writeSearchIndexes(after.catalog, after.text, next, { dir: live, posts: { slugs: DOCS.map((_, i) => `p${i}`), changed: new Set(['p2']) } }, 64);
  assert.equal(updated, 1);
  await writeSearchIndexes(after.catalog, after.text, clean, undefined, 64);
  assert.deepEqual(await files(next), await files(clean));
  assert.ok(existsSync(join(next, 'en.vocabulary.0.json')) && statSync(join(next, 'en.vocabulary.0.json')).size <= 64);
});
