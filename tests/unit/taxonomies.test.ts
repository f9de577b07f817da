import { test } from 'node:test';
import assert from 'node:assert/strict';
import { missingTermNames, usedTerms } from '../../src/pipeline/load/taxonomies.ts';
import { termName } from '../../src/core/term-names.ts';
import type { TermNames } from '../../src/core/types.ts';

const names: TermNames = { categories: { technology: { ar: 'التقنية', fr: 'Technologie' } }, tags: { 'link-rot': { fr: 'liens morts' } } };
const technology = { slug: 'technology', name: 'Technology' };

test('a term reads its name in the language, else its English name', () => {
  assert.equal(termName({ term_names: names }, 'categories', technology, 'ar'), 'التقنية');
  assert.equal(termName({ term_names: names }, 'categories', technology, 'ja'), 'Technology', 'no Japanese name: the English one');
  assert.equal(termName({ term_names: names }, 'categories', technology, 'en'), 'Technology');
  assert.equal(termName({ term_names: names }, 'tags', technology, 'fr'), 'Technology', 'a tag is not named by a category of the same slug');
});

test('missing names are counted per translated language over the terms in use', () => {
  const used = usedTerms((kind) => (kind === 'categories' ? ['technology', 'craft', 'technology'] : ['link-rot']));
  const missing = missingTermNames(names, used);
  assert.equal(missing.fr, 1, 'craft');
  assert.equal(missing.ar, 2, 'craft, link rot');
  assert.equal(missing.ja, 3);
  assert.equal(missing.en, undefined, 'English names are the posts\' own');
});
