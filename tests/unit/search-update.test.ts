import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeIndex } from '../../src/search/index-codec.ts';
import { createIndex, exportIndex } from '../../src/search/search-index.ts';
import { postStats, type SearchDoc } from '../../src/search/relevance.ts';
import { updatedIndex } from '../../src/pipeline/index/search-update.ts';

/** Few words, so documents share terms; up to 40 of them, so they fall in different resolution slots. */
const WORDS = ['tide', 'harbour', 'bread', 'time', 'dough', 'cold', 'city', 'walk', 'map', 'line', 'sea', 'salt'];
const doc = fc.record({ head: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }), body: fc.array(fc.constantFrom(...WORDS), { maxLength: 40 }) });
type Doc = { head: string[]; body: string[] } | null;
const indexed = (docs: readonly Doc[]): SearchDoc[] => docs.flatMap((d, id) => (d ? [{ id, head: d.head.join(' '), all: [...d.head, ...d.body].join(' ') }] : []));

/** What a clean build writes: every document added in id order, the vocabulary of `all`. */
async function clean(docs: readonly Doc[]) {
  const index = createIndex();
  const all = indexed(docs);
  for (const d of all) index.add(d);
  const words = [...new Set(all.flatMap((d) => d.all.split(' ')))].sort();
  return { ...encodeIndex(await exportIndex(index), words, postStats(all, words)), words };
}

test('an index updated from the live one for some changed documents encodes byte for byte as a clean build of the new documents', async () => {
  // Per id: its document before, and (when it changed) after; null: not indexed in this language.
  const cases = fc.array(fc.tuple(fc.option(doc), fc.option(fc.record({ now: fc.option(doc) }))), { minLength: 1, maxLength: 12 });
  await fc.assert(
    fc.asyncProperty(cases, async (ids) => {
      const before = ids.map(([d]) => d);
      const after = ids.map(([d, change]) => (change ? change.now : d));
      const changed = new Set(ids.flatMap(([, change], id) => (change ? [id] : [])));
      const live = await clean(before);
      const expected = await clean(after);
      const now = indexed(after);
      fc.pre(indexed(before).length > 0 && now.length > 0);
      const ours = await updatedIndex({ header: live.header, bytes: live.data, vocabulary: live.words }, changed, now.filter((d) => changed.has(d.id)), now.map((d) => d.id));
      assert.ok(ours, 'the one shape a small export has is updated');
      assert.deepEqual(ours.words, expected.words, 'the vocabulary is the terms of `all`');
      assert.deepEqual(ours.header, expected.header);
      assert.deepEqual(Buffer.from(ours.data), Buffer.from(expected.data));
    }),
    { numRuns: 200 },
  );
});
