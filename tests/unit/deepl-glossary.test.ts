import { test } from 'node:test';
import assert from 'node:assert/strict';
import { entriesFor, glossaryName } from '../../src/translate/providers/deepl-glossary.ts';
import { retryAfterMs } from '../../src/translate/retry-after.ts';
import type { Glossary } from '../../src/translate/glossary.ts';

const glossary: Glossary = {
  doNotTranslate: ['Folio'],
  terms: { 'translation memory': { fr: 'mémoire de traduction', 'pt-br': 'memória de tradução' }, segment: { fr: 'segment' } },
  digest: 'x',
};

test("DeepL glossaries: a language's fixed translations only, never the kept terms; none for a language without any", () => {
  assert.deepEqual(entriesFor(glossary, 'fr'), { 'translation memory': 'mémoire de traduction', segment: 'segment' });
  assert.deepEqual(entriesFor(glossary, 'pt-br'), { 'translation memory': 'memória de tradução' });
  assert.deepEqual(entriesFor(glossary, 'de'), {});
  assert.deepEqual(entriesFor(undefined, 'fr'), {});
});

test('DeepL glossaries: the name is the language without its region and a digest of the entries, whatever their order', () => {
  const fr = glossaryName('fr', { a: '1', b: '2' });
  assert.match(fr, /^folio-en-fr-[\w-]{12}$/);
  assert.equal(glossaryName('fr', { b: '2', a: '1' }), fr, 'order does not matter');
  assert.notEqual(glossaryName('fr', { a: '1', b: '3' }), fr, 'an edited entry is another glossary');
  assert.match(glossaryName('pt-br', { a: '1' }), /^folio-en-pt-/);
});

test('Retry-After: seconds, an HTTP date, retry-after-ms; nothing usable is undefined', () => {
  assert.equal(retryAfterMs(new Headers({ 'retry-after': '1' })), 1000);
  assert.equal(retryAfterMs(new Headers({ 'retry-after': new Date(61_000).toUTCString() }), 1000), 60_000);
  assert.equal(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' })), 250);
  assert.equal(retryAfterMs(new Headers({ 'retry-after': 'soon' })), undefined);
  assert.equal(retryAfterMs(undefined), undefined);
});
