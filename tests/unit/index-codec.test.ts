import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeIndex, exportOf, openRuns, runOf, termStarts } from '../../src/search/index-codec.ts';
import fc from 'fast-check';
import { createIndex, expand, exportIndex, indexText, languageSearch, query } from '../../src/search/search-index.ts';
import { collectionOf, idf, lengthNorms, postStats, wordScore } from '../../src/search/relevance.ts';
import { openTextPart, readTexts, splitTexts, textPartFile, textPartOf, textsFile } from '../../src/search/texts-codec.ts';

const DOCS = [
  'The tide comes in twice a day and the harbour fills',
  'Bread needs time: the dough rises slowly in a cold kitchen',
  'A harbour town keeps its archive of tides and bread prices',
  // Long enough that its words fall in different resolution slots.
  `${'word '.repeat(40)}late harbour mention and a tide ${'filler '.repeat(30)} the end`,
];

async function built(ids: number[]) {
  const index = createIndex();
  const vocabulary = new Set<string>();
  const docs = DOCS.map((text, i) => ({ id: ids[i]!, all: indexText('en', text), head: indexText('en', text.split(' ').slice(0, 3).join(' ')) }));
  for (const doc of docs) {
    doc.all.split(' ').forEach((w) => vocabulary.add(w));
    index.add(doc);
  }
  const words = [...vocabulary].sort();
  return { index, docs, chunks: await exportIndex(index), vocabulary: words, stats: postStats(docs, words) };
}

/** A word's BM25F score in each post, counted here from the texts (not from the index's counts). */
function scoresOf(docs: { id: number; all: string; head: string }[], word: string): Map<number, number> {
  const n = (text: string) => text.split(' ').filter((w) => w === word).length;
  const lengths = new Uint16Array(2 * (Math.max(...docs.map((d) => d.id)) + 1));
  for (const d of docs) [lengths[2 * d.id], lengths[2 * d.id + 1]] = [d.head.split(' ').length, d.all.split(' ').length - d.head.split(' ').length];
  const collection = collectionOf(lengths, docs.length);
  const norms = lengthNorms(lengths, collection);
  const holding = docs.filter((d) => n(d.all) > 0);
  const weight = idf(docs.length, holding.length);
  return new Map(holding.map((d) => [d.id, wordScore(weight, n(d.head), n(d.all) - n(d.head), norms, d.id)]));
}

for (const [name, ids, width] of [['small ids', [0, 1, 2, 3], 16], ['ids past 65535', [0, 70_000, 2, 3], 32]] as const) {
  test(`each word's run read in place holds FlexSearch's own result, ranked by the word's BM25F score, then by id (${name})`, async () => {
    const { index, docs, chunks, vocabulary, stats } = await built([...ids]);
    const { header, data } = encodeIndex(chunks, vocabulary, stats);
    assert.equal(header.width, width);
    assert.equal(header.runs % 4, 0);
    // An unaligned copy (as a pooled Buffer may be) reads the same.
    const shifted = new Uint8Array(data.byteLength + 1).subarray(1);
    shifted.set(data);
    const flex = (word: string) => (index.search(word, { limit: 10_000, index: ['all'] }) as unknown as { result: number[] }[])[0]?.result ?? [];
    for (const copy of [data, shifted]) {
      const runs = openRuns(header, copy, vocabulary.length);
      vocabulary.forEach((word, position) => {
        const scores = scoresOf(docs, word);
        const ranked = [...flex(word)].sort((a, b) => scores.get(b)! - scores.get(a)! || a - b);
        assert.deepEqual([...runOf(runs, position)], ranked, word);
      });
    }
    // The export section holds FlexSearch's export (what an incremental build updates): each word's slots.
    const exported = exportOf(header, shifted);
    const { fields } = termStarts(header.chunks, exported, vocabulary.length);
    for (const [key, entries] of Object.entries(chunks)) {
      if (!key.endsWith('.map')) continue;
      for (const [term, slots] of entries as [string, (number[] | null)[]][]) {
        let p = fields.get(key.split('.')[0]!)![vocabulary.indexOf(term)]!;
        const ours: number[][] = [];
        for (let n = exported[p++]!; n > 0; n--) ours.push([...exported.subarray(p + 1, (p += exported[p]! + 1))]);
        assert.deepEqual(ours, slots.map((slot) => slot ?? []), `${key}: ${term}`);
      }
    }
    const search = languageSearch('en', openRuns(header, data, vocabulary.length), vocabulary, 70_001);
    assert.deepEqual([...query(search, 'harbour').ids].slice(0, 1), [ids[2]], 'a title hit ranks first');
    const tid = await Promise.all(['tide', 'tides'].map((w) => flex(w)));
    assert.deepEqual(new Set(query(search, 'tid').ids), new Set(tid.flat()), 'a prefix matches the longer words');
    assert.equal(query(search, 'tid').ids[0], ids[0], 'the title hit first');
    const both = query(search, 'harbour tide');
    assert.deepEqual(new Set([...both.ids].filter((id) => !both.missing.has(id))), new Set([ids[0], ids[2], ids[3]]), 'posts holding every word (tide as itself or tides)');
    assert.deepEqual(new Set([...both.ids].slice(0, 3)), new Set([ids[0], ids[2], ids[3]]), 'rank first');
    const none = query(search, 'harbour dough');
    assert.ok(none.ids.length > 0 && [...none.ids].every((id) => none.missing.has(id)), 'no post has both: those with one, each lacking the other');
    assert.deepEqual([...query(search, 'absent').ids], []);
  });
}

test('index codec refuses a term outside the vocabulary', async () => {
  const { chunks } = await built([0, 1, 2, 3]);
  assert.throws(() => encodeIndex(chunks, ['tide'], postStats([], ['tide'])), /missing from the vocabulary/);
});

test('snippet texts round trip by id in parts of any bound, any script, absent posts undefined', () => {
  const texts = ['Harbour tides', undefined, 'مرحبا بالعالم 😀', '', '日本語のテキスト', 'x'.repeat(40)];
  const expected = ['Harbour tides', undefined, 'مرحبا بالعالم 😀', undefined, '日本語のテキスト', 'x'.repeat(40)];
  for (const bound of [1, 30, 64, 1 << 20]) {
    const { index, parts } = splitTexts(texts, bound);
    assert.equal(index.ids, texts.length);
    assert.equal(parts.length, index.parts.length);
    // Each part within the bound, or one text alone (a text is never cut).
    parts.forEach((bytes, k) => {
      const ids = (index.parts[k + 1] ?? texts.length) - index.parts[k]!;
      assert.ok(bytes.byteLength <= bound || ids === 1, `part ${k} of ${bound}: ${ids} ids, ${bytes.byteLength} bytes`);
    });
    const files = new Map(parts.map((bytes, k) => [textPartFile('en', k), bytes]));
    files.set(textsFile('en'), new TextEncoder().encode(JSON.stringify(index)));
    const text = readTexts((name) => {
      // Read at an odd offset, as a pooled buffer may be.
      const bytes = files.get(name)!;
      const shifted = new Uint8Array(bytes.byteLength + 1).subarray(1);
      shifted.set(bytes);
      return shifted;
    }, 'en', 1);
    assert.deepEqual(texts.map((_, id) => text(id)), expected, `bound ${bound}`);
    assert.equal(text(99), undefined);
    assert.equal(textPartOf(index, -1), undefined);
    for (const [k, first] of index.parts.entries()) assert.equal(openTextPart(parts[k]!)(first), expected[first]);
  }
  assert.equal(splitTexts(texts, 1).parts.length, texts.length, 'a text a part');
  assert.equal(splitTexts(texts, 1 << 20).parts.length, 1);
});

test('Chinese and Japanese query words expand to every vocabulary word holding them, in vocabulary order, as a full scan finds them', () => {
  const chars = fc.constantFrom(...'潮汐能量海水电力发電気エネルギー波の力');
  // Expansion reads the vocabulary alone: runs of no word do.
  const empty = encodeIndex({}, [], postStats([], []));
  fc.assert(
    fc.property(fc.uniqueArray(fc.string({ unit: chars, minLength: 1, maxLength: 4 }), { maxLength: 400 }), fc.string({ unit: chars, minLength: 1, maxLength: 3 }), (words, word) => {
      const vocabulary = [...words].sort();
      for (const lang of ['zh', 'ja']) {
        const search = languageSearch(lang, openRuns(empty.header, empty.data, 0), vocabulary, 0);
        const scanned = vocabulary.flatMap((w, i) => (w.includes(word) ? [i] : [])).slice(0, 200);
        assert.deepEqual(expand(search, word), scanned);
      }
    }),
    { numRuns: 300 },
  );
});
