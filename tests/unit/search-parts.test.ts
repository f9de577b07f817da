import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeIndex, splitIndex } from '../../src/search/index-codec.ts';
import { postStats, type SearchDoc } from '../../src/search/relevance.ts';
import { createIndex, exportIndex, indexText } from '../../src/search/search-index.ts';
import { stemTable } from '../../src/search/stem-groups.ts';
import { splitTexts, textPartFile, textsFile } from '../../src/search/texts-codec.ts';
import { loadSearchSource, type LoadedSearchSource } from '../../src/search/load-source.ts';
import type { SearchView } from '../../src/core/types.ts';

const DOCS: [string, string][] = [
  ['Tides of the harbour', 'The tide walks in twice a day; walking the harbour wall at low tide shows the mapping of the old port.'],
  ['Walking maps', 'Mapping a coast by walking it: maps, mapped walks, and the tides that changed them.'],
  ['Harbour lights', 'Lights along the harbour mark the channel; a lighthouse keeper walked the pier each night.'],
  ['Bakers of the coast', 'Bread from the coast bakeries: sourdough, rye, and the bakers who mapped their routes by the tides.'],
  ['Old ports', 'Ports silt up; harbours move; the maps of old ports show channels long gone.'],
  ['Tidal energy', 'Turbines in the channel turn with every tide, walking pace, day and night.'],
];

/** The files of an English index over DOCS, its runs and texts cut in parts of `partBytes` (a huge bound: one part each). */
async function files(partBytes: number): Promise<Map<string, Uint8Array>> {
  const index = createIndex();
  const vocabulary = new Set<string>();
  const indexed: SearchDoc[] = DOCS.map(([title, body], id) => ({ id, all: indexText('en', `${title} \n ${body}`), head: indexText('en', title) }));
  for (const doc of indexed) {
    for (const w of doc.all.split(' ')) vocabulary.add(w);
    index.add(doc);
  }
  const words = [...vocabulary].sort();
  const { header, data } = encodeIndex(await exportIndex(index), words, postStats(indexed, words));
  const cut = splitIndex(header, data, words.length, partBytes);
  const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
  const out = new Map<string, Uint8Array>([
    ['search/en.index.json', json(cut.header)],
    ['search/en.words.bin', cut.words],
    ['search/en.vocabulary.json', json(words)],
    ['search/en.stems.json', json(stemTable('en', words))],
  ]);
  cut.parts.forEach((part, k) => out.set(`search/en.runs.${k}.bin`, part));
  const texts = splitTexts(DOCS.map(([t, b]) => `${t} \n ${b}`), partBytes);
  out.set(`search/${textsFile('en')}`, json(texts.index));
  texts.parts.forEach((part, k) => out.set(`search/${textPartFile('en', k)}`, part));
  return out;
}

/** A search source over `files`, counting the reads of each file, through a cache of `cacheBytes`. */
async function source(files: Map<string, Uint8Array>, cacheBytes: number) {
  const reads = new Map<string, number>();
  const loaded = await loadSearchSource({ read: async (name) => (reads.set(name, (reads.get(name) ?? 0) + 1), files.get(name)) }, DOCS.length, { warm: false, present: false, cacheBytes });
  return { loaded, reads };
}

/** As the core answers: again until the view lacked no part. */
async function answer<T>(loaded: LoadedSearchSource, make: (view: SearchView) => T): Promise<{ out: T; rounds: number }> {
  const view = await loaded.load(['en']);
  for (let rounds = 1; ; rounds++) {
    const out = make(view);
    if (!(await view.readMissing())) return { out, rounds };
  }
}

const QUERIES = ['tide', 'tid', 'walked', 'mapping', 'harbour walking', 'tidle', 'harbuor', 'bakres', 'lighthouse', 'channel tides', 'zzz', 'map port', 'turbnies'];
const result = (view: SearchView, q: string) => {
  const m = view.match('en', q);
  return { ids: [...m.ids], missing: [...m.ids].map((id) => m.missing(id)), terms: [...m.ids].map((id) => m.terms(id)), texts: [...m.ids].map((id) => view.text('en', id)), forms: view.forms('en', q), suggestion: view.suggest('en', q) };
};

test('an index read in parts answers every query as the index read whole, through a cache smaller than the index', async () => {
  const whole = await files(1 << 30);
  const cut = await files(16);
  const parts = [...cut.keys()].filter((n) => n.includes('.runs.')).length;
  assert.equal([...whole.keys()].filter((n) => n.includes('.runs.')).length, 1);
  assert.ok(parts >= 10, `${parts} parts`);
  assert.equal([...cut.keys()].filter((n) => n.includes('.texts.') && n.endsWith('.bin')).length, DOCS.length, 'a text a part');
  const one = await source(whole, 1 << 20);
  // A cache of a few parts: parts are dropped and read again between queries.
  const few = await source(cut, 200);
  for (const q of QUERIES) {
    const expected = (await answer(one.loaded, (v) => result(v, q))).out;
    const { out, rounds } = await answer(few.loaded, (v) => result(v, q));
    assert.deepEqual(out, expected, q);
    assert.ok(rounds <= 3, `${q}: ${rounds} rounds`);
  }
});

test('a query of one word reads its part, not the others; a warm query reads nothing', async () => {
  const cut = await files(16);
  const { loaded, reads } = await source(cut, 1 << 20);
  const partsRead = () => [...reads.keys()].filter((n) => n.includes('.runs.'));
  const textsRead = () => [...reads.keys()].filter((n) => n.includes('.texts.') && n.endsWith('.bin'));
  const first = await answer(loaded, (v) => [...v.match('en', 'lighthouse').ids]);
  assert.deepEqual(first.out, [2]);
  assert.equal(first.rounds, 2, 'read once missing, then answered');
  assert.equal(partsRead().length, 1, partsRead().join(' '));
  const again = await answer(loaded, (v) => [...v.match('en', 'lighthouse').ids]);
  assert.deepEqual(again, { out: [2], rounds: 1 });
  assert.equal(reads.get(partsRead()[0]!), 1, 'held by the cache');
  assert.deepEqual(textsRead(), [], 'no text read to match a word');
  // A snippet reads the part of its post's text alone.
  const text = await answer(loaded, (v) => v.text('en', 2));
  assert.equal(text.out, DOCS[2]!.join(' \n '));
  assert.equal(text.rounds, 2);
  assert.deepEqual(textsRead(), [`search/${textPartFile('en', 2)}`]);
});
