import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeIndex, encodeIndex } from '../../src/search/index-codec.ts';
import { createIndex, exportIndex, importIndex, indexText, query } from '../../src/search/search-index.ts';

const DOCS = [
  'The tide comes in twice a day and the harbour fills',
  'Bread needs time: the dough rises slowly in a cold kitchen',
  'A harbour town keeps its archive of tides and bread prices',
];

async function built(ids: number[]) {
  const index = createIndex();
  const vocabulary = new Set<string>();
  DOCS.forEach((text, i) => {
    const all = indexText('en', text);
    all.split(' ').forEach((w) => vocabulary.add(w));
    index.add({ id: ids[i]!, all, head: indexText('en', text.split(' ').slice(0, 3).join(' ')) });
  });
  return { chunks: await exportIndex(index), vocabulary: [...vocabulary].sort() };
}

for (const [name, ids, width] of [['small ids', [0, 1, 2], 16], ['ids past 65535', [0, 70_000, 2], 32]] as const) {
  test(`index codec round trip (${name})`, async () => {
    const { chunks, vocabulary } = await built([...ids]);
    const { header, data } = encodeIndex(chunks, vocabulary);
    assert.equal(header.width, width);
    const bytes = new Uint8Array(data.buffer);
    assert.deepEqual(decodeIndex(header, bytes, vocabulary), chunks);
    // An unaligned copy (as a pooled Buffer may be) decodes the same.
    const shifted = new Uint8Array(bytes.byteLength + 1).subarray(1);
    shifted.set(bytes);
    assert.deepEqual(decodeIndex(header, shifted, vocabulary), chunks);
    const search = { lang: 'en', vocabulary, index: importIndex(decodeIndex(header, bytes, vocabulary)) };
    const original = { lang: 'en', vocabulary, index: importIndex(chunks) };
    for (const q of ['harbour', 'bread', 'tid', 'dough rises', 'absent']) assert.deepEqual(query(search, q), query(original, q), q);
    assert.deepEqual(query(search, 'harbour'), [ids[2], ids[0]], 'a title hit ranks first');
  });
}

test('index codec refuses a term outside the vocabulary', async () => {
  const { chunks } = await built([0, 1, 2]);
  assert.throws(() => encodeIndex(chunks, ['tide']), /missing from the vocabulary/);
});
