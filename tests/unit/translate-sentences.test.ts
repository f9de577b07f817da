import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { alignSentences, joinSentences, sentencesOf, splitSentences } from '../../src/translate/sentences.ts';
import { similarity } from '../../src/translate/similarity.ts';
import { holdsTerm, termPlaceholders } from '../../src/translate/fixed-terms.ts';
import { glossaryProblem } from '../../src/translate/checks.ts';
import type { Glossary } from '../../src/translate/glossary.ts';

test('sentences are cut by the Unicode rules, never inside a link or emphasis; each numbers its own placeholders', () => {
  assert.deepEqual(splitSentences('<em>One sentence.</em> Two <a i="1">here. And</a> more. <strong>Bold.</strong> Last.', 'en'), ['<em>One sentence.</em>', 'Two <a i="1">here. And</a> more.', '<strong>Bold.</strong>', 'Last.']);
  assert.deepEqual(splitSentences('One sentence, e.g. this one.', 'en'), ['One sentence, e.g. this one.']);
  assert.deepEqual(splitSentences('こんにちは。さようなら。', 'ja'), ['こんにちは。', 'さようなら。']);
  const sentences = sentencesOf('See <x i="1"></x>. Next <x i="2"></x> one <a i="3">x</a>.');
  assert.deepEqual(sentences, [
    { text: 'See <x i="1"></x>.', slots: [1] },
    { text: 'Next <x i="1"></x> one <a i="2">x</a>.', slots: [2, 3] },
  ]);
  // A translation that moved the link before the placeholder still pairs with its sentence.
  const aligned = alignSentences(sentences, 'Ver <x i="1"></x>. Siguiente <a i="3">x</a> uno <x i="2"></x>.', 'es');
  assert.deepEqual(aligned, ['Ver <x i="1"></x>.', 'Siguiente <a i="2">x</a> uno <x i="1"></x>.']);
  assert.equal(joinSentences(sentences, aligned!, 'es'), 'Ver <x i="1"></x>. Siguiente <a i="3">x</a> uno <x i="2"></x>.');
  assert.equal(alignSentences(sentences, 'Ver <x i="1"></x> y siguiente <a i="3">x</a> uno <x i="2"></x>.', 'es'), undefined, 'another number of sentences: not paired');
  assert.equal(alignSentences(sentences, 'Ver. Siguiente <a i="3">x</a> uno <x i="2"></x> <x i="1"></x>.', 'es'), undefined, 'placeholders in other sentences: not paired');
});

test('any text: its sentences hold all of it, in order', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom('Word', 'word', '. ', '! ', '? ', ' ', 'Dr. ', '2. ', '<em>', '</em>', '<x i="1"></x>'), { maxLength: 30 }), (parts) => {
      const text = parts.join('').trim() || 'x';
      assert.equal(splitSentences(text, 'en').join(' ').replace(/\s+/g, ' '), text.replace(/\s+/g, ' '));
    }),
    { numRuns: 1000 },
  );
});

test('similarity is the Levenshtein ratio, 0 below the minimum', () => {
  assert.equal(similarity("It is that the web's failures are so often silent.", "It is that the web's failures are very often silent.", 0.85), 1 - 4 / 52);
  assert.equal(similarity('kitten', 'sitting', 0.5), 1 - 3 / 7);
  assert.equal(similarity('kitten', 'sitting', 0.85), 0);
  assert.equal(similarity('same', 'same', 0.85), 1);
});

test('fixed terms: placeholders for the engines that take none, found inflected where nouns inflect', () => {
  const glossary: Glossary = { doNotTranslate: [], terms: { 'translation memory': { fr: 'mémoire de traduction', ru: 'память переводов' }, web: { fr: 'toile' } }, digest: 'x' };
  const { texts, restore } = termPlaceholders(['Translation memory keeps the <a i="1">web</a>.', 'No term here.'], glossary, 'fr');
  assert.deepEqual(texts, ['<x i="2"></x> keeps the <a i="1"><x i="3"></x></a>.', 'No term here.']);
  assert.deepEqual(restore(['La <x i="2"></x> garde la <a i="1"><x i="3"></x></a>.', 'Rien.']), ['La Mémoire de traduction garde la <a i="1">toile</a>.', 'Rien.']);
  assert.ok(holdsTerm('в памяти переводов', 'память переводов', 'ru'), 'Russian: the case ending changed');
  assert.ok(!holdsTerm('в памяти переводов', 'память переводов', 'es'), 'Spanish nouns inflect for number only: as written');
  assert.equal(glossaryProblem(glossary.terms, 'A translation memory.', 'Это память переводов.', 'ru'), undefined);
  assert.equal(glossaryProblem(glossary.terms, 'About translation memory.', 'О памяти переводов.', 'ru'), undefined);
  assert.match(glossaryProblem(glossary.terms, 'About translation memory.', 'О кэше.', 'ru')!, /not found in the translation \(in any inflected form\)/);
});
