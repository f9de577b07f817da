import { test } from 'node:test';
import assert from 'node:assert/strict';
import { query } from '../../src/search/search-index.ts';
import { bodyCount, headCount, idf, packCounts, wordScore } from '../../src/search/relevance.ts';
import { searchOver } from '../helpers/search-over.ts';

/** A body of `n` words that match nothing searched here. */
const filler = (n: number) => Array.from({ length: n }, (_, i) => `filler${String.fromCharCode(97 + (i % 26))}`).join(' ');

test('a word said five times in a short body ranks above the same word once in a long body, whatever the ids', async () => {
  for (const order of [0, 1]) {
    const docs: [string, string][] = [
      ['Notes', `harbour ${filler(400)}`],
      ['Notes', `harbour ${filler(10)} harbour harbour ${filler(5)} harbour harbour`],
    ];
    if (order) docs.reverse();
    const search = await searchOver('en', docs);
    assert.deepEqual([...query(search, 'harbour').ids], order ? [0, 1] : [1, 0]);
    // The same through the general path (two query words, each its own run): the sum of the scores.
    assert.deepEqual([...query(search, 'harbour notes').ids], order ? [0, 1] : [1, 0]);
  }
});

test('of two posts saying a word as often, the shorter ranks first', async () => {
  const search = await searchOver('en', [
    ['Notes', `harbour ${filler(400)} harbour`],
    ['Notes', `harbour ${filler(30)} harbour`],
  ]);
  assert.deepEqual([...query(search, 'harbour').ids], [1, 0]);
});

test('a title match ranks above a body match of the same count and length', async () => {
  const search = await searchOver('en', [
    ['Quiet streets', `the tide came in ${filler(50)}`],
    ['Tide tables', `it came in ${filler(50)}`],
  ]);
  assert.deepEqual([...query(search, 'tide').ids], [1, 0]);
  assert.deepEqual([...query(search, 'came tide').ids], [1, 0], 'the word both hold adds the same to each');
});

test('the rarer word weighs more: of two posts holding one query word each, the one with the rare word ranks first', async () => {
  const search = await searchOver('en', [
    ['A', `salt sea ${filler(20)}`],
    ['B', `salt harbour ${filler(20)}`],
    ['C', `salt sea ${filler(20)}`],
    ['D', `salt sea ${filler(20)}`],
  ]);
  // salt is in every post: only sea and harbour tell the posts apart; harbour is rarer.
  const [saltHarbour, seaSalt] = [query(search, 'salt harbour'), query(search, 'sea salt')];
  assert.deepEqual([...saltHarbour.ids].filter((id) => !saltHarbour.missing.has(id)), [1]);
  assert.equal([...seaSalt.ids].filter((id) => !seaSalt.missing.has(id)).length, 3);
  const [harbour, sea] = [idf(4, 1), idf(4, 3)];
  assert.ok(harbour > sea && sea > 0, `idf: ${harbour} > ${sea} > 0`);
});

test('exact before other forms before typos, even against many more mentions in shorter posts', async () => {
  const many = (w: string) => `${w} `.repeat(12);
  const forms = await searchOver('en', [
    ['Notes', `${many('mapped')} ${filler(5)}`], // another form of mapping (its stem), said often
    ['Notes', `mapping ${filler(200)}`], // the word itself, once in a long body
    ['Notes', `${many('mappings')} ${filler(5)}`], // a longer word it begins, said often
  ]);
  assert.deepEqual([...query(forms, 'mapping').ids], [1, 2, 0], 'the word itself, then the longer words it begins, then its other forms');
  // walkers is not in the vocabulary: walker is its form (one stem), talkers a typo away.
  const typos = await searchOver('en', [
    ['Notes', `${many('talkers')} ${filler(5)}`],
    ['Notes', `walker ${filler(200)}`],
  ]);
  assert.deepEqual([...query(typos, 'walkers').ids], [1, 0]);
  // diffrence: a typo of difference (said once, in a long post) and of differences' stem (differ, said often).
  const meant = await searchOver('en', [
    ['Notes', `${many('differ')} ${filler(5)}`],
    ['Notes', `difference ${filler(200)}`],
  ]);
  assert.deepEqual([...query(meant, 'diffrence').ids], [1, 0], 'the word a typo away first, then its other forms');
  assert.deepEqual([...query(typos, 'walkers notes').ids], [1, 0], 'a query ranks by the worst tier of its words, then by score');
});

test('counts pack into a byte (head up to 7, body up to 31) and the score saturates', () => {
  assert.deepEqual([headCount(packCounts(3, 20)), bodyCount(packCounts(3, 20))], [3, 20]);
  assert.deepEqual([headCount(packCounts(99, 999)), bodyCount(packCounts(99, 999))], [7, 31]);
  const norms = new Float64Array([1, 1]);
  const [once, five, thirty] = [1, 5, 30].map((n) => wordScore(1, 0, n, norms, 0));
  assert.ok(once! < five! && five! < thirty!, 'more mentions score more');
  assert.ok(thirty! - five! < five! - once!, 'but each adds less');
  assert.ok(wordScore(1, 1, 0, norms, 0) > wordScore(1, 0, 1, norms, 0), 'a head mention weighs more than a body one');
});
