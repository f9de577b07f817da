import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchedRanges } from '../../src/core/highlight.ts';
import { snippet } from '../../src/core/snippet.ts';
import { fold, tokens } from '../../src/search/encoders.ts';
import { formsOf, languageSearch, otherFormsOf, query, suggestion } from '../../src/search/search-index.ts';
import { encodeIndex, openRuns } from '../../src/search/index-codec.ts';
import { postStats } from '../../src/search/relevance.ts';
import { searchOver } from '../helpers/search-over.ts';
import { stemGroups, stemTable } from '../../src/search/stem-groups.ts';
import { editDistance, hasStemmer, stem, typoEdits, withoutParticle } from '../../src/search/word-forms.ts';

/** A query form and a form in a text, per language with a stemmer: the same word, found either way. */
const FORMS: [lang: string, query: string, text: string][] = [
  ['en', 'walked', 'walk'],
  ['en', 'mapping', 'maps'],
  ['es', 'caminando', 'caminaron'],
  ['fr', 'marchait', 'marcher'],
  ['pt-br', 'cidades', 'cidade'],
  ['de', 'Gärten', 'Garten'],
  ['de', 'Wanderungen', 'Wanderung'],
  ['ru', 'картами', 'карта'],
  ['id', 'perjalanan', 'berjalan'],
  ['tr', 'şehirlerde', 'şehir'],
  ['ar', 'المكتبات', 'مكتبة'],
  ['hi', 'लड़कियों', 'लड़की'],
];

test('each language with a Snowball stemmer gives a word and its inflected form one stem (after folding)', () => {
  for (const [lang, a, b] of FORMS) {
    assert.ok(hasStemmer(lang), lang);
    assert.equal(stem(lang, fold(lang, a)), stem(lang, fold(lang, b)), `${lang}: ${a} ~ ${b}`);
  }
  for (const lang of ['zh', 'ja', 'ko', 'vi']) {
    assert.equal(hasStemmer(lang), false, lang);
    assert.equal(stem(lang, 'word'), 'word');
  }
  assert.notEqual(stem('en', 'walk'), stem('en', 'water'));
});

test('typo distance: one edit (deletion, insertion, substitution, neighbours swapped) from 4 letters, two from 9, none in CJK', () => {
  assert.equal(editDistance('tidle', 'tide', 1), 1);
  assert.equal(editDistance('tdie', 'tide', 1), 1, 'a transposition is one edit');
  assert.equal(editDistance('tixe', 'tide', 1), 1);
  assert.equal(editDistance('abcdef', 'uvwxyz', 2), 3, 'past the limit: limit + 1');
  assert.deepEqual(['map', 'tide', 'harbour', 'cartographer', '바다에서', '地図', 'ちず'].map((w) => typoEdits(w)), [0, 1, 1, 2, 0, 0, 0]);
});

test('a Korean word stands for itself without its particle', () => {
  assert.deepEqual(withoutParticle('ko', '바다에서'), ['바다에', '바다']);
  assert.deepEqual(withoutParticle('ko', '바다'), ['바']);
  assert.deepEqual(withoutParticle('en', 'harbour'), []);
});

test('stem groups: each stem finds its words, in vocabulary order', () => {
  const vocabulary = ['map', 'mapping', 'maps', 'walk', 'walked', 'water'];
  const groups = stemGroups(stemTable('en', vocabulary));
  const walk = groups.find('walk');
  assert.deepEqual([...groups.words(walk)].map((p) => vocabulary[p]), ['walk', 'walked']);
  assert.deepEqual([...groups.words(groups.stemAt(1))].map((p) => vocabulary[p]), ['map', 'mapping', 'maps']);
  assert.equal(groups.find('absent'), -1);
});

test('a query finds other forms of its words and typos, ranked exact before other forms before typos', async () => {
  const search = await searchOver('en', [
    ['On foot', 'We walked along the harbour at low tide.'],
    ['Maps', 'A walk is the oldest way of mapping a town.'],
    ['Rivers', 'The river mouth silts up; the tides move it.'],
    ['Walking', 'Nothing else here.'],
  ]);
  assert.deepEqual([...query(search, 'walk').ids], [1, 3, 0], 'walk itself first; then the longer words it begins (walking, walked), the title hit first');
  assert.deepEqual(new Set(query(search, 'walked').ids), new Set([0, 1, 3]), 'walked finds walk and walking');
  assert.deepEqual([...query(search, 'walked').ids].slice(0, 1), [0], 'the exact form ranks first');
  assert.deepEqual(new Set(query(search, 'map').ids), new Set([1]));
  assert.deepEqual(new Set(query(search, 'mapping').ids), new Set([1]));
  assert.deepEqual([...query(search, 'tidle').ids], [0, 2], 'a typo of tide finds tide, and tides (its form)');
  assert.deepEqual([...query(search, 'harbour tidle').ids].slice(0, 1), [0], 'a typo inside a longer query');
  assert.deepEqual([...query(search, 'xyzzy').ids], []);
  assert.equal(formsOf(search, 'tide').length, 3, 'a word the vocabulary holds is never corrected: no typo tiers');
  assert.deepEqual(otherFormsOf(search, 'walking'), ['walk', 'walked'], 'snippets are given the forms to show');
  assert.equal(suggestion(search, 'tidle'), 'tide');
  assert.equal(suggestion(search, 'harbur walk'), 'harbour walk');
  assert.equal(suggestion(search, 'walk'), undefined, 'nothing to suggest when every word is held');
});

test('typos are never assumed in Chinese, Japanese and Korean, and Korean drops particles', async () => {
  const ko = await searchOver('ko', [['바다', '바다에서 배가 떠난다'], ['산', '산은 높다']]);
  assert.deepEqual([...query(ko, '바다는').ids], [0], 'without its particle 바다는 is 바다, which begins 바다에서');
  assert.deepEqual([...query(ko, '산이').ids], [1]);
  const zh = await searchOver('zh', [['潮汐', '潮汐能是一种可再生能源']]);
  assert.deepEqual([...query(zh, '潮夕').ids], [], 'one character changed is another word');
  assert.equal(suggestion(zh, '潮夕'), undefined);
  // The word itself is its own tier, though a word holding it sorts before it.
  const empty = encodeIndex({}, [], postStats([], []));
  const vocabulary = ['一潮汐', '潮汐', '潮汐能'];
  assert.deepEqual(formsOf(languageSearch('zh', openRuns(empty.header, empty.data, 0), vocabulary, 0), '潮汐'), [[1], [0, 2], []]);
});

test('every language: an inflected query finds the post holding the other form', async () => {
  for (const [lang, q, form] of FORMS) {
    const search = await searchOver(lang, [[form, `${form} ${form}`], ['x', 'y']]);
    assert.deepEqual([...query(search, q).ids], [0], `${lang}: ${q} finds ${form}`);
  }
});

test('highlights mark the matched forms: walked for walk, tide for tidle', () => {
  const text = 'We walked to the tide line and walk back.';
  const marked = (q: string) => matchedRanges('en', text, tokens('en', q)).map(([a, b]) => text.slice(a, b));
  assert.deepEqual(marked('walk'), ['walked', 'walk']);
  assert.deepEqual(marked('walking'), ['walked', 'walk']);
  assert.deepEqual(marked('tidle'), ['tide']);
  assert.deepEqual(matchedRanges('ru', 'Старые карты лгут', tokens('ru', 'картами')).length, 1);
});

test('snippets end on a word, never on a pause or a sentence end before the ellipsis', () => {
  const text = `${'Filler words go here, and more of them, '.repeat(6)}the harbour, the tide, the boats, ${'and the long list, '.repeat(10)}end.`;
  const s = snippet('en', text, ['harbour']);
  assert.match(s, /harbour/);
  assert.doesNotMatch(s, /[,;:.!?]…$/u, s);
  assert.doesNotMatch(s, /^…[,;:]/u, s);
  const sentences = `${'One sentence ends here. '.repeat(12)}The harbour is full. ${'Another sentence ends. '.repeat(12)}`;
  assert.doesNotMatch(snippet('en', sentences, ['harbour']), /[.!?]…$/u);
});

test('query units: a word, or in Chinese and Japanese what was written together, its single characters written together', async () => {
  const { queryUnits, holdsNear } = await import('../../src/search/query-units.ts');
  assert.deepEqual(queryUnits('en', 'Sourdough recipe-tips').map((u) => u.name), ['sourdough', 'recipe', 'tips']);
  const [bitRot] = queryUnits('zh', '比特腐爛');
  assert.deepEqual([bitRot!.tokens, bitRot!.runs], [['比', '特', '腐烂'], ['比特']], 'traditional folds to simplified; 比 and 特 must stand together');
  assert.equal(queryUnits('ja', 'チェックサン')[0]!.kana, 'チェックサン');
  assert.ok(holdsNear('受け入れ時にチェックサムを記録し', 'チェックサン') && !holdsNear('チェックリストの仕方', 'チェックサン'));
  const zh = await searchOver('zh', [['存档', '比特腐烂是一种危险'], ['地图', '比较特别的东西在沙漠中腐烂']]);
  assert.deepEqual([...query(zh, '比特腐烂').ids], [0], 'the essay holding 比 and 特 apart does not hold 比特腐烂');
  const ja = await searchOver('ja', [['記録', '受け入れ時にチェックサムを記録し'], ['他', 'チェックの仕方']]);
  assert.deepEqual([...query(ja, 'チェックサン').ids], [0], 'one kana off');
});
